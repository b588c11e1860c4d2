import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type HeapFigures, MAX_KEPT_TRIES, MemoryTrim, QUIET_UTILIZATION, TRIM_SLACK_BYTES } from '../../agent/util/memory-trim.js';
import { createLogger } from '../../agent/util/log.js';
import { REPO_ROOT } from '../support/agent.js';

const MiB = 1024 * 1024;

/** A trim over figures the test sets (a heap of 22 MiB as it starts), counting the collections it asks for. */
function trimWith(collector: boolean) {
  // `after`: what V8 holds after a collection, `live` of it in use.
  const state = { typing: false, utilization: 0, heap: { total: 22 * MiB, used: 17 * MiB } as HeapFigures, after: 22 * MiB, live: 17 * MiB, collections: 0 };
  const trim = new MemoryTrim({
    collect: collector
      ? () => {
          state.collections++;
          state.heap = { total: state.after, used: state.live };
        }
      : null,
    utilization: () => state.utilization,
    heap: () => state.heap,
    typing: () => state.typing,
    log: createLogger({ stderr: false }),
  });
  return { trim, state };
}

describe('giving memory back after a burst', () => {
  it('collects when the agent is quiet with the heap grown past its floor, once per growth', () => {
    const { trim, state } = trimWith(true);
    // A burst grows the young generation; nothing is collected while the agent works.
    state.utilization = 0.4;
    state.heap = { total: 62 * MiB, used: 58 * MiB };
    trim.check();
    expect(state.collections).toBe(0);
    // Quiet: collected, though most of the heap counts as used (garbage not yet collected).
    state.utilization = QUIET_UTILIZATION / 2;
    trim.check();
    expect(state.collections).toBe(1);
    trim.check();
    trim.check();
    expect(state.collections).toBe(1);
    // Grown again, by less than the slack: left alone; by the slack: once more.
    state.heap = { total: 22 * MiB + TRIM_SLACK_BYTES - 1, used: 20 * MiB };
    trim.check();
    expect(state.collections).toBe(1);
    state.heap = { total: 22 * MiB + TRIM_SLACK_BYTES, used: 20 * MiB };
    trim.check();
    expect(state.collections).toBe(2);
    expect(trim.count).toBe(2);
  });

  it('waits while a terminal is typed into, and collects at the first pause', () => {
    const { trim, state } = trimWith(true);
    state.heap = { total: 62 * MiB, used: 58 * MiB };
    // Typing keeps the loop quiet, yet no collection comes between the keystrokes.
    state.typing = true;
    for (let i = 0; i < 10; i++) trim.check();
    expect(state.collections).toBe(0);
    state.typing = false;
    trim.check();
    expect(state.collections).toBe(1);
  });

  it('keeps its wait for V8 across typing, neither cleared nor counted down', () => {
    const { trim, state } = trimWith(true);
    state.heap = { total: 62 * MiB, used: 20 * MiB };
    state.after = 62 * MiB;
    trim.check();
    expect(state.collections).toBe(1);
    // V8 kept the memory: the next try comes after one quiet check, typing or not in between.
    state.typing = true;
    trim.check();
    trim.check();
    state.typing = false;
    trim.check();
    expect(state.collections).toBe(1);
    trim.check();
    expect(state.collections).toBe(2);
  });

  it('collects once, not at every check, when what fills the heap is live', () => {
    const { trim, state } = trimWith(true);
    state.heap = { total: 80 * MiB, used: 75 * MiB };
    state.after = 78 * MiB;
    state.live = 75 * MiB;
    for (let i = 0; i < 5; i++) trim.check();
    expect(state.collections).toBe(1);
    // The floor is now what V8 held after that collection: 78 MiB.
    state.heap = { total: 78 * MiB + TRIM_SLACK_BYTES - 1, used: 80 * MiB };
    trim.check();
    expect(state.collections).toBe(1);
  });

  it('tries again, waiting longer each time, while V8 keeps what it holds, then waits for a burst', () => {
    const { trim, state } = trimWith(true);
    // V8 measured allocation as the collection ran and kept the young generation: 62 MiB, 17 live.
    state.heap = { total: 62 * MiB, used: 20 * MiB };
    state.after = 62 * MiB;
    const collectionsOver = (checks: number) => {
      const start = state.collections;
      for (let i = 0; i < checks; i++) trim.check();
      return state.collections - start;
    };
    expect(collectionsOver(1)).toBe(1);
    // Then again after 1, 2, 4 and 8 quiet checks.
    expect(collectionsOver(1)).toBe(0);
    expect(collectionsOver(1)).toBe(1);
    expect(collectionsOver(2)).toBe(0);
    expect(collectionsOver(1)).toBe(1);
    expect(collectionsOver(4)).toBe(0);
    expect(collectionsOver(1)).toBe(1);
    expect(collectionsOver(8)).toBe(0);
    expect(collectionsOver(1)).toBe(1);
    // MAX_KEPT_TRIES in a row: no more until the next burst, however long the agent idles.
    expect(MAX_KEPT_TRIES).toBe(5);
    expect(collectionsOver(1000)).toBe(0);
    // A busy check: the next quiet one tries at once, and V8 gives it back this time.
    state.utilization = 0.5;
    trim.check();
    state.utilization = 0;
    state.after = 22 * MiB;
    expect(collectionsOver(1)).toBe(1);
    expect(state.heap.total).toBe(22 * MiB);
    expect(collectionsOver(20)).toBe(0);
  });

  it('lowers its floor when the heap shrinks on its own, and measures growth from there', () => {
    const { trim, state } = trimWith(true);
    state.heap = { total: 12 * MiB, used: 10 * MiB };
    trim.check();
    expect(state.collections).toBe(0);
    state.heap = { total: 12 * MiB + TRIM_SLACK_BYTES, used: 14 * MiB };
    trim.check();
    expect(state.collections).toBe(1);
  });

  it('leaves an agent still working however far its heap grew, and one whose heap did not grow', () => {
    const { trim, state } = trimWith(true);
    for (let i = 0; i < 5; i++) trim.check();
    expect(state.collections).toBe(0);
    state.heap = { total: 200 * MiB, used: 20 * MiB };
    state.utilization = QUIET_UTILIZATION;
    for (let i = 0; i < 5; i++) trim.check();
    expect(state.collections).toBe(0);
  });

  it('does nothing where V8 gave no collector', () => {
    const { trim, state } = trimWith(false);
    state.utilization = 1;
    trim.check();
    state.utilization = 0;
    trim.check();
    expect(trim.count).toBe(0);
  });

  it('with V8 itself: a burst that grew the heap, then quiet, and the heap is given back', () => {
    // A fresh node process, so nothing of the test runner's heap is in the figures.
    const script = `
      import { getHeapStatistics } from 'node:v8';
      import { startMemoryTrim, MemoryTrim, heapCollector } from ${JSON.stringify(join(REPO_ROOT, 'dist/agent/util/memory-trim.js'))};
      const heap = () => { const s = getHeapStatistics(); return { total: s.total_heap_size, used: s.used_heap_size }; };
      let utilization = 1;
      // Made before the burst, as the agent makes it as it starts: its floor is the heap then.
      const trim = new MemoryTrim({ collect: heapCollector(), utilization: () => utilization, heap, typing: () => false, log: { debug() {}, info() {}, warn() {}, error() {} } });
      const live = [];
      for (let r = 0; r < 300; r++) {
        const a = [];
        for (let i = 0; i < 20000; i++) a.push({ i, s: 'y' + i });
        live.push(a);
        if (live.length > 5) live.shift();
      }
      live.length = 0;
      const before = heap().total;
      trim.check();
      utilization = 0;
      trim.check();
      console.log(JSON.stringify({ before, after: heap().total, trims: trim.count, started: typeof startMemoryTrim }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as { before: number; after: number; trims: number; started: string };
    expect(out.trims).toBe(1);
    expect(out.started).toBe('function');
    expect(out.before - out.after).toBeGreaterThan(8 * MiB);
  });
});
