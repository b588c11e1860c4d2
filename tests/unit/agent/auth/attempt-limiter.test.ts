import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { attemptSource, headerAddress, lastForwarded } from '../../../../agent/auth/client-address.js';
import { AttemptLimiter, MAX_PROXIED_FAILURES, MAX_TRACKED_SOURCES, PairingAttempts } from '../../../../agent/auth/pairing.js';

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

describe('who a pairing attempt counts against', () => {
  const req = (remoteAddress: string, xff?: string | string[]) =>
    ({ socket: { remoteAddress }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }) as unknown as Pick<IncomingMessage, 'headers' | 'socket'>;

  it('takes the last X-Forwarded-For entry from a loopback peer when a proxy is configured', () => {
    expect(attemptSource(req('127.0.0.1', '203.0.113.9'), true)).toEqual({ client: '203.0.113.9', via: '127.0.0.1' });
    // Earlier entries are whatever the client wrote; the proxy appended the last one.
    expect(attemptSource(req('::1', '10.0.0.1, 198.51.100.7'), true)).toEqual({ client: '198.51.100.7', via: '::1' });
    expect(attemptSource(req('::ffff:127.0.0.1', ['1.1.1.1', '100.101.102.103']), true)).toEqual({ client: '100.101.102.103', via: '::ffff:127.0.0.1' });
    expect(attemptSource(req('127.0.0.1', '[FD7A:115C::5]:4431'), true).client).toBe('fd7a:115c::5');
    expect(attemptSource(req('127.0.0.1', '198.51.100.7:55000'), true).client).toBe('198.51.100.7');
  });

  it('believes no header without a proxy configured, from a peer off loopback, or when the last entry is no address', () => {
    expect(attemptSource(req('127.0.0.1', '203.0.113.9'), false)).toEqual({ client: '127.0.0.1', via: null });
    expect(attemptSource(req('192.0.2.10', '203.0.113.9'), true)).toEqual({ client: '192.0.2.10', via: null });
    expect(attemptSource(req('127.0.0.1', '203.0.113.9, unknown'), true)).toEqual({ client: '127.0.0.1', via: null });
    expect(attemptSource(req('127.0.0.1', ''), true)).toEqual({ client: '127.0.0.1', via: null });
    expect(attemptSource(req('127.0.0.1'), true)).toEqual({ client: '127.0.0.1', via: null });
    expect(lastForwarded('203.0.113.9,')).toBeNull();
    expect(headerAddress('not-an-ip')).toBeNull();
  });

  it('limits each forwarded client on its own, and all of them together at the proxy', () => {
    const attempts = new PairingAttempts({ behindProxy: true });
    const a = { client: '198.51.100.1', via: '127.0.0.1' };
    const b = { client: '198.51.100.2', via: '127.0.0.1' };
    for (let i = 0; i < 5; i++) attempts.fail(a, 1_000);
    expect(attempts.retryAfter(a, 'code', 1_000)).toBe(60);
    expect(attempts.retryAfter(a, 'secret', 1_000)).toBe(60);
    expect(attempts.retryAfter(b, 'code', 1_000)).toBe(0);
    // A forged address per attempt still runs into the proxy's count, for codes.
    for (let i = 5; i < MAX_PROXIED_FAILURES; i++) attempts.fail({ client: `203.0.${Math.floor(i / 256)}.${i % 256}`, via: '127.0.0.1' }, 1_000);
    expect(attempts.retryAfter(b, 'code', 1_000)).toBe(60);
    // A link's secret is still checked for a client that has not failed itself.
    expect(attempts.retryAfter(b, 'secret', 1_000)).toBe(0);
    expect(attempts.retryAfter({ client: '127.0.0.1', via: null }, 'code', 1_000)).toBe(0);
    expect(attempts.retryAfter(b, 'code', 61_000)).toBe(0);
    // Pairing clears the client's own count only.
    attempts.succeed(a);
    expect(attempts.retryAfter(a, 'code', 2_000)).toBe(59);
  });

  it('lets many clients through a proxy each fail five times a minute without holding up the right code', () => {
    const attempts = new PairingAttempts({ behindProxy: true });
    // Forty wrong codes from eight clients: what kept everyone out when the proxy's share was 30.
    for (let client = 0; client < 8; client++) for (let i = 0; i < 5; i++) attempts.fail({ client: `198.51.100.${client}`, via: '127.0.0.1' }, 1_000);
    expect(attempts.retryAfter({ client: '198.51.100.99', via: '127.0.0.1' }, 'code', 1_000)).toBe(0);
    expect(attempts.retryAfter({ client: '198.51.100.0', via: '127.0.0.1' }, 'code', 1_000)).toBe(60);
  });

  it('finds the source from the request with the configured rule', () => {
    expect(new PairingAttempts({ behindProxy: true }).sourceOf(req('127.0.0.1', '203.0.113.9')).client).toBe('203.0.113.9');
    expect(new PairingAttempts({ behindProxy: false }).sourceOf(req('127.0.0.1', '203.0.113.9')).client).toBe('127.0.0.1');
  });
});
