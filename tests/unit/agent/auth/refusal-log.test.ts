import { afterEach, describe, expect, it } from 'vitest';
import { RefusalLog } from '../../../../agent/auth/refusal-log.js';
import { recordingLogger } from '../../../support/recording-logger.js';

const open: RefusalLog[] = [];
afterEach(() => {
  for (const r of open.splice(0)) r.dispose();
});

function limiter(options: { maxSources?: number } = {}) {
  const clock = { now: 0 };
  const log = recordingLogger();
  const refusals = new RefusalLog(log, { windowMs: 60_000, maxSources: options.maxSources ?? 1_000, now: () => clock.now });
  open.push(refusals);
  return { clock, log, refusals };
}

describe('refusal logging', () => {
  it('logs the first refusal per source in a minute, and one summary with the count of the rest', () => {
    const { clock, log, refusals } = limiter();
    for (let i = 0; i < 500; i++) refusals.refused('203.0.113.7', 'refused a WebSocket', { path: '/api/status' });
    refusals.refused('198.51.100.1', 'refused a WebSocket', { path: '/api/sync' });
    expect(log.lines).toEqual([
      { message: 'refused a WebSocket', fields: { path: '/api/status', source: '203.0.113.7' } },
      { message: 'refused a WebSocket', fields: { path: '/api/sync', source: '198.51.100.1' } },
    ]);

    clock.now = 59_999;
    refusals.sweep();
    expect(log.lines).toHaveLength(2);

    clock.now = 60_000;
    refusals.sweep();
    expect(log.lines.slice(2)).toEqual([
      { message: expect.stringMatching(/only counted/), fields: { source: '203.0.113.7', count: 499, windowSeconds: 60 } },
    ]);

    // A new minute: the next refusal from that source is logged again.
    refusals.refused('203.0.113.7', 'refused a WebSocket', { path: '/api/status' });
    expect(log.lines).toHaveLength(4);
  });

  it('tracks a bounded number of sources; refusals from the rest are counted together', () => {
    const { clock, log, refusals } = limiter({ maxSources: 10 });
    for (let i = 0; i < 5_000; i++) refusals.refused(`2001:db8::${i.toString(16)}`, 'refused a WebSocket');
    expect(refusals.trackedSources).toBe(10);
    expect(log.lines).toHaveLength(10);

    clock.now = 60_000;
    refusals.sweep();
    expect(refusals.trackedSources).toBe(0);
    expect(log.lines.slice(10)).toEqual([
      { message: expect.stringMatching(/only counted/), fields: { sources: 'more than 10', count: 4_990, windowSeconds: 60 } },
    ]);
  });

  it('says the open counts on close', () => {
    const { log, refusals } = limiter();
    refusals.refused('::1', 'refused a WebSocket');
    refusals.refused('::1', 'refused a WebSocket');
    refusals.dispose();
    expect(log.lines.at(-1)?.fields).toMatchObject({ source: '::1', count: 1 });
  });
});
