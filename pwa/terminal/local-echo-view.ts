import type { Terminal } from '@xterm/xterm';
import { type Disposable, DisposableStore, toDisposable } from './disposables.js';
import { EchoPredictor, type EchoScreen, type Prediction } from './local-echo.js';

export interface EchoColours {
  foreground: string;
  background: string;
  cursor: string;
}

export interface LocalEchoOptions {
  colours(): EchoColours;
  /** Read at every key: off, nothing is predicted and what was goes. */
  enabled(): boolean;
}

/** The terminal's screen for the predictor, in buffer rows (the alternate screen tmux draws on has no scrollback). */
function screenOf(term: Terminal): EchoScreen {
  return {
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    cursor() {
      const b = term.buffer.active;
      return { x: b.cursorX, y: b.baseY + b.cursorY };
    },
    charAt(x, y) {
      return term.buffer.active.getLine(y)?.getCell(x)?.getChars() ?? '';
    },
  };
}

/** How often waiting predictions are looked at for their timeout. */
const EXPIRE_CHECK_MS = 250;

/**
 * Draws the predictions of local-echo.ts over an xterm terminal: a layer of cells on top of
 * xterm's screen, in the terminal's font and default colours, with the cursor where the
 * typing will have put it. The layer is drawn from requestAnimationFrame, as xterm draws its
 * own rows, and is empty whenever nothing is predicted; xterm's screen is never written to.
 * The layer is `[data-local-echo]`, hidden from assistive technology (xterm's own
 * accessibility tree reads what the program really shows).
 */
export class LocalEchoView implements Disposable {
  readonly predictor: EchoPredictor;
  private readonly store = new DisposableStore();
  private readonly layer: HTMLDivElement;
  private readonly screen: EchoScreen;
  private frame = 0;
  private expireTimer: ReturnType<typeof setInterval> | undefined;
  /** The layer shows something: a draw is due even when nothing is predicted any more. */
  private drawn = false;

  constructor(
    private readonly term: Terminal,
    private readonly opts: LocalEchoOptions,
  ) {
    this.screen = screenOf(term);
    this.predictor = new EchoPredictor(this.screen, () => performance.now());
    this.layer = document.createElement('div');
    this.layer.dataset.localEcho = '';
    this.layer.setAttribute('aria-hidden', 'true');
    this.layer.style.cssText = 'position:absolute;inset:0;pointer-events:none;z-index:8;overflow:hidden;';
    const screenElement = term.element?.querySelector('.xterm-screen');
    screenElement?.appendChild(this.layer);
    this.store.add(toDisposable(() => this.layer.remove()));
    this.store.add(toDisposable(() => cancelAnimationFrame(this.frame)));
    this.store.add(toDisposable(() => clearInterval(this.expireTimer)));
    this.store.add(
      term.onWriteParsed(() => {
        if (!this.predictor.waiting && !this.drawn) return;
        this.predictor.parsed();
        this.changed();
      }),
    );
    this.store.add(term.onResize(() => this.reset()));
  }

  /** What is about to be sent as typed. */
  typed(data: string): void {
    if (!this.opts.enabled()) {
      if (this.predictor.waiting || this.drawn) this.reset();
      return;
    }
    this.predictor.typed(data);
    this.changed();
  }

  /** Forgets the predictions: a new socket, a lost one, a new size. */
  reset(): void {
    this.predictor.reset();
    this.changed();
  }

  dispose(): void {
    this.store.dispose();
  }

  private changed(): void {
    if (this.predictor.waiting && this.expireTimer === undefined) {
      this.expireTimer = setInterval(() => {
        if (this.predictor.expire()) this.changed();
        if (!this.predictor.waiting) {
          clearInterval(this.expireTimer);
          this.expireTimer = undefined;
        }
      }, EXPIRE_CHECK_MS);
    }
    if (this.frame === 0 && (this.drawn || this.predictor.visible().length > 0)) {
      this.frame = requestAnimationFrame(() => this.draw());
    }
  }

  private draw(): void {
    this.frame = 0;
    const shown = this.predictor.visible();
    const last = shown.at(-1);
    if (!last || this.store.isDisposed) {
      this.layer.replaceChildren();
      this.drawn = false;
      return;
    }
    const { cols, rows } = this.term;
    // The renderer gives the screen its size in its style: read there, no layout is forced in
    // the frame (the layer's own box is the fallback).
    const screen = this.layer.parentElement;
    const width = (Number.parseFloat(screen?.style.width ?? '') || this.layer.clientWidth) / cols;
    const height = (Number.parseFloat(screen?.style.height ?? '') || this.layer.clientHeight) / rows;
    const top = this.term.buffer.active.viewportY;
    const { foreground, background, cursor } = this.opts.colours();
    const font = `${this.term.options.fontSize}px ${this.term.options.fontFamily}`;
    // What each cell will show, the later prediction of a cell winning.
    const predicted = new Map<string, Prediction>();
    for (const p of shown) predicted.set(`${p.x},${p.y}`, p);
    const textAt = (x: number, y: number) => predicted.get(`${x},${y}`)?.char ?? (this.screen.charAt(x, y) || ' ');
    const cell = (x: number, y: number, colour: string, back: string): HTMLSpanElement => {
      const span = document.createElement('span');
      span.textContent = textAt(x, y);
      span.style.cssText = `position:absolute;left:${x * width}px;top:${(y - top) * height}px;width:${width}px;height:${height}px;line-height:${height}px;font:${font};white-space:pre;color:${colour};background:${back};`;
      return span;
    };
    const cells: HTMLSpanElement[] = [];
    for (const p of predicted.values()) cells.push(cell(p.x, p.y, foreground, background));
    // The real cursor is covered (a prediction stands there, or its own character does), and
    // the cursor is drawn where the typing will leave it.
    const real = this.screen.cursor();
    if (!predicted.has(`${real.x},${real.y}`)) cells.push(cell(real.x, real.y, foreground, background));
    const after = last.erase ? last.x : last.x + 1;
    if (after < cols) cells.push(cell(after, last.y, background, cursor));
    this.layer.replaceChildren(...cells);
    this.drawn = true;
  }
}
