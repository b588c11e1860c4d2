import type { IBufferLine, Terminal } from '@xterm/xterm';
import type { Disposable } from './disposables.js';

/**
 * Why the WebGL renderer is given up for the DOM renderer:
 *  - `size`: its canvas's backing store is not the canvas's CSS size times devicePixelRatio, so
 *    what it draws lands outside what is shown (headless Chromium with an emulated scale factor
 *    reports a device-pixel box in CSS pixels, and xterm sizes the canvas by it: a blank screen);
 *  - `blank`: rows that hold text read back as one flat colour;
 *  - `slow`: drawing a frame takes longer than a person can type through.
 */
export type WebglFault = 'size' | 'blank' | 'slow';

/** Frames with text that must read back drawn before WebGL is trusted and the readback stops. */
export const FRAMES_TO_TRUST = 3;
/** Frames with text that read back blank, one after another, before WebGL is given up. */
export const FRAMES_TO_FAIL = 2;
/**
 * The least time the trusted frames took: a renderer that needs longer than this for every one
 * of them (a software GPU on a weak phone) draws worse than the DOM renderer would.
 */
export const SLOW_FRAME_MS = 250;

/**
 * Whether a canvas's backing store covers its CSS box at the page's devicePixelRatio, to within
 * rounding: xterm rounds cells to whole device pixels, so a pixel or two either way is drawn right.
 */
export function backingMatches(backing: number, cssSize: number, devicePixelRatio: number): boolean {
  const expected = cssSize * devicePixelRatio;
  return Math.abs(backing - expected) <= Math.max(2, expected * 0.02);
}

/** Whether RGBA pixels read back from where text is hold more than one colour: something was drawn. */
export function showsDrawing(rgba: Uint8Array): boolean {
  for (let i = 4; i < rgba.length; i += 4) {
    if (rgba[i] !== rgba[0] || rgba[i + 1] !== rgba[1] || rgba[i + 2] !== rgba[2] || rgba[i + 3] !== rgba[3]) return true;
  }
  return false;
}

export interface DrawnFrame {
  drawn: boolean;
  /** From the start of the animation frame to the end of xterm's drawing in it. */
  renderMs: number;
}

/**
 * The verdict over the frames read back so far: a fault, `trusted` once enough frames drew, or
 * `undecided`. A blank frame between drawn ones (the canvas cleared as it is resized) starts the
 * count again rather than failing at once.
 */
export class FrameTally {
  private drawnInARow: number[] = [];
  private blankInARow = 0;

  add(frame: DrawnFrame): WebglFault | 'trusted' | 'undecided' {
    if (!frame.drawn) {
      this.drawnInARow = [];
      this.blankInARow += 1;
      return this.blankInARow >= FRAMES_TO_FAIL ? 'blank' : 'undecided';
    }
    this.blankInARow = 0;
    this.drawnInARow.push(frame.renderMs);
    if (this.drawnInARow.length < FRAMES_TO_TRUST) return 'undecided';
    return Math.min(...this.drawnInARow) > SLOW_FRAME_MS ? 'slow' : 'trusted';
  }
}

/** The first and last cells of a line that hold a visible character, or null for a blank line. */
function textSpan(line: IBufferLine, cols: number): { first: number; last: number } | null {
  let first = -1;
  let last = -1;
  for (let x = 0; x < cols; x++) {
    const cell = line.getCell(x);
    // Concealed text draws nothing, rightly: it proves nothing either way.
    if (!cell || cell.isInvisible() || cell.getChars().trim() === '') continue;
    if (first < 0) first = x;
    last = x;
  }
  return first < 0 ? null : { first, last };
}

export interface WebglWatchOptions {
  term: Terminal;
  /** The element xterm was opened in; its WebGL canvas is inside. */
  host: HTMLElement;
  onFault(fault: WebglFault, detail: string): void;
}

/**
 * Watches xterm's WebGL renderer for a screen it leaves blank. Each time the canvas's CSS box
 * changes, its backing store is checked against it (a comparison, no readback). After the
 * renderer starts and after each resize, the rows that hold text are read back in the frame
 * that drew them (the drawing buffer is gone once the frame is shown) until a few frames prove
 * the renderer draws, and draws fast enough; then the readback stops, and the frames cost
 * nothing more.
 */
export class WebglWatch implements Disposable {
  private readback: { dispose(): void } | null = null;
  private tally = new FrameTally();
  private readonly resizes: ResizeObserver;
  private sizeFrame = 0;
  private cssBox: { width: number; height: number } | null = null;
  private observed: HTMLCanvasElement | null = null;
  private done = false;
  private readonly resizeListener: { dispose(): void };
  private ratioQuery: MediaQueryList | null = null;
  private readonly onRatioChange = () => this.watchRatio();

  constructor(private readonly opts: WebglWatchOptions) {
    this.resizes = new ResizeObserver((entries) => {
      const box = entries.at(-1)?.contentRect;
      if (!box) return;
      this.cssBox = { width: box.width, height: box.height };
      // xterm sizes the backing store from a ResizeObserver of its own: judged a frame later, once it has.
      cancelAnimationFrame(this.sizeFrame);
      this.sizeFrame = requestAnimationFrame(() => this.checkSize());
    });
    this.resizeListener = opts.term.onResize(() => this.watchFrames());
    this.watchFrames();
    this.watchRatio();
  }

