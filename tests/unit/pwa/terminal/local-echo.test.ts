/**
 * The local-echo predictor against a real xterm.js screen (@xterm/headless, the same buffer the
 * PWA's terminal has), fed what a shell and tmux really send back.
 */
import { Terminal } from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { EchoPredictor, type EchoScreen, LOCAL_ECHO } from '../../../../pwa/terminal/local-echo.js';

const terms: Terminal[] = [];
afterEach(() => {
  for (const t of terms.splice(0)) t.dispose();
});

function setup(cols = 20, rows = 5) {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  terms.push(term);
  const screen: EchoScreen = {
    cols,
    rows,
    cursor: () => ({ x: term.buffer.active.cursorX, y: term.buffer.active.baseY + term.buffer.active.cursorY }),
    charAt: (x, y) => term.buffer.active.getLine(y)?.getCell(x)?.getChars() ?? '',
  };
  let now = 0;
  const predictor = new EchoPredictor(screen, () => now);
  /** Output from the program, then the predictor hears it was parsed (as onWriteParsed says). */
  const output = (data: string) =>
    new Promise<void>((resolve) =>
      term.write(data, () => {
        predictor.parsed();
        resolve();
      }),
    );
  const shown = () => predictor.visible().map((p) => `${p.erase ? '⌫' : p.char}@${p.x},${p.y}`);
  return { term, predictor, output, shown, later: (ms: number) => (now += ms) };
}

describe('predicting typed characters', () => {
  it('draws nothing until the screen has confirmed one, then draws each key at once', async () => {
    const { predictor, output, shown } = setup();
    await output('$ ');
    predictor.typed('l');
    expect(shown()).toEqual([]);
    await output('l');
    expect(predictor.counts.confirmed).toBe(1);
    predictor.typed('s');
    predictor.typed(' ');
    expect(shown()).toEqual(['s@3,0', ' @4,0']);
    await output('s');
    expect(shown()).toEqual([' @4,0']);
    await output(' ');
    expect(shown()).toEqual([]);
    expect(predictor.counts).toEqual({ predicted: 3, confirmed: 3, givenUp: 0 });
  });

  it('takes back a Backspace over what it typed, confirmed by the tty’s "\\b \\b" or by tmux redrawing the cell', async () => {
    const { predictor, output, shown } = setup();
    await output('$ ');
    predictor.typed('a');
    await output('a');
    predictor.typed('b');
    predictor.typed('\x7f');
    expect(shown()).toEqual(['b@3,0', '⌫@3,0']);
    await output('b');
    expect(shown()).toEqual(['⌫@3,0']);
    await output('\b \b');
    expect(shown()).toEqual([]);
    // tmux draws an erase as a move and an erase to the end of the line.
    predictor.typed('\x7f');
    expect(shown()).toEqual(['⌫@2,0']);
    await output('\x1b[1D\x1b[K');
    expect(shown()).toEqual([]);
    expect(predictor.counts.givenUp).toBe(0);
  });

  it('confirms an erase and the next character echoed in one write', async () => {
    const { predictor, output, shown } = setup();
    await output('$ ');
    predictor.typed('a');
    await output('a');
    predictor.typed('\x7f');
    predictor.typed('c');
    await output('\b \bc');
    expect(shown()).toEqual([]);
    expect(predictor.counts.confirmed).toBe(3);
  });

  it('never erases what it did not type: a Backspace at a prompt predicts nothing', async () => {
    const { predictor, output, shown } = setup();
    await output('$ ');
    predictor.typed('a');
    await output('a');
    predictor.typed('\x7f');
    await output('\b \b');
    predictor.typed('\x7f');
    expect(shown()).toEqual([]);
    expect(predictor.counts.predicted).toBe(2);
  });
});

describe('giving up', () => {
  it('shows nothing typed into a prompt that does not echo (a password), and gives the guess up in time', async () => {
    const { predictor, output, shown, later } = setup();
    await output('$ ');
    predictor.typed('a');
    await output('a');
    // Enter ends the line of typing: the password prompt that follows starts untrusted.
    predictor.typed('\r');
    await output('\r\nPassword: ');
    for (const c of 'hunter2') predictor.typed(c);
    expect(shown()).toEqual([]);
    later(LOCAL_ECHO.TIMEOUT_MS - 1);
    expect(predictor.expire()).toBe(false);
    later(1);
    // Nothing was drawn, so the expiry changes nothing on screen.
    expect(predictor.expire()).toBe(false);
    expect(predictor.waiting).toBe(false);
    expect(predictor.counts.givenUp).toBe(7);
  });

  it('drops what it drew when the program draws something else, and waits for a confirmation again', async () => {
    const { predictor, output, shown } = setup();
    await output('$ ');
    predictor.typed('j');
    await output('j');
    predictor.typed('k');
    expect(shown()).toEqual(['k@3,0']);
    // A program that takes keys as commands: the cursor goes elsewhere, the cell stays.
    await output('\x1b[3;1H');
    expect(shown()).toEqual([]);
    predictor.typed('x');
    expect(shown()).toEqual([]);
    await output('x');
    predictor.typed('y');
    expect(shown()).toEqual(['y@1,2']);
  });

  it('drops a guess shown too long', async () => {
    const { predictor, output, shown, later } = setup();
    await output('$ ');
    predictor.typed('a');
    await output('a');
    predictor.typed('b');
    expect(shown()).toEqual(['b@3,0']);
    later(LOCAL_ECHO.TIMEOUT_MS);
    expect(predictor.expire()).toBe(true);
    expect(shown()).toEqual([]);
  });

  it('predicts nothing at the right margin, where the program wraps as it likes', async () => {
    const { predictor, output, shown } = setup(6);
    await output('$ ');
    predictor.typed('a');
    await output('a');
    predictor.typed('b');
    predictor.typed('c');
    expect(shown()).toEqual(['b@3,0', 'c@4,0']);
    predictor.typed('d');
    expect(shown()).toEqual([]);
  });

  it('ends the line of typing at anything but a printable character or Backspace: arrows, Tab, a paste', async () => {
    for (const key of ['\x1b[A', '\t', 'pasted text', '\x03', 'é']) {
      const { predictor, output, shown } = setup();
      await output('$ ');
      predictor.typed('a');
      await output('a');
      predictor.typed('b');
      expect(shown()).toHaveLength(1);
      predictor.typed(key);
      expect(shown()).toEqual([]);
      predictor.typed('c');
      expect(shown()).toEqual([]);
    }
  });

  it('keeps waiting through output elsewhere on the screen that leaves the cursor where it was', async () => {
    const { predictor, output, shown } = setup();
    await output('$ ');
    predictor.typed('a');
    await output('a');
    predictor.typed('b');
    // tmux redraws a status line and puts the cursor back.
    await output('\x1b7\x1b[5;1H12:00\x1b8');
    expect(shown()).toEqual(['b@3,0']);
    await output('b');
    expect(shown()).toEqual([]);
    expect(predictor.counts.givenUp).toBe(0);
  });

  it('forgets a run the program moved away from: a Backspace after it predicts nothing', async () => {
    const { predictor, output, shown } = setup();
    await output('$ ');
    predictor.typed('a');
    await output('a');
    await output('\r\n$ ');
    predictor.typed('\x7f');
    expect(shown()).toEqual([]);
  });
});
