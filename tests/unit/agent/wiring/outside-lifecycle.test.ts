import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ForgetReason, OutsideSession } from '../../../../agent/outside/outside-sessions.js';
import type { Disposable } from '../../../../agent/util/disposable.js';
import { type OutsideLifecycleDeps, outsideLifecycle } from '../../../../agent/wiring/outside-lifecycle.js';
import type { StatusServerMessage } from '../../../../protocol/status.js';

/** The outside sessions as the rule sees them: a set of keys that can be forgotten and swept. */
class FakeOutside extends EventEmitter<{ forgotten: [OutsideSession, ForgetReason] }> {
  readonly keys = new Set<string>();
  readonly forgotten: [string, ForgetReason][] = [];
  sweeps = 0;
  has(key: string): boolean {
    return this.keys.has(key);
  }
  forget(key: string, reason: ForgetReason): void {
    if (!this.keys.delete(key)) return;
    this.forgotten.push([key, reason]);
    this.emit('forgotten', { key } as OutsideSession, reason);
  }
  async sweep(): Promise<void> {
    this.sweeps++;
  }
}

/** The status as the rule sees it: keys with a status, removed with a `status:removed` message. */
class FakeStatus extends EventEmitter<{ message: [StatusServerMessage] }> {
  readonly keys = new Set<string>();
  snapshot() {
    return Object.fromEntries([...this.keys].map((k) => [k, {}])) as ReturnType<OutsideLifecycleDeps['status']['snapshot']>;
  }
  forget(key: string): void {
    if (!this.keys.delete(key)) return;
    this.emit('message', { type: 'status:removed', tabId: key });
  }
}

const log = { warn: () => undefined };
const open: Disposable[] = [];
afterEach(async () => {
  for (const d of open.splice(0)) await d.dispose();
});

function world(opts: { outside?: string[]; status?: string[]; sweepMs?: number } = {}) {
  const outside = new FakeOutside();
  for (const k of opts.outside ?? []) outside.keys.add(k);
  const status = new FakeStatus();
  for (const k of opts.status ?? []) status.keys.add(k);
  const settled: [string, string][] = [];
  const approvals = { settleTab: (key: string, outcome: 'answered-in-terminal' | 'claude-exited') => void settled.push([key, outcome]) };
  const lifecycle = outsideLifecycle({ outside, status, approvals, log, sweepMs: opts.sweepMs ?? 60_000 });
  open.push(lifecycle);
  return { outside, status, settled, lifecycle };
}

describe('the outside session lifecycle', () => {
  it('settles the approvals of a forgotten session as claude-exited and removes its status', () => {
    const { outside, status, settled } = world({ outside: ['outside-a'], status: ['outside-a', 'tb-1'] });
    outside.forget('outside-a', 'process-gone');
    expect(settled).toEqual([['outside-a', 'claude-exited']]);
    expect([...status.keys]).toEqual(['tb-1']);
  });

  it('forgets at start the status of an outside session it no longer knows, and keeps the rest', () => {
    const { status } = world({ outside: ['outside-known'], status: ['outside-known', 'outside-stale', 'tb-1'] });
    expect([...status.keys].sort()).toEqual(['outside-known', 'tb-1']);
  });

  it('lets a session go when the status cap drops its status, and leaves sessions alone when a tab status goes', () => {
    const { outside, status } = world({ outside: ['outside-a', 'outside-b'], status: ['outside-a', 'outside-b', 'tb-1'] });
    status.forget('outside-a');
    status.forget('tb-1');
    expect(outside.forgotten).toEqual([['outside-a', 'status-dropped']]);
    expect([...outside.keys]).toEqual(['outside-b']);
  });

  it('sweeps the sessions on its timer until disposed', async () => {
    vi.useFakeTimers();
    try {
      const { outside, lifecycle } = world({ sweepMs: 1_000 });
      vi.advanceTimersByTime(2_000);
      expect(outside.sweeps).toBe(2);
      await lifecycle.dispose();
      vi.advanceTimersByTime(5_000);
      expect(outside.sweeps).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('once disposed, a forgotten session settles nothing', async () => {
    const { outside, status, settled, lifecycle } = world({ outside: ['outside-a'], status: ['outside-a'] });
    await lifecycle.dispose();
    outside.forget('outside-a', 'process-gone');
    expect(settled).toEqual([]);
    expect([...status.keys]).toEqual(['outside-a']);
  });
});
