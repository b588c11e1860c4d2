/**
 * What find's snapshot of a pane's history (history-snapshot.ts) shows and says. Pure, so it is
 * tested apart from xterm.
 */
import { PANE_HISTORY_MAX_BYTES } from '../../protocol/pane-history.js';

/** The snapshot while find is open: its history coming, shown, or not to be had. */
export type HistoryState = { kind: 'loading' } | { kind: 'ready'; truncated: boolean } | { kind: 'failed'; reason: string };

/** The find bar's line about what it searches; empty when it searches the whole history. */
export function historyNote(state: HistoryState | null): string {
  if (!state) return '';
  switch (state.kind) {
    case 'loading':
      return 'Loading the history…';
    case 'ready':
      return state.truncated ? `Searching the newest ${PANE_HISTORY_MAX_BYTES / (1024 * 1024)} MB of the history` : '';
    case 'failed':
      return `Searching the screen only: ${state.reason}`;
  }
}

/**
 * The captured lines as a terminal is written to: each line ended by `\r\n` but the last (the
 * screen's bottom row stays the bottom row), the cursor hidden, since nothing is typed here.
 */
export function snapshotText(text: string): string {
  const lines = text.endsWith('\n') ? text.slice(0, -1) : text;
  return `\x1b[?25l${lines.replaceAll('\n', '\r\n')}`;
}

/**
 * Enough scrollback for every row the text can take: a line takes one row, and one more for
 * each `cols` cells it fills past that; a UTF-16 unit is at most two cells (a wide character),
 * and escapes count too, so this is a bound, not a count.
 */
export function snapshotScrollback(text: string, cols: number): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines + Math.ceil((2 * text.length) / Math.max(1, cols));
}
