/**
 * A pane's history for find: the bound on what the agent keeps of it while tmux prints, the cut
 * at a line's start, and the slots.
 */
import { describe, expect, it } from 'vitest';
import { ByteTail, historyTail, MAX_CONCURRENT_CAPTURES, newestLines } from '../../../../agent/tmux/pane-history.js';
import { Slots } from '../../../../agent/util/slots.js';
import { PANE_HISTORY_MAX_BYTES } from '../../../../protocol/pane-history.js';

/** What a capture of `text` keeps within `max` bytes, fed in chunks of `chunk` bytes. */
function capture(text: string | Buffer, max: number, chunk = 3) {
  const tail = historyTail(max);
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunk) tail.push(bytes.subarray(at, at + chunk));
  return newestLines(tail.result(), max);
}

describe('ByteTail', () => {
  it('keeps the last bytes, letting whole chunks go as they come', () => {
    const tail = new ByteTail(5);
    for (const part of ['ab', 'cd', 'ef', 'gh']) tail.push(Buffer.from(part));
    const { bytes, cut } = tail.result();
    expect(bytes.toString()).toBe('defgh');
    expect(cut).toBe(true);
  });

  it('says nothing was cut when everything fits', () => {
    const tail = new ByteTail(8);
    tail.push(Buffer.from('abc'));
    tail.push(Buffer.from('de'));
    expect(tail.result()).toEqual({ bytes: Buffer.from('abcde'), cut: false });
    expect(new ByteTail(8).result()).toEqual({ bytes: Buffer.alloc(0), cut: false });
  });

  it('cuts inside the one chunk that holds more than the bound', () => {
    const tail = new ByteTail(4);
    tail.push(Buffer.from('0123456789'));
    expect(tail.result()).toEqual({ bytes: Buffer.from('6789'), cut: true });
  });
});

describe('newestLines', () => {
  it('sends a capture within the bound as it is', () => {
    expect(capture('one\ntwo\n', 8)).toEqual({ text: 'one\ntwo\n', truncated: false });
    expect(capture('', 8)).toEqual({ text: '', truncated: false });
  });

  it('keeps the newest lines that fit, from the start of a line', () => {
    // The last 9 bytes are "wo\nthree\n": "wo" is the end of a line, left out.
    expect(capture('one\ntwo\nthree\n', 9)).toEqual({ text: 'three\n', truncated: true });
    // The last 10 bytes start a line exactly: all of them stay.
    expect(capture('one\ntwo\nfour\nfive\n', 10)).toEqual({ text: 'four\nfive\n', truncated: true });
    expect(capture('one\ntwo\nfour\nfive\n', 9)).toEqual({ text: 'five\n', truncated: true });
  });

  it('keeps the colours of the lines it keeps, never half an escape at a line start', () => {
    const red = '\x1b[31mred\x1b[39m\n';
    const text = capture(`${'x'.repeat(40)}\n${red}${red}`, red.length * 2 + 5);
    expect(text).toEqual({ text: `${red}${red}`, truncated: true });
  });

  it('cuts one line longer than the bound at a character, never inside one', () => {
    const line = `${'é'.repeat(20)}\n`;
    const kept = capture(line, 10, 4);
    expect(kept.truncated).toBe(true);
    expect(Buffer.byteLength(kept.text)).toBeLessThanOrEqual(10);
    expect(kept.text).toMatch(/^é+\n$/);
    expect(kept.text).not.toContain('\ufffd');
  });

  it('never sends more than the bound, whatever the chunks', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `${i} ${'∑'.repeat(i % 17)}\x1b[1mbold\x1b[0m`).join('\n');
    for (const max of [1, 7, 64, 1000, 4096]) {
      for (const chunk of [1, 5, 4096]) {
        const kept = capture(`${lines}\n`, max, chunk);
        expect(Buffer.byteLength(kept.text), `${max}/${chunk}`).toBeLessThanOrEqual(max);
        expect(kept.text.endsWith('\n') || kept.text === '', `${max}/${chunk}`).toBe(true);
        expect(`${lines}\n`.endsWith(kept.text)).toBe(true);
      }
    }
  });

  it('bounds what it sends at 4 MB by default', () => {
    expect(PANE_HISTORY_MAX_BYTES).toBe(4 * 1024 * 1024);
    const line = `${'y'.repeat(99)}\n`;
    const big = Buffer.from(line.repeat(50_000));
    const kept = capture(big, PANE_HISTORY_MAX_BYTES, 65_536);
    expect(kept.truncated).toBe(true);
    expect(Buffer.byteLength(kept.text)).toBe(Math.floor(PANE_HISTORY_MAX_BYTES / 100) * 100);
    expect(kept.text.startsWith('y')).toBe(true);
  });
});

describe('the capture slots', () => {
  it('lets a few captures run at once, and one more once one is answered', () => {
    const slots = new Slots(MAX_CONCURRENT_CAPTURES);
    const taken = Array.from({ length: MAX_CONCURRENT_CAPTURES }, () => slots.tryTake());
    expect(taken.every((release) => release !== null)).toBe(true);
    expect(slots.tryTake()).toBeNull();
    taken[0]?.();
    // Released twice, counted once.
    taken[0]?.();
    expect(slots.tryTake()).not.toBeNull();
    expect(slots.tryTake()).toBeNull();
  });
});
