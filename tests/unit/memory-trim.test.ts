import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type HeapFigures, MemoryTrim, QUIET_UTILIZATION, TRIM_SLACK_BYTES } from '../../agent/util/memory-trim.js';
import { createLogger } from '../../agent/util/log.js';
import { REPO_ROOT } from '../support/agent.js';

const MiB = 1024 * 1024;

/** A trim over figures the test sets, counting the collections it asks for. */
function trimWith(collector: boolean) {
  const state = { utilization: 0, heap: { total: 60 * MiB, used: 20 * MiB } as HeapFigures, collections: 0 };
  const trim = new MemoryTrim({
    collect: collector
      ? () => {
          state.collections++;
          state.heap = { total: 22 * MiB, used: 17 * MiB };
        }
      : null,
    utilization: () => state.utilization,
    heap: () => state.heap,
    log: createLogger({ stderr: false }),
  });
  return { trim, state };
}

describe('giving memory back after a burst', () => {
  it('collects once when the agent goes quiet after working, with heap to spare', () => {
    const { trim, state } = trimWith(true);
    state.utilization = 0.4;
    trim.check();
    expect(state.collections).toBe(0);
    state.utilization = QUIET_UTILIZATION / 2;
    trim.check();
    expect(state.collections).toBe(1);
    // Still quiet: once per quiet stretch, even if the heap had grown meanwhile.
    state.heap = { total: 60 * MiB, used: 20 * MiB };
    trim.check();
    trim.check();
    expect(state.collections).toBe(1);
    // Another burst, then quiet: once more.
    state.utilization = 0.9;
    trim.check();
    state.utilization = 0;
    trim.check();
    expect(state.collections).toBe(2);
    expect(trim.count).toBe(2);
  });

  it('leaves an agent that never worked, one still working, and a heap with little to spare', () => {
    const { trim, state } = trimWith(true);
    state.utilization = 0;
    for (let i = 0; i < 5; i++) trim.check();
    expect(state.collections).toBe(0);
    state.utilization = QUIET_UTILIZATION;
    for (let i = 0; i < 5; i++) trim.check();
    expect(state.collections).toBe(0);
    state.heap = { total: 20 * MiB + TRIM_SLACK_BYTES - 1, used: 20 * MiB };
    state.utilization = 0;
    trim.check();
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
      const live = [];
      for (let r = 0; r < 300; r++) {
        const a = [];
        for (let i = 0; i < 20000; i++) a.push({ i, s: 'y' + i });
        live.push(a);
        if (live.length > 5) live.shift();
      }
      live.length = 0;
      const heap = () => { const s = getHeapStatistics(); return { total: s.total_heap_size, used: s.used_heap_size }; };
      const before = heap().total;
      let utilization = 1;
      const trim = new MemoryTrim({ collect: heapCollector(), utilization: () => utilization, heap, log: { debug() {}, info() {}, warn() {}, error() {} } });
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
