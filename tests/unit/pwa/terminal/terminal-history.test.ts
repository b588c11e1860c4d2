import { describe, expect, it } from 'vitest';
import { countFromNewest, FIND_HIGHLIGHT_LIMIT, matchCountText } from '../../../../pwa/terminal/find-count.js';
import { historyNote, snapshotScrollback, snapshotText } from '../../../../pwa/terminal/history-text.js';

describe("find in a pane's history", () => {
  it('counts matches from the newest, as a search upwards meets them', () => {
    // The addon numbers from the top: its last match is the newest.
    expect(countFromNewest({ resultIndex: 11, resultCount: 12 })).toEqual({ resultIndex: 0, resultCount: 12 });
    expect(matchCountText('x', countFromNewest({ resultIndex: 11, resultCount: 12 }))).toBe('1 of 12');
    expect(matchCountText('x', countFromNewest({ resultIndex: 0, resultCount: 12 }))).toBe('12 of 12');
    expect(matchCountText('x', countFromNewest({ resultIndex: 0, resultCount: 1 }))).toBe('1 of 1');
    expect(countFromNewest({ resultIndex: -1, resultCount: 0 })).toEqual({ resultIndex: -1, resultCount: 0 });
  });

  it('numbers no match past the highlight limit: the addon holds only the oldest matches then', () => {
    expect(countFromNewest({ resultIndex: 3, resultCount: FIND_HIGHLIGHT_LIMIT })).toEqual({ resultIndex: -1, resultCount: FIND_HIGHLIGHT_LIMIT });
    expect(matchCountText('e', countFromNewest({ resultIndex: 3, resultCount: FIND_HIGHLIGHT_LIMIT }))).toBe('1000+ matches');
  });

  it('says what it searches when that is not the whole history', () => {
    expect(historyNote(null)).toBe('');
    expect(historyNote({ kind: 'loading' })).toBe('Loading the history…');
    expect(historyNote({ kind: 'ready', truncated: false })).toBe('');
    expect(historyNote({ kind: 'ready', truncated: true })).toBe('Searching the newest 4 MB of the history');
    expect(historyNote({ kind: 'failed', reason: 'Could not reach the agent.' })).toBe('Searching the screen only: Could not reach the agent.');
  });

  it('writes the lines as a terminal takes them: CR LF between them, none after the last, no cursor', () => {
    expect(snapshotText('one\n\x1b[31mtwo\x1b[39m\n$ \n')).toBe('\x1b[?25lone\r\n\x1b[31mtwo\x1b[39m\r\n$ ');
    // The screen's empty bottom rows stay rows.
    expect(snapshotText('a\n\n\n')).toBe('\x1b[?25la\r\n\r\n');
    expect(snapshotText('')).toBe('\x1b[?25l');
  });

  it('holds every row the text can take in its scrollback', () => {
    expect(snapshotScrollback('a\nb\n', 80)).toBe(3 + 1);
    // A joined line of 200 wide characters takes 400 cells: five rows of 80, and then some.
    const wide = `${'字'.repeat(200)}\n`;
    expect(snapshotScrollback(wide, 80)).toBeGreaterThanOrEqual(5);
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    expect(snapshotScrollback(lines, 80)).toBeGreaterThanOrEqual(1000);
  });
});
