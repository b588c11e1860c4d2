import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LoopDelayRecorder, summarizeSecond } from '../../../../agent/util/loop-delay.js';
import { heapCollector } from '../../../../agent/util/memory-trim.js';
import { eventually } from '../../../support/eventually.js';

describe('summarizeSecond', () => {
  it('gives the percentiles and the worst delay in milliseconds', () => {
    const ns: Record<number, number> = { 50: 1_065_000, 99: 3_200_500 };
    const second = summarizeSecond(1_000, { count: 960, percentile: (p: number) => ns[p] ?? 0, max: 24_117_247 }, { count: 3, longest: 21.4567, major: 1 });
    expect(second).toEqual({ at: 1_000, samples: 960, p50: 1.065, p99: 3.201, max: 24.117, gcs: 3, gcLongest: 21.457, majorGcs: 1 });
  });

  it('keeps no second in which nothing was sampled', () => {
    expect(summarizeSecond(1_000, { count: 0, percentile: () => 0, max: 0 })).toBeNull();
  });
});

describe('LoopDelayRecorder', () => {
  it('sees a pause of the loop and a full collection in the second they happened, and keeps only the newest seconds', async () => {
    const recorder = new LoopDelayRecorder(Date.now, 2);
    try {
      await sleep(100);
      const blockedAt = Date.now();
      while (Date.now() - blockedAt < 40) {
        // The event loop does nothing else for 40 ms, as a long collection would make it.
      }
      heapCollector()?.();
      const seconds = await eventually(() => {
        const kept = recorder.seconds();
        return kept.length > 0 ? kept : null;
      }, 5_000, 'a second recorded');
      expect(seconds[0]?.max).toBeGreaterThanOrEqual(39);
      expect(seconds[0]?.samples).toBeGreaterThan(0);
      expect(seconds[0]?.majorGcs).toBeGreaterThanOrEqual(1);
      expect(seconds[0]?.gcLongest).toBeGreaterThan(0);
      // A third second pushes the first out.
      await eventually(() => (recorder.seconds()[0]?.at ?? 0) > (seconds[0]?.at ?? 0), 5_000, 'the first second dropped');
      expect(recorder.seconds()).toHaveLength(2);
    } finally {
      recorder.dispose();
    }
  });
});
