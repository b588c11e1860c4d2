/**
 * xterm.js (headless, the same core as the browser's) fed what a tmux client prints: the
 * lines tmux scrolls off the screen land in the scrollback, where find reaches them.
 */
import { Terminal as Headless } from '@xterm/headless';
import type { Terminal } from '@xterm/xterm';
import { describe, expect, it } from 'vitest';
import { keepTmuxScrollback, onlyAlternateScreen } from '../../pwa/terminal/tmux-scrollback.js';

function terminal(keep = true, rows = 5): Headless {
  const term = new Headless({ cols: 20, rows, scrollback: 100, allowProposedApi: true });
  if (keep) keepTmuxScrollback(term as unknown as Terminal);
  return term;
}

function write(term: Headless, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

function lines(term: Headless): string[] {
  const buffer = term.buffer.active;
  const out: string[] = [];
  for (let i = 0; i < buffer.length; i++) out.push(buffer.getLine(i)?.translateToString(true) ?? '');
  return out;
}

function screen(term: Headless): string[] {
  return lines(term).slice(term.buffer.active.baseY);
}

/** What tmux 3.3 prints when it attaches, and for output that scrolled N lines between two redraws. */
const ATTACH = '\x1b[?1049h\x1b[22;0;0t\x1b[?1h\x1b=\x1b[H\x1b[2J\x1b[?25h\x1b[1;5r\x1b[1;1H';
function tmuxScroll(from: number, count: number, rows: number): string {
  // SU moves the old screen up; tmux then redraws every row from the top.
  const drawn = Array.from({ length: rows }, (_, i) => `line-${String(from + count - rows + i).padStart(4, '0')}\x1b[K`);
  return `\x1b[${count}S\x1b[H${drawn.join('\r\n')}`;
}

describe("keeping tmux's scrolled lines", () => {
  it('stays on the normal screen, which has a scrollback, when tmux attaches', async () => {
    const term = terminal();
    await write(term, ATTACH);
    expect(term.buffer.active.type).toBe('normal');
    const plain = terminal(false);
    await write(plain, ATTACH);
    expect(plain.buffer.active.type).toBe('alternate');
  });

  it('moves the lines a multi-line scroll (SU) takes off the top into the scrollback', async () => {
    const term = terminal();
    await write(term, ATTACH);
    await write(term, ['a', 'b', 'c', 'd', 'e'].map((l) => `line-${l}`).join('\r\n'));
    await write(term, '\x1b[3S');
    expect(lines(term).slice(0, 3)).toEqual(['line-a', 'line-b', 'line-c']);
    expect(screen(term)).toEqual(['line-d', 'line-e', '', '', '']);
    // The cursor stays where it was on the screen, as with xterm.js's own SU.
    expect(term.buffer.active.cursorY).toBe(4);
    expect(term.buffer.active.cursorX).toBe(6);
  });

  it('keeps every line tmux drew across a stream of scrolls, and shows the same screen as before', async () => {
    const term = terminal();
    const plain = terminal(false);
    let data = ATTACH;
    let shown = 0;
    for (const count of [5, 3, 1, 4, 5, 2]) {
      data += tmuxScroll(shown + 1, count, 5);
      shown += count;
    }
    await write(term, data);
    await write(plain, data);
    expect(screen(term)).toEqual(screen(plain));
    const kept = lines(term).filter((l) => l.startsWith('line-'));
    expect(kept).toEqual(Array.from({ length: shown }, (_, i) => `line-${String(i + 1).padStart(4, '0')}`));
    expect(lines(plain).filter((l) => l.startsWith('line-'))).toHaveLength(5);
  });

  it('caps a scroll at the height of the region, as SU does', async () => {
    const term = terminal();
    await write(term, `${ATTACH}1\r\n2\r\n3\r\n4\r\n5\x1b[99S`);
    expect(lines(term)).toEqual(['1', '2', '3', '4', '5', '', '', '', '', '']);
  });

  it('leaves a region that does not start at the top to xterm.js (a status line above, a split)', async () => {
    const term = terminal();
    await write(term, `${ATTACH}top\r\n1\r\n2\r\n3\r\n4\x1b[2;5r\x1b[2S`);
    expect(term.buffer.active.baseY).toBe(0);
    expect(screen(term)).toEqual(['top', '3', '4', '', '']);
  });

  it('keeps a scroll of a region above a status line at the bottom', async () => {
    const term = terminal();
    await write(term, `${ATTACH}1\r\n2\r\n3\r\n4\r\nstatus\x1b[1;4r\x1b[2S`);
    expect(lines(term).slice(0, 2)).toEqual(['1', '2']);
    expect(screen(term)).toEqual(['3', '4', '', '', 'status']);
  });

  it('still switches screens for a mode change that does more than that', () => {
    expect(onlyAlternateScreen([1049])).toBe(true);
    expect(onlyAlternateScreen([47])).toBe(true);
    expect(onlyAlternateScreen([1047, 1049])).toBe(true);
    expect(onlyAlternateScreen([1049, 25])).toBe(false);
    expect(onlyAlternateScreen([2004])).toBe(false);
    expect(onlyAlternateScreen([])).toBe(false);
  });
});
