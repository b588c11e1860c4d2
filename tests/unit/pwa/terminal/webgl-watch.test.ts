import { describe, expect, it } from 'vitest';
import { backingMatches, FRAMES_TO_FAIL, FRAMES_TO_TRUST, FrameTally, SLOW_FRAME_MS, showsDrawing } from '../../../../pwa/terminal/webgl-watch.js';

describe("the WebGL watch's judgement", () => {
  it('takes a backing store of CSS size times the pixel ratio, to a rounding, and refuses one in CSS pixels', () => {
    expect(backingMatches(752, 376, 2)).toBe(true);
    expect(backingMatches(1127, 375.6, 3)).toBe(true);
    expect(backingMatches(376, 376, 1)).toBe(true);
    // What headless Chromium with an emulated scale factor leaves: the CSS size itself.
    expect(backingMatches(376, 376, 2)).toBe(false);
    expect(backingMatches(375, 375, 3)).toBe(false);
    // A page zoomed to 110 %: still told apart.
    expect(backingMatches(376, 376, 1.1)).toBe(false);
    expect(backingMatches(414, 376, 1.1)).toBe(true);
  });

  it('sees drawing in pixels of more than one colour, and none in pixels all alike', () => {
    const flat = new Uint8Array(4 * 50).fill(0);
    for (let i = 0; i < flat.length; i += 4) flat.set([13, 17, 23, 255], i);
    expect(showsDrawing(flat)).toBe(false);
    const inked = flat.slice();
    inked.set([230, 237, 243, 255], 4 * 31);
    expect(showsDrawing(inked)).toBe(true);
    // Only the alpha differs (a glyph drawn on a transparent canvas): drawn too.
    const alpha = new Uint8Array(4 * 10);
    alpha[4 * 7 + 3] = 128;
    expect(showsDrawing(alpha)).toBe(true);
  });

  it(`trusts WebGL after ${FRAMES_TO_TRUST} drawn frames, and gives it up after ${FRAMES_TO_FAIL} blank ones in a row`, () => {
    const trusting = new FrameTally();
    const verdicts = Array.from({ length: FRAMES_TO_TRUST }, () => trusting.add({ drawn: true, renderMs: 4 }));
    expect(verdicts).toEqual([...Array(FRAMES_TO_TRUST - 1).fill('undecided'), 'trusted']);

    const failing = new FrameTally();
    expect(failing.add({ drawn: false, renderMs: 4 })).toBe('undecided');
    expect(failing.add({ drawn: false, renderMs: 4 })).toBe('blank');
  });

  it('starts counting again after a blank frame between drawn ones (the canvas cleared as it is resized)', () => {
    const tally = new FrameTally();
    expect(tally.add({ drawn: true, renderMs: 4 })).toBe('undecided');
    expect(tally.add({ drawn: false, renderMs: 4 })).toBe('undecided');
    expect(tally.add({ drawn: true, renderMs: 4 })).toBe('undecided');
    expect(tally.add({ drawn: true, renderMs: 4 })).toBe('undecided');
    expect(tally.add({ drawn: true, renderMs: 4 })).toBe('trusted');
  });

  it('calls a renderer slow only when every trusted frame took too long', () => {
    const slow = new FrameTally();
    for (let i = 1; i < FRAMES_TO_TRUST; i++) slow.add({ drawn: true, renderMs: SLOW_FRAME_MS + 50 });
    expect(slow.add({ drawn: true, renderMs: SLOW_FRAME_MS + 1 })).toBe('slow');

    const once = new FrameTally();
    for (let i = 1; i < FRAMES_TO_TRUST; i++) once.add({ drawn: true, renderMs: SLOW_FRAME_MS * 4 });
    expect(once.add({ drawn: true, renderMs: 10 })).toBe('trusted');
  });
});
