import { constants, type IntervalHistogram, monitorEventLoopDelay, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import type { LoopDelaySecond } from '../../protocol/api.js';

/** Seconds kept: ten minutes, a benchmark's phase and then some; the oldest go first. */
export const LOOP_DELAY_SECONDS_KEPT = 600;

/** Samples of the loop every millisecond: a 2 ms pause in a keystroke's echo is what this is for. */
const RESOLUTION_MS = 1;

/** Histogram figures are in nanoseconds; a second's are kept in milliseconds, to the microsecond. */
const ms = (ns: number) => Math.round(ns / 1_000) / 1_000;

/** The garbage collections of one second: how many, the longest pause and whether a full one ran. */
export interface GcSecond {
  count: number;
  /** The longest collection's pause, in ms. */
  longest: number;
  /** Full (mark-compact) collections among them. */
  major: number;
}

const NO_GC: GcSecond = { count: 0, longest: 0, major: 0 };

/** What the histogram and the collector saw in one second, or null if the histogram took no sample. */
export function summarizeSecond(at: number, h: Pick<IntervalHistogram, 'count' | 'percentile' | 'max'>, gc: GcSecond = NO_GC): LoopDelaySecond | null {
  if (h.count === 0) return null;
  return { at, samples: h.count, p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), gcs: gc.count, gcLongest: Math.round(gc.longest * 1_000) / 1_000, majorGcs: gc.major };
}

/**
 * The agent's event-loop delay, second by second: how late a timer set to fire every
 * millisecond ran, which is how late a keystroke's echo would have been sent at that moment,
 * beside V8's collections in that second, which tell a pause of the collector from others.
 * Off by default (`POCKETMUX_MEASURE_LOOP_DELAY=1`): sampling wakes the agent a thousand
 * times a second, a cost an idle agent on a laptop should not pay. The benchmarks turn it on
 * and read it from `GET /api/terminals`.
 */
export class LoopDelayRecorder {
  private readonly histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private readonly kept: LoopDelaySecond[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      this.gc.count++;
      this.gc.longest = Math.max(this.gc.longest, entry.duration);
      if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) this.gc.major++;
    }
  });
  private gc: GcSecond = { ...NO_GC };

  constructor(
    private readonly now: () => number = Date.now,
    private readonly keptSeconds = LOOP_DELAY_SECONDS_KEPT,
  ) {
    this.histogram.enable();
    this.collections.observe({ entryTypes: ['gc'] });
    this.timer = setInterval(() => this.closeSecond(), 1_000);
    this.timer.unref();
  }

  /** The seconds recorded, oldest first. */
  seconds(): LoopDelaySecond[] {
    return [...this.kept];
  }

  dispose(): void {
    clearInterval(this.timer);
    this.histogram.disable();
    this.collections.disconnect();
  }

  private closeSecond(): void {
    const second = summarizeSecond(this.now(), this.histogram, this.gc);
    this.histogram.reset();
    this.gc = { ...NO_GC };
    if (!second) return;
    this.kept.push(second);
    if (this.kept.length > this.keptSeconds) this.kept.splice(0, this.kept.length - this.keptSeconds);
  }
}
