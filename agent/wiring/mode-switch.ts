import { setTimeout as sleep } from 'node:timers/promises';
import { CLAUDE_MODE_TEXT, type ClaudeMode } from '../../protocol/claude-mode.js';
import type { DialogPanes } from '../approvals/pane-dialogs.js';
import { readScreen } from '../approvals/screen-reader.js';
import type { Logger } from '../util/log.js';

/** Why a switch was refused or did not reach its mode: `status` is the HTTP answer. */
export class ModeSwitchError extends Error {
  constructor(
    readonly status: 400 | 409 | 502,
    message: string,
  ) {
    super(message);
  }
}

export interface ModeSwitchTimings {
  /** How long a press may take to show in the footer before it is pressed again. */
  settleMs: number;
  /** Between looks at the footer. */
  lookMs: number;
}

export const MODE_SWITCH_TIMINGS: ModeSwitchTimings = { settleMs: 1_500, lookMs: 100 };

/** Claude's cycle has four modes, five with bypass: twice round is more than any switch needs. */
const MAX_PRESSES = 10;

const NO_PROMPT = "Claude's prompt is not on the screen";

/**
 * Switches a Claude session's permission mode the way a person does: Shift+Tab until the footer
 * shows the mode, each press seen before the next. Bypass is only ever chosen with `confirm`;
 * a session started with bypass has it in its cycle, and a switch that passes it leaves it at
 * once, without waiting for the person to see it. Refused while a dialog is up (the key would
 * go to the dialog) and when the footer shows no mode.
 */
export async function switchMode(
  panes: Pick<DialogPanes, 'screen' | 'pressKey'>,
  key: string,
  target: ClaudeMode,
  options: { confirm: boolean; log: Logger; timings?: ModeSwitchTimings },
): Promise<ClaudeMode> {
  if (target === 'bypass' && !options.confirm) throw new ModeSwitchError(400, 'bypass permissions runs every tool without asking: confirm it to switch');
  const timings = options.timings ?? MODE_SWITCH_TIMINGS;
  const modeNow = async (): Promise<ClaudeMode | null> => {
    const reading = readScreen(await panes.screen(key));
    if (reading.kind === 'dialog') throw new ModeSwitchError(409, 'Claude is showing a dialog: answer it first');
    if (reading.kind === 'unknown') throw new ModeSwitchError(409, NO_PROMPT);
    return reading.mode;
  };
  // A screen being redrawn (the pane was resized) shows no prompt or no footer for a moment.
  let mode: ClaudeMode | null = null;
  let unseen: ModeSwitchError | null = null;
  for (const deadline = Date.now() + timings.settleMs; ; await sleep(timings.lookMs)) {
    try {
      mode = await modeNow();
      unseen = null;
    } catch (err) {
      if (!(err instanceof ModeSwitchError) || err.message !== NO_PROMPT) throw err;
      unseen = err;
    }
    if (mode !== null || Date.now() >= deadline) break;
  }
  if (unseen) throw unseen;
  if (mode === null) throw new ModeSwitchError(409, "Claude's footer names no permission mode");
  const start = mode;
  /** One Shift+Tab, and the mode the footer shows once it changed; null when the press was not taken. */
  const press = async (from: ClaudeMode): Promise<ClaudeMode | null> => {
    await panes.pressKey(key, 'BTab');
    const deadline = Date.now() + timings.settleMs;
    let next: ClaudeMode | null = from;
    while (next === from && Date.now() < deadline) {
      await sleep(timings.lookMs);
      next = await modeNow();
    }
    return next === null || next === from ? null : next;
  };
  const seen: ClaudeMode[] = [mode];
  for (let presses = 0; mode !== target && presses < MAX_PRESSES; presses++) {
    // Not taken: the next round presses again.
    const next = await press(mode);
    if (next === null) continue;
    mode = next;
    // Back where it started: the whole cycle was seen, and the mode is not in it.
    if (mode === start) break;
    if (!seen.includes(mode)) seen.push(mode);
    if (mode === 'bypass' && target !== 'bypass') options.log.info('a mode switch passed through bypass permissions', { key, target });
  }
  if (mode !== target) {
    // Round the cycle once more to where it started: a refused switch changes nothing.
    for (let presses = 0; mode !== start && presses < MAX_PRESSES; presses++) mode = (await press(mode)) ?? mode;
    const cycle = seen.map((m) => CLAUDE_MODE_TEXT[m]).join(', ');
    throw new ModeSwitchError(409, `${CLAUDE_MODE_TEXT[target]} is not among this session's modes (${cycle})`);
  }
  return mode;
}
