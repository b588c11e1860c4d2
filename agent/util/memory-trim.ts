import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from './log.js';

/** How often the agent looks whether it has gone quiet after a burst. */
export const TRIM_CHECK_MS = 5_000;
/**
 * Below this share of the last check's time spent working, the agent is quiet; a flood or the
 * hook load keeps it far above (the load: 30% of a core).
 */
export const QUIET_UTILIZATION = 0.1;
/** Heap V8 holds beyond what is in use, past which a quiet agent gives it back. */
export const TRIM_SLACK_BYTES = 16 * 1024 * 1024;

export interface HeapFigures {
  /** What V8 holds for the heap. */
  total: number;
  /** What of it is in use (live objects, and garbage not yet collected). */
  used: number;
}

export interface MemoryTrimDeps {
  /** A full collection, or null where V8 would not give one: then nothing is ever trimmed. */
  collect: (() => void) | null;
  /** The share of time the event loop worked since the last call (0 to 1). */
  utilization: () => number;
  heap: () => HeapFigures;
  log: Logger;
}

/**
 * Gives memory back once the agent goes quiet after a burst. A terminal flood or a burst of
 * hooks grows V8's young generation (to 32 MiB) and leaves garbage in old space; V8 gives
 * that back only from a collection that sees little allocation, and an agent that then
 * waits allocates nothing, so none comes: measured, 105 MiB stayed for a minute of idling
 * after the terminal benchmark's floods, 80 MiB at start. So: after a check that found the
 * agent working, the first check that finds it quiet, with more than TRIM_SLACK_BYTES of
 * heap not in use, asks V8 for one full collection (about 10 ms, with nothing else to do).
 * Once per quiet stretch; a quiet agent with little slack costs a look every 5 s.
 */
export class MemoryTrim {
  private busySinceTrim = false;
  private trims = 0;

  constructor(private readonly deps: MemoryTrimDeps) {}

  /** One look; the timer calls it every TRIM_CHECK_MS. */
  check(): void {
    if (this.deps.collect === null) return;
    if (this.deps.utilization() >= QUIET_UTILIZATION) {
      this.busySinceTrim = true;
      return;
    }
    if (!this.busySinceTrim) return;
    this.busySinceTrim = false;
    const before = this.deps.heap();
    if (before.total - before.used < TRIM_SLACK_BYTES) return;
    const started = performance.now();
    this.deps.collect();
    this.trims++;
    const after = this.deps.heap();
    this.deps.log.debug('gave memory back after a burst', {
      heapMiB: [before.total, after.total].map((b) => Math.round(b / 1048576)),
      ms: Math.round(performance.now() - started),
    });
  }

  get count(): number {
    return this.trims;
  }
}

/**
 * V8's collector as a function. Node starts V8 without it; `--expose-gc` set at run time
 * gives it to contexts made afterwards, so one is made to take it from. Null if V8 did not.
 */
export function heapCollector(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? () => (gc as () => void)() : null;
  } catch {
    return null;
  }
}

/** The agent's trim: V8's collector, the event loop's own utilization and heap figures, on an unref'd timer. */
export function startMemoryTrim(log: Logger): { trim: MemoryTrim; stop: () => void } {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const trim = new MemoryTrim({
    collect: heapCollector(),
    utilization: () => {
      const now = performance.eventLoopUtilization();
      const since = performance.eventLoopUtilization(now, last);
      last = now;
      return since.utilization;
    },
    heap: () => {
      const s = getHeapStatistics();
      return { total: s.total_heap_size, used: s.used_heap_size };
    },
    log,
  });
  const timer = setInterval(() => trim.check(), TRIM_CHECK_MS);
  timer.unref();
  return { trim, stop: () => clearInterval(timer) };
}