  /**
   * A new devicePixelRatio (zoom, another screen) resizes the backing store and leaves the CSS
   * box as it was: judged again, as after a resize.
   */
  private watchRatio(): void {
    const first = this.ratioQuery === null;
    this.ratioQuery?.removeEventListener('change', this.onRatioChange);
    this.ratioQuery = window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
    this.ratioQuery.addEventListener('change', this.onRatioChange);
    if (first) return;
    this.watchFrames();
    cancelAnimationFrame(this.sizeFrame);
    this.sizeFrame = requestAnimationFrame(() => this.checkSize());
  }

  /** xterm's WebGL canvas: the one in its screen with a WebGL2 context (the link layer's is 2D). */
  private canvas(): HTMLCanvasElement | null {
    for (const canvas of this.opts.host.querySelectorAll<HTMLCanvasElement>('.xterm-screen canvas')) {
      if (canvas.classList.contains('xterm-link-layer')) continue;
      return canvas;
    }
    return null;
  }

  private gl(canvas: HTMLCanvasElement): WebGL2RenderingContext | null {
    // The same context xterm drew with: a canvas has one context, and asking again returns it.
    return canvas.getContext('webgl2');
  }

  private observe(): HTMLCanvasElement | null {
    const canvas = this.canvas();
    if (canvas && canvas !== this.observed) {
      this.resizes.disconnect();
      this.resizes.observe(canvas);
      this.observed = canvas;
    }
    return canvas;
  }

  private checkSize(): void {
    const canvas = this.observed;
    if (this.done || !canvas || !this.cssBox || this.cssBox.width === 0 || this.cssBox.height === 0) return;
    const dpr = window.devicePixelRatio;
    if (backingMatches(canvas.width, this.cssBox.width, dpr) && backingMatches(canvas.height, this.cssBox.height, dpr)) return;
    const css = `${Math.round(this.cssBox.width)}x${Math.round(this.cssBox.height)}`;
    const wanted = `${Math.round(this.cssBox.width * dpr)}x${Math.round(this.cssBox.height * dpr)}`;
    this.fail('size', `its canvas holds ${canvas.width}x${canvas.height} pixels for ${css} CSS pixels at devicePixelRatio ${dpr}, not ${wanted}`);
  }

  /** Reads back the frames xterm draws until they prove the renderer (or show it blank or slow). */
  private watchFrames(): void {
    if (this.done) return;
    this.observe();
    this.tally = new FrameTally();
    if (this.readback) return;
    this.readback = this.opts.term.onRender(({ start, end }) => this.checkFrame(start, end));
  }

  private checkFrame(start: number, end: number): void {
    // Read first: the time the frame took so far is xterm's drawing, not this check.
    const renderMs = performance.now() - Number(document.timeline.currentTime ?? performance.now());
    const canvas = this.observe();
    const gl = canvas && this.gl(canvas);
    if (!canvas || !gl) return;
    const term = this.opts.term;
    const buffer = term.buffer.active;
    for (let row = start; row <= end; row++) {
      const line = buffer.getLine(buffer.viewportY + row);
      const span = line && textSpan(line, term.cols);
      if (!span) continue;
      // Cells in backing-store pixels, as the canvas holds them (whatever its size).
      const cellWidth = canvas.width / term.cols;
      const cellHeight = canvas.height / term.rows;
      const x = Math.floor(span.first * cellWidth);
      const width = Math.max(1, Math.floor((span.last + 1) * cellWidth) - x);
      const top = Math.floor(row * cellHeight);
      const height = Math.max(1, Math.floor((row + 1) * cellHeight) - top);
      const pixels = new Uint8Array(width * height * 4);
      // WebGL counts rows from the bottom.
      gl.readPixels(x, canvas.height - top - height, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      const verdict = this.tally.add({ drawn: showsDrawing(pixels), renderMs });
      if (verdict === 'trusted') this.stopReadback();
      else if (verdict === 'blank') this.fail('blank', `row ${row + 1} holds text, and its pixels are all one colour`);
      else if (verdict === 'slow') this.fail('slow', `it took over ${SLOW_FRAME_MS} ms for each of ${FRAMES_TO_TRUST} frames`);
      return;
    }
  }

  private stopReadback(): void {
    this.readback?.dispose();
    this.readback = null;
  }

  private fail(fault: WebglFault, detail: string): void {
    if (this.done) return;
    this.dispose();
    // Not from inside xterm's frame: the caller takes the renderer away.
    setTimeout(() => this.opts.onFault(fault, detail));
  }

  dispose(): void {
    this.done = true;
    this.stopReadback();
    this.resizeListener.dispose();
    this.resizes.disconnect();
    this.ratioQuery?.removeEventListener('change', this.onRatioChange);
    cancelAnimationFrame(this.sizeFrame);
  }
}
