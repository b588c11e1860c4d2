/**
 * Predictive local echo, as mosh does it: a character typed is drawn at once where the program
 * will echo it, then checked against what the program really draws. Pure: the screen is read
 * through `EchoScreen`, the clock is given, and drawing is local-echo-view.ts's work.
 *
 * Nothing is ever written into the terminal's own screen: a prediction is drawn over it and
 * goes the moment the screen shows the real echo, contradicts it, or takes too long. And a
 * prediction is only drawn once the screen has confirmed one of this line of typing, so a
 * password prompt (no echo), a full-screen program drawing its own cursor, or a program that
 * takes keys as commands, never shows a character it would not show itself:
 *
 * - printable ASCII is predicted at the cursor, one cell to the right each;
 * - Backspace is predicted as an erase, only of characters this line of typing put there;
 * - anything else typed (Enter, Tab, arrows, control keys, a paste, text from an IME) ends the
 *   line of typing: predictions go, and the next must be confirmed before any is drawn again;
 * - a prediction the screen contradicts, one at the right margin, or one unconfirmed after
 *   `LOCAL_ECHO.TIMEOUT_MS` does the same.
 */

export const LOCAL_ECHO = {
  /** A prediction the screen has not shown this long after it was typed is given up. */
  TIMEOUT_MS: 1_500,
  /** The most predictions waiting at once (typed ahead of a slow link); past it, typing ends the line. */
  MAX_PENDING: 128,
} as const;

/** The visible screen of a terminal: where the cursor is and what each cell shows. */
export interface EchoScreen {
  readonly cols: number;
  readonly rows: number;
  cursor(): { x: number; y: number };
  /** The character a cell shows, '' for an empty one. */
  charAt(x: number, y: number): string;
}

export interface Prediction {
  x: number;
  y: number;
  /** What the cell will show: the character typed, or ' ' where Backspace erases. */
  char: string;
  erase: boolean;
  /** When it was typed. */
  at: number;
}

const BACKSPACE = new Set(['\x7f', '\b']);
const isPrintable = (data: string) => data.length === 1 && data >= ' ' && data <= '~';
const blank = (char: string) => char === '' || char === ' ';

type Verdict = 'seen' | 'waiting' | 'contradicted';

export class EchoPredictor {
  private pending: Prediction[] = [];
  /** A prediction of this line of typing was confirmed: the rest are drawn. */
  private trusted = false;
  /** Characters this line of typing put on the screen, confirmed: what a Backspace may erase. */
  private typedRun = 0;
  /** Where the cursor was after the last confirmed prediction: moved elsewhere, the run is over. */
  private runEnd: { x: number; y: number } | null = null;
  /** Confirmed and given-up predictions, for tests and the console. */
  readonly counts = { predicted: 0, confirmed: 0, givenUp: 0 };

  constructor(
    private readonly screen: EchoScreen,
    private readonly now: () => number,
  ) {}

  /** What is about to be sent as typed, before it goes. */
  typed(data: string): void {
    if (isPrintable(data)) this.predictChar(data);
    else if (BACKSPACE.has(data)) this.predictErase();
    else this.endLine();
  }

  /** The terminal parsed output: predictions the screen shows are confirmed, one it contradicts ends the line. */
  parsed(): void {
    while (this.pending.length > 0) {
      const verdict = this.verdict(this.pending[0] as Prediction);
      if (verdict === 'waiting') break;
      if (verdict === 'contradicted') {
        this.endLine();
        return;
      }
      const seen = this.pending.shift() as Prediction;
      this.counts.confirmed++;
      this.trusted = true;
      this.typedRun += seen.erase ? -1 : 1;
      this.runEnd = seen.erase ? { x: seen.x, y: seen.y } : { x: seen.x + 1, y: seen.y };
    }
    if (this.pending.length === 0 && this.runEnd) {
      const c = this.screen.cursor();
      if (c.x !== this.runEnd.x || c.y !== this.runEnd.y) {
        // The program moved on (a completion, a redraw): what it shows now is not this run's.
        this.typedRun = 0;
        this.runEnd = null;
      }
    }
  }

  /** Gives up predictions past their time; true when that changed what is drawn. */
  expire(): boolean {
    const first = this.pending[0];
    if (!first || this.now() - first.at < LOCAL_ECHO.TIMEOUT_MS) return false;
    const drawn = this.trusted;
    this.endLine();
    return drawn;
  }

  /** The predictions to draw now, oldest first: none until this line of typing earned trust. */
  visible(): readonly Prediction[] {
    return this.trusted ? this.pending : [];
  }

  /** Predictions wait on the screen: whether a timer should look again. */
  get waiting(): boolean {
    return this.pending.length > 0;
  }

  /** Forgets everything (a new socket, a new size): the next prediction must earn trust again. */
  reset(): void {
    this.endLine();
  }

  private predictChar(char: string): void {
    const at = this.nextCell();
    // At the right margin the program wraps (or not) as it likes: no guess.
    if (at.x >= this.screen.cols - 1 || this.pending.length >= LOCAL_ECHO.MAX_PENDING) {
      this.endLine();
      return;
    }
    this.push({ x: at.x, y: at.y, char, erase: false, at: this.now() });
  }

  private predictErase(): void {
    const net = this.typedRun + this.pending.reduce((n, p) => n + (p.erase ? -1 : 1), 0);
    // Only what this line of typing put there: a Backspace at a prompt's start erases nothing.
    if (net <= 0) {
      if (this.pending.length > 0) this.endLine();
      return;
    }
    const at = this.nextCell();
    if (at.x <= 0 || this.pending.length >= LOCAL_ECHO.MAX_PENDING) {
      this.endLine();
      return;
    }
    this.push({ x: at.x - 1, y: at.y, char: ' ', erase: true, at: this.now() });
  }

  private push(p: Prediction): void {
    this.pending.push(p);
    this.counts.predicted++;
  }

  /** Where the next character typed lands: after the last prediction, or at the cursor. */
  private nextCell(): { x: number; y: number } {
    const last = this.pending.at(-1);
    if (!last) return this.screen.cursor();
    return last.erase ? { x: last.x, y: last.y } : { x: last.x + 1, y: last.y };
  }

  private verdict(p: Prediction): Verdict {
    const shown = this.screen.charAt(p.x, p.y);
    const c = this.screen.cursor();
    if (p.erase) {
      if (blank(shown) && c.y === p.y && c.x <= p.x) return 'seen';
      // The erase and the next character came in one write: the next prediction says. (Should
      // that character be the one erased, the screen already is what both predict.)
      const next = this.pending[1];
      if (next && !next.erase && next.x === p.x && next.y === p.y && shown === next.char && c.y === p.y && c.x > p.x) return 'seen';
      // Still before the erase: the cursor right of the cell.
      if (c.y === p.y && c.x === p.x + 1) return 'waiting';
      return 'contradicted';
    }
    if (shown === p.char && c.y === p.y && c.x > p.x) return 'seen';
    if (c.y === p.y && c.x === p.x) return 'waiting';
    return 'contradicted';
  }

  /** The line of typing ends, or something it did not foresee came: none is drawn until one is confirmed again. */
  private endLine(): void {
    this.counts.givenUp += this.pending.length;
    this.pending = [];
    this.trusted = false;
    this.typedRun = 0;
    this.runEnd = null;
  }
}
