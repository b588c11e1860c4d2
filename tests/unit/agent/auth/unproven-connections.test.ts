import { describe, expect, it } from 'vitest';
import { type Cut, UNPROVEN_LIMITS, UnprovenConnections } from '../../../../agent/auth/unproven-connections.js';

const limits = { perSource: 3, total: 6, headersMs: 10_000, idleMs: 5_000 };

/** Admits each `[name, source]` in turn at time 0 and returns every cut, by name and reason. */
function admitAll(connections: UnprovenConnections<string>, entries: [string, string][], now = 0): [string, string][] {
  const cuts: Cut<string>[] = [];
  for (const [name, source] of entries) cuts.push(...connections.admit(name, source, now));
  return cuts.map((c) => [c.connection, c.reason]);
}

describe('unproven connections', () => {
  it('cuts nothing while every source and the agent have room', () => {
    const c = new UnprovenConnections<string>(limits);
    expect(admitAll(c, [['a1', 'A'], ['a2', 'A'], ['b1', 'B'], ['a3', 'A']])).toEqual([]);
    expect(c.size).toBe(4);
    expect(c.heldBy('A')).toBe(3);
  });

  it("at a source's cap, cuts that source's own oldest, never another's, and the new one gets in", () => {
    const c = new UnprovenConnections<string>(limits);
    admitAll(c, [['a1', 'A'], ['b1', 'B'], ['a2', 'A'], ['a3', 'A']]);
    expect(c.admit('a4', 'A', 0)).toEqual([{ connection: 'a1', source: 'A', reason: 'source-cap' }]);
    expect(['a2', 'a3', 'a4', 'b1'].every((x) => c.has(x))).toBe(true);
    expect(c.has('a1')).toBe(false);
  });

  it('a flood from one address evicts itself: every new connection from elsewhere gets in and stays', () => {
    const c = new UnprovenConnections<string>(limits);
    const flood: [string, string][] = Array.from({ length: 1_000 }, (_, i) => [`f${i}`, '127.0.0.1']);
    admitAll(c, flood.slice(0, 500));
    expect(c.admit('hook', '127.0.0.2', 0)).toEqual([]);
    const cuts = admitAll(c, flood.slice(500));
    expect(cuts).toHaveLength(500);
    expect(cuts.every(([name, reason]) => name.startsWith('f') && reason === 'source-cap')).toBe(true);
    expect(c.has('hook')).toBe(true);
    expect(c.heldBy('127.0.0.1')).toBe(limits.perSource);
  });

  it('from the flood\'s own address, a new connection is the last to go: the flood must open a cap\'s worth more first', () => {
    const c = new UnprovenConnections<string>(limits);
    admitAll(c, [['f1', 'L'], ['f2', 'L'], ['f3', 'L']]);
    expect(c.admit('hook', 'L', 0).map((x) => x.connection)).toEqual(['f1']);
    expect(admitAll(c, [['f4', 'L'], ['f5', 'L']]).map(([n]) => n)).toEqual(['f2', 'f3']);
    expect(c.has('hook')).toBe(true);
    // Its headers came in time: proven, it is out of reach of the flood.
    expect(c.prove('hook')).toBe(true);
    expect(admitAll(c, [['f6', 'L'], ['f7', 'L'], ['f8', 'L'], ['f9', 'L']]).map(([n]) => n)).toEqual(['f4', 'f5', 'f6']);
    expect(c.has('hook')).toBe(false);
    expect(c.heldBy('L')).toBe(3);
  });

  it('at the total cap, cuts the oldest of the source holding the most, though another source has an older one', () => {
    const c = new UnprovenConnections<string>(limits);
    admitAll(c, [['a1', 'A'], ['b1', 'B'], ['b2', 'B'], ['c1', 'C'], ['b3', 'B'], ['a2', 'A']]);
    expect(c.admit('d1', 'D', 0)).toEqual([{ connection: 'b1', source: 'B', reason: 'total-cap' }]);
    expect(c.size).toBe(6);
    expect(c.has('a1')).toBe(true);
    expect(c.has('d1')).toBe(true);
  });

  it('on a tie at the total cap, cuts from the source whose oldest connection is older', () => {
    const c = new UnprovenConnections<string>(limits);
    admitAll(c, [['b1', 'B'], ['a1', 'A'], ['c1', 'C'], ['a2', 'A'], ['b2', 'B'], ['c2', 'C']]);
    expect(c.admit('d1', 'D', 0).map((x) => x.connection)).toEqual(['b1']);
    expect(c.admit('d2', 'D', 0).map((x) => x.connection)).toEqual(['a1']);
  });

  it('never cuts a proven connection, nor counts it: proven connections leave room', () => {
    const c = new UnprovenConnections<string>(limits);
    admitAll(c, [['a1', 'A'], ['a2', 'A'], ['a3', 'A']]);
    expect(c.prove('a1')).toBe(true);
    expect(c.prove('a1')).toBe(false);
    expect(c.heldBy('A')).toBe(2);
    expect(c.admit('a4', 'A', 0)).toEqual([]);
    expect(c.expired(Number.POSITIVE_INFINITY).map((x) => x.connection).sort()).toEqual(['a2', 'a3', 'a4']);
    expect(c.has('a1')).toBe(false);
  });

  it('cuts a connection whose headers did not come in time, and only that one', () => {
    const c = new UnprovenConnections<string>(limits);
    c.admit('slow', 'A', 0);
    c.admit('later', 'A', 4_000);
    expect(c.expired(9_999)).toEqual([]);
    expect(c.expired(10_000)).toEqual([{ connection: 'slow', source: 'A', reason: 'headers-timeout' }]);
    expect(c.has('later')).toBe(true);
    expect(c.expired(10_000)).toEqual([]);
    expect(c.expired(14_000)).toEqual([{ connection: 'later', source: 'A', reason: 'headers-timeout' }]);
    expect(c.size).toBe(0);
  });

  it('no deadline while a request is answered; after the answer, an idle deadline', () => {
    const c = new UnprovenConnections<string>(limits);
    c.admit('page', 'A', 0);
    c.requestStarted('page');
    // A large file to a slow phone: still answering long after the header deadline.
    expect(c.expired(60_000)).toEqual([]);
    c.requestFinished('page', 60_000);
    expect(c.expired(64_999)).toEqual([]);
    // A second request came on it: answered, then idle again.
    c.requestStarted('page');
    c.requestFinished('page', 64_000);
    expect(c.expired(68_999)).toEqual([]);
    expect(c.expired(69_000)).toEqual([{ connection: 'page', source: 'A', reason: 'idle-timeout' }]);
  });

  it('a connection being answered can still be cut for room: it has proven nothing', () => {
    const c = new UnprovenConnections<string>(limits);
    admitAll(c, [['a1', 'A'], ['a2', 'A'], ['a3', 'A']]);
    c.requestStarted('a1');
    expect(c.admit('a4', 'A', 0).map((x) => x.connection)).toEqual(['a1']);
  });

  it('forgets a closed connection, and what is told of it afterwards changes nothing', () => {
    const c = new UnprovenConnections<string>(limits);
    c.admit('a1', 'A', 0);
    c.closed('a1');
    c.closed('a1');
    c.requestStarted('a1');
    c.requestFinished('a1', 0);
    expect(c.prove('a1')).toBe(false);
    expect(c.size).toBe(0);
    expect(c.heldBy('A')).toBe(0);
    expect(c.expired(Number.POSITIVE_INFINITY)).toEqual([]);
  });

  it('counts a connection admitted twice once', () => {
    const c = new UnprovenConnections<string>(limits);
    c.admit('a1', 'A', 0);
    expect(c.admit('a1', 'A', 0)).toEqual([]);
    expect(c.size).toBe(1);
  });

  it('holds the caps through a long churn of sources coming and going', () => {
    const c = new UnprovenConnections<number>({ ...limits, perSource: 5, total: 40 });
    let next = 0;
    for (let round = 0; round < 2_000; round++) {
      const source = `s${(round * 7919) % 23}`;
      c.admit(next++, source, round);
      if (round % 3 === 0) c.prove(next - 2);
      if (round % 5 === 0) c.closed(next - 4);
      expect(c.size).toBeLessThanOrEqual(40);
      expect(c.heldBy(source)).toBeLessThanOrEqual(5);
    }
    expect(c.size).toBe(40);
  });

  it('refuses caps below one, with which no connection could get in', () => {
    expect(() => new UnprovenConnections({ ...limits, total: 0 })).toThrow(RangeError);
    expect(() => new UnprovenConnections({ ...limits, perSource: 0 })).toThrow(RangeError);
  });

  it('the agent\'s own limits: a source cannot take the whole total, and a browser fits many times', () => {
    expect(UNPROVEN_LIMITS.total).toBeGreaterThanOrEqual(4 * UNPROVEN_LIMITS.perSource);
    expect(UNPROVEN_LIMITS.perSource).toBeGreaterThanOrEqual(6 * 16);
  });
});
