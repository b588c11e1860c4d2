import type { IDisposable, Terminal } from '@xterm/xterm';

/**
 * Keeps, in xterm's own scrollback, the lines tmux scrolls off the screen, so find can reach
 * what has left the screen. tmux would otherwise leave xterm none:
 *
 * - it draws in the alternate screen (`smcup` when it attaches), which has no scrollback: the
 *   switch is ignored, and the terminal stays in the normal screen. tmux never uses the outer
 *   alternate screen for anything else (a program's own alternate screen stays inside tmux);
 * - it scrolls several lines at once with `CSI n S` (SU), which xterm.js drops off the top.
 *   xterm itself moves them into the scrollback when the scroll region starts at the top
 *   (xterm.js notes the same as a FIXME); here too, through xterm.js's own line feed scroll.
 *
 * Lines tmux never draws are not here: output faster than the screen (a burst of more lines
 * than it has rows between two redraws) reaches the browser as its last screenful. tmux's own
 * history (copy mode, the mouse wheel) still holds everything.
 *
 * SU reaches into xterm.js internals (pinned at 6.0.0); where they are not as expected it
 * falls back to xterm.js's own SU, which drops the lines as before.
 */
export function keepTmuxScrollback(term: Pick<Terminal, 'parser'>): IDisposable {
  const handlers = [
    term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => onlyAlternateScreen(params)),
    term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, (params) => onlyAlternateScreen(params)),
    term.parser.registerCsiHandler({ final: 'S' }, (params) => scrollUpIntoScrollback(term, params)),
  ];
  return {
    dispose: () => {
      for (const h of handlers) h.dispose();
    },
  };
}

/** DECSET/DECRST 47, 1047, 1049: the alternate screen, with or without the cursor save. */
const ALTERNATE_SCREEN_MODES = new Set([47, 1047, 1049]);

/** True (handled: ignored) for a mode change that only switches screens; anything else runs as usual. */
export function onlyAlternateScreen(params: readonly (number | number[])[]): boolean {
  return params.length > 0 && params.every((p) => typeof p === 'number' && ALTERNATE_SCREEN_MODES.has(p));
}

/** The few xterm.js internals SU needs, as 6.0.0 names them. */
interface Internals {
  _bufferService: {
    buffer: { scrollTop: number; scrollBottom: number };
    buffers: { normal: unknown };
    scroll(eraseAttr: unknown): void;
  };
  _inputHandler: {
    _eraseAttrData(): unknown;
    _dirtyRowTracker: { markRangeDirty(y1: number, y2: number): void };
  };
}

function internals(term: object): Internals | null {
  const core = (term as { _core?: Partial<Internals> })._core;
  const buffers = core?._bufferService;
  const input = core?._inputHandler;
  if (typeof buffers?.scroll !== 'function' || typeof input?._eraseAttrData !== 'function') return null;
  if (typeof input._dirtyRowTracker?.markRangeDirty !== 'function') return null;
  return core as Internals;
}

/**
 * SU with a scroll region from the top of the normal screen: each line scrolled off goes to
 * the scrollback, exactly as a line feed at the region's bottom does. False lets xterm.js
 * run its own SU (another region, the alternate screen, internals not found).
 */
function scrollUpIntoScrollback(term: object, params: readonly (number | number[])[]): boolean {
  const core = internals(term);
  if (!core) return false;
  const buffers = core._bufferService;
  const buffer = buffers.buffer;
  if (buffer !== buffers.buffers.normal || buffer.scrollTop !== 0) return false;
  const first = params[0];
  const lines = Math.min(typeof first === 'number' && first > 0 ? first : 1, buffer.scrollBottom + 1);
  for (let i = 0; i < lines; i++) buffers.scroll(core._inputHandler._eraseAttrData());
  core._inputHandler._dirtyRowTracker.markRangeDirty(buffer.scrollTop, buffer.scrollBottom);
  return true;
}
