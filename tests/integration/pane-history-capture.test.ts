/**
 * A pane's history for find: the bound on what the agent keeps of it while tmux prints, with a
 * real process printing more than the bound.
 */
import { describe, expect, it } from 'vitest';
import { TmuxError, TmuxRunner } from '../../agent/tmux/client.js';
import { historyTail, newestLines } from '../../agent/tmux/pane-history.js';

describe('TmuxRunner.runInto', () => {
  it('keeps only the end of a process printing far more than the bound, without holding the rest', async () => {
    // A real process, 12 MB of numbered lines (tmux's own runner would refuse past 16 MB).
    const runner = new TmuxRunner('/bin/sh', process.env, 20_000);
    const tail = historyTail(1024 * 1024);
    await runner.runInto(['-c', 'seq 1 1500000'], tail);
    const kept = newestLines(tail.result(), 1024 * 1024);
    expect(kept.truncated).toBe(true);
    expect(Buffer.byteLength(kept.text)).toBeLessThanOrEqual(1024 * 1024);
    const lines = kept.text.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('1500000');
    // Whole lines, in order, down to the last.
    expect(Number(lines[1]) - Number(lines[0])).toBe(1);
    expect(Number(lines[0]) + lines.length - 1).toBe(1500000);
  });

  it('fails as run does: what the command said, and a timeout', async () => {
    const runner = new TmuxRunner('/bin/sh', process.env, 300);
    const failed = runner.runInto(['-c', 'echo "no such pane" >&2; exit 1'], historyTail(64));
    await expect(failed).rejects.toBeInstanceOf(TmuxError);
    await expect(failed).rejects.toMatchObject({ code: 1, stderr: 'no such pane\n' });
    await expect(runner.runInto(['-c', 'sleep 5'], historyTail(64))).rejects.toThrow(/timed out after 300 ms/);
    await expect(new TmuxRunner('/nonexistent/tmux', process.env).runInto(['-V'], historyTail(64))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(runner.runInto(['-c', 'echo a\0b'], historyTail(64))).rejects.toBeInstanceOf(TmuxError);
  });
});
