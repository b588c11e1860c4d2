import { describe, expect, it } from 'vitest';
import type { LoopDelaySecond } from '../../../protocol/api.js';
import { loopDuring } from '../../bench/terminal.js';

const second = (at: number, p99: number, max: number, gcLongest = 0, majorGcs = 0): LoopDelaySecond => ({ at, samples: 900, p50: 1, p99, max, gcs: majorGcs + 2, gcLongest, majorGcs });

describe("the agent's loop delay during pocketmux's echo batches", () => {
  const seconds = [second(10_000, 1.2, 3), second(11_000, 1.4, 26), second(12_000, 1.1, 2), second(13_000, 9, 40, 38.5, 1), second(14_000, 1.3, 6, 50, 2)];

  it('takes every second that overlaps a batch, and only those', () => {
    // Batches in (9.5 s, 10.2 s] and (11.9 s, 12.1 s]: the seconds ending at 10, 11, 12 and 13 s.
    expect(loopDuring(seconds, [{ from: 9_500, to: 10_200 }, { from: 11_900, to: 12_100 }])).toEqual({ seconds: 4, worstP99: 9, max: 40, secondsOver5Ms: 2, gcLongest: 38.5, majorGcs: 1 });
  });

  it('counts a second by the span it covers, which ends at its timestamp', () => {
    expect(loopDuring(seconds, [{ from: 11_000, to: 11_999 }])).toEqual({ seconds: 1, worstP99: 1.1, max: 2, secondsOver5Ms: 0, gcLongest: 0, majorGcs: 0 });
  });

  it('says nothing when no second overlaps', () => {
    expect(loopDuring(seconds, [{ from: 20_000, to: 21_000 }])).toBeNull();
    expect(loopDuring([], [{ from: 0, to: 1 }])).toBeNull();
  });
});
