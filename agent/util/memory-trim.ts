import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from './log.js';

/** How often the agent looks whether it is quiet with more heap than it needs. */
export const TRIM_CHECK_MS = 5_000;
/**
 * Below this share of the last check's time spent working, the agent is quiet; a flood or the
 * hook load keeps it far above (the load: 30% of a core).
 */
export const QUIET_UTILIZATION = 0.1;
/** Growth of the heap V8 holds, past its floor, at which a quiet agent gives memory back. */
export const TRIM_SLACK_BYTES = 16 * 1024 * 1024;
/** Collections in a row V8 may keep the memory from before the trim waits for the next burst. */
export const MAX_KEPT_TRIES = 5;

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
  /**
   * Whether a person is typing into a terminal: the collection waits for a pause, since a key
   * pressed while it runs has its echo delayed by all of it.
   */
  typing: () => boolean;
  log: Logger;
}

/**
 * Gives memory back once the agent goes quiet after a burst. A terminal flood, a burst of
 * typed frames or of hooks grows V8's young generation to its cap (two 16 MiB semi-spaces)
 * and leaves garbage in old space; V8 shrinks them only in a collection that sees little
 * allocation, and an agent that then waits allocates nothing, so none comes. Measured: after
 * the input benchmark's bursts the heap held 62 MiB (young generation 32 MiB, 5 in use),
 * RSS 115 MiB; one full collection brought them to 20 and 74 MiB.
 *
 * The rule: the floor is the heap V8 held after the last trim (at first, the heap as the
 * agent started), lowered whenever a quiet check finds less. A check that finds the agent
 * quiet and the heap grown TRIM_SLACK_BYTES past the floor asks V8 for one full collection
 * (10 to 25 ms, with nothing else to do). How much of the heap is in use does not enter:
 * right after a burst the young generation is full of garbage that counts as used.
 *
 * V8 shrinks the young generation in that collection only if the agent allocated little in
 * the last seconds (under 1 MB a second, V8's own measure), which a quiet event loop does not
 * promise: measured, a trim during a run of hook.sh posts, the loop under 10% busy, left the
 * young generation at 32 MiB. So what V8 holds after the collection decides. Less than
 * TRIM_SLACK_BYTES beyond what is in use: V8 gave back what it could, the rest is live, and
 * that is the new floor (a heap grown with live data is trimmed once, not at every check).
 * More: V8 kept it, and a later quiet check tries again, after 1, 2, 4 and 8 checks; after
 * MAX_KEPT_TRIES such tries (about 80 s) the trim waits for the next busy check, so a heap V8
 * will not give back (allocation that never stops, fragments) costs five collections, not
 * one a minute for good. A busy check clears the wait and the count, since the burst's end
 * is when trying pays.
 *
 * A person typing keeps the loop quiet, which made the collection land between keystrokes:
 * measured, echo p99 4.3 ms with it and 2.7 ms without. While a terminal is being typed into,
 * a check does nothing and leaves its counts as they are: the trim comes at the first pause.
 */
export class MemoryTrim {
  private floor: number;
  private trims = 0;
  /** Quiet checks to let pass before trying again, after a collection V8 kept the memory from. */
  private wait = 0;
  private keptInARow = 0;

  constructor(private readonly deps: MemoryTrimDeps) {
    this.floor = deps.heap().total;
  }

  /** One look; the timer calls it every TRIM_CHECK_MS. */
  check(): void {
    if (this.deps.collect === null) return;
    // Read at every check, so that it always covers the last TRIM_CHECK_MS.
    const utilization = this.deps.utilization();
    if (this.deps.typing()) return;
    if (utilization >= QUIET_UTILIZATION) {
      this.wait = 0;
      this.keptInARow = 0;
      return;
    }
    if (this.wait > 0) {
      this.wait--;
      return;
    }
    if (this.keptInARow >= MAX_KEPT_TRIES) return;
    const before = this.deps.heap();
    if (before.total < this.floor) this.floor = before.total;
    if (before.total - this.floor < TRIM_SLACK_BYTES) return;
    const started = performance.now();
    this.deps.collect();
    this.trims++;
    const after = this.deps.heap();
    const kept = after.total - after.used >= TRIM_SLACK_BYTES;
    if (kept) {
      this.wait = 2 ** this.keptInARow;
      this.keptInARow++;
    } else {
      this.floor = after.total;
      this.keptInARow = 0;
    }
    this.deps.log.debug(kept ? 'asked V8 for memory back after a burst, it kept it' : 'gave memory back after a burst', {
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
export function startMemoryTrim(log: Logger, typing: () => boolean): { trim: MemoryTrim; dispose: () => void } {
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
    typing,
    log,
  });
  const timer = setInterval(() => trim.check(), TRIM_CHECK_MS);
  timer.unref();
  return { trim, dispose: () => clearInterval(timer) };
}
