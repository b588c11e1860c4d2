import type { ClaudeMode } from '../../protocol/claude-mode.js';

/**
 * The modes the switch offers, in the order of Claude's own Shift+Tab cycle. Bypass comes
 * last, behind a confirmation; Claude has it only when started with it, and otherwise the
 * agent says which modes the session has. Don't ask is not in the cycle: it is only listed
 * while a session is in it.
 */
export const SWITCHABLE_MODES: readonly ClaudeMode[] = ['manual', 'accept-edits', 'plan', 'auto', 'bypass'];

/** What each mode lets Claude do, in a line under its name. */
export const MODE_HINT: Readonly<Record<ClaudeMode, string>> = {
  manual: 'Asks before edits and commands',
  'accept-edits': 'Edits files without asking; asks before commands',
  plan: 'Reads and plans; changes nothing until you accept the plan',
  auto: 'A classifier approves lower-risk actions and blocks the rest',
  bypass: 'Runs every tool without asking',
  'dont-ask': 'Denies every tool not allowed in advance',
};

/** Said before bypass is chosen: what it does, and that the session may not have it. */
export const BYPASS_QUESTION =
  'Switch to bypass permissions? Claude then runs every tool, edits and commands alike, without asking. A session has it only when it was started with it.';

/** The modes on the menu: the cycle's, and the current one when it is not among them. */
export function modeChoices(current: ClaudeMode | null): readonly ClaudeMode[] {
  return current === null || SWITCHABLE_MODES.includes(current) ? SWITCHABLE_MODES : [...SWITCHABLE_MODES, current];
}

/** Said while the agent presses Shift+Tab, which takes a second or two. */
export function switchingText(target: string): string {
  return `Pressing Shift+Tab until Claude shows ${target}…`;
}

/**
 * A switch the agent answered: its mode, and the mode the status said when the answer came.
 * The status follows the footer within a second; until it moves, the answer is newer.
 */
export interface SwitchAnswer {
  mode: ClaudeMode;
  statusModeThen: ClaudeMode | null;
}

/** The mode to show: the agent's answer while the status has not moved since, else the status's. */
export function shownMode(statusMode: ClaudeMode | null, answer: SwitchAnswer | null): ClaudeMode | null {
  return answer !== null && statusMode === answer.statusModeThen ? answer.mode : statusMode;
}
