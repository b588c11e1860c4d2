import { describe, expect, it } from 'vitest';
import { commandBytes } from '../../../../agent/tmux/commands.js';
import { InputBacklogError, PaneInputQueue } from '../../../../agent/tmux/input-queue.js';

/** Stands in for tmux: records each run's commands and lets the test decide when it ends. */
function recordingRunner() {
  const runs: (readonly string[])[][] = [];
  const finish: ((err?: Error) => void)[] = [];
  const run = (commands: readonly (readonly string[])[]) =>
    new Promise<void>((resolve, reject) => {
      runs.push([...commands]);
      finish.push((err) => (err ? reject(err) : resolve()));
    });
  /** Ends the oldest unfinished run and lets the queue start the next. */
  const end = async (err?: Error) => {
    finish.shift()?.(err);
    await new Promise((r) => setImmediate(r));
  };
  return { runs, run, end };
}

describe('pane input queue', () => {
  it('sends input that arrives during a run together in the next run, in order', async () => {
    const tmux = recordingRunner();
    const queue = new PaneInputQueue(tmux.run);
    const done: string[] = [];
    const first = queue.send('p', [['a']]).then(() => done.push('a'));
    const rest = ['b', 'c', 'd'].map((k) => queue.send('p', [[k]]).then(() => done.push(k)));
    expect(tmux.runs).toEqual([[['a']]]);
    await tmux.end();
    await first;
    expect(tmux.runs[1]).toEqual([['b'], ['c'], ['d']]);
    await tmux.end();
    await Promise.all(rest);
    expect(done).toEqual(['a', 'b', 'c', 'd']);
    expect(tmux.runs).toHaveLength(2);
  });

  it('keeps each run under the byte budget, splitting a long request across runs', async () => {
    const tmux = recordingRunner();
    const budget = 100;
    const queue = new PaneInputQueue(tmux.run, budget);
    const piece = ['x'.repeat(40)];
    const sent = queue.send('p', [piece, piece, piece, piece, piece]);
    let settled = false;
    void sent.then(() => {
      settled = true;
    });
    for (let i = 0; i < 3 && tmux.runs.length > i; i++) {
      const run = tmux.runs[i] as string[][];
      expect(run.reduce((n, c) => n + commandBytes(c), 0) + 2 * (run.length - 1)).toBeLessThanOrEqual(budget);
      expect(settled).toBe(false);
      await tmux.end();
    }
    await sent;
    expect(tmux.runs.flat()).toHaveLength(5);
  });

  it('refuses a command over the budget and a backlog over the cap, queueing nothing', async () => {
    const tmux = recordingRunner();
    const queue = new PaneInputQueue(tmux.run, 50, 120);
    await expect(queue.send('p', [['y'.repeat(60)]])).rejects.toThrow(RangeError);
    const a = queue.send('p', [['z'.repeat(40)]]);
    const b = queue.send('p', [['z'.repeat(40)], ['z'.repeat(30)]]);
    await expect(queue.send('p', [['z'.repeat(40)]])).rejects.toThrow(InputBacklogError);
    expect(queue.queuedBytes('p')).toBe(41 + 41 + 31);
    await tmux.end();
    await tmux.end();
    await tmux.end();
    await Promise.all([a, b]);
    expect(queue.queuedBytes('p')).toBe(0);
  });

  it('fails every request a failed run carried, and goes on with the rest', async () => {
    const tmux = recordingRunner();
    const queue = new PaneInputQueue(tmux.run);
    const a = queue.send('p', [['a']]);
    const b = queue.send('p', [['b']]);
    const c = queue.send('p', [['c']]);
    await tmux.end();
    await a;
    const failures = [expect(b).rejects.toThrow('no such pane'), expect(c).rejects.toThrow('no such pane')];
    await tmux.end(new Error('tmux send-keys: no such pane'));
    await Promise.all(failures);
    const d = queue.send('p', [['d']]);
    await tmux.end();
    await d;
    expect(tmux.runs.at(-1)).toEqual([['d']]);
  });

  it('spares a request the failed run carried nothing of', async () => {
    const tmux = recordingRunner();
    const queue = new PaneInputQueue(tmux.run, 100);
    const first = queue.send('p', [['a']]);
    // b fills the next run; c does not fit beside it and waits for the one after.
    const b = queue.send('p', [['b'.repeat(60)]]);
    const c = queue.send('p', [['c'.repeat(60)]]);
    await tmux.end();
    await first;
    expect(tmux.runs[1]).toEqual([['b'.repeat(60)]]);
    const bFails = expect(b).rejects.toThrow('no such pane');
    await tmux.end(new Error('tmux send-keys: no such pane'));
    await bFails;
    expect(tmux.runs[2]).toEqual([['c'.repeat(60)]]);
    await tmux.end();
    await c;
  });

  it('lets a waiting copy-mode exit be shared, and panes not wait on each other', async () => {
    const tmux = recordingRunner();
    const queue = new PaneInputQueue(tmux.run);
    const busy = queue.send('p', [['keys']]);
    const leave1 = queue.send('p', [['leave']], { shareable: true });
    const leave2 = queue.send('p', [['leave']], { shareable: true });
    expect(leave2).toBe(leave1);
    const other = queue.send('q', [['other']]);
    expect(tmux.runs).toEqual([[['keys']], [['other']]]);
    await tmux.end();
    await tmux.end();
    await Promise.all([busy, other]);
    expect(tmux.runs[2]).toEqual([['leave']]);
    await tmux.end();
    await leave1;
  });
});
