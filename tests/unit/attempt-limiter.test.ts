import { describe, expect, it } from 'vitest';
import { AttemptLimiter, MAX_TRACKED_SOURCES } from '../../agent/auth/pairing.js';

describe('pairing attempt limiter', () => {
  it('makes a source wait after five wrong attempts in a minute, and forgets it after the minute', () => {
    const limiter = new AttemptLimiter();
    for (let i = 0; i < 5; i++) limiter.fail('a', 1_000);
    expect(limiter.retryAfter('a', 1_000)).toBe(60);
    expect(limiter.retryAfter('b', 1_000)).toBe(0);
    expect(limiter.retryAfter('a', 61_000)).toBe(0);
  });

  it('keeps a bounded number of sources when many fail within one minute', () => {
    const limiter = new AttemptLimiter();
    for (let i = 0; i < 5; i++) limiter.fail('first', 0);
    for (let i = 0; i < MAX_TRACKED_SOURCES + 500; i++) limiter.fail(`source-${i}`, 10);
    const failures = (limiter as unknown as { failures: Map<string, unknown> }).failures;
    expect(failures.size).toBeLessThanOrEqual(MAX_TRACKED_SOURCES);
    // The newest are kept: a source that just failed is still counted.
    expect(failures.has(`source-${MAX_TRACKED_SOURCES + 499}`)).toBe(true);
  });
});
