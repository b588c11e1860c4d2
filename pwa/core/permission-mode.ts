import { CLAUDE_MODE_TEXT, type ClaudeMode } from '../../protocol/claude-mode.js';
import type { TabStatus } from '../../protocol/status.js';
import type { ChipTone } from '../ui/styles.js';

/**
 * The colour a mode is marked in (a class of the chip in ui/styles.ts): manual is the common
 * case and stays quiet, bypass (every tool runs unasked) takes the danger colour, the others
 * a colour each, as Claude's own footer does.
 */
export type ModeTone = ChipTone;

const TONE: Readonly<Record<ClaudeMode, ModeTone>> = {
  manual: 'quiet',
  'accept-edits': 'busy',
  plan: 'review',
  auto: 'accent',
  bypass: 'danger',
  'dont-ask': 'review',
};

export interface ModeMark {
  mode: ClaudeMode;
  /** The protocol's words for the mode. */
  text: string;
  tone: ModeTone;
}

export function modeMark(mode: ClaudeMode): ModeMark {
  return { mode, text: CLAUDE_MODE_TEXT[mode], tone: TONE[mode] };
}

/**
 * The mode a session's row marks: every mode but manual, while its claude runs (a mode
 * reported before claude ended says nothing about the next one).
 */
export function rowModeMark(status: Pick<TabStatus, 'permissionMode' | 'claudeRunning'> | undefined): ModeMark | null {
  const mode = status?.claudeRunning ? status.permissionMode : null;
  return mode === null || mode === undefined || mode === 'manual' ? null : modeMark(mode);
}
