import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { StatusEffect, StatusEvent } from '../../../../agent/status/reducer.js';
import { settleApprovalsWithStatus } from '../../../../agent/wiring/approval-settlement.js';
import type { Approval, ApprovalServerMessage } from '../../../../protocol/approvals.js';
import type { ClaudeState, TabStatus } from '../../../../protocol/status.js';

class FakeStatus extends EventEmitter<{ effect: [string, StatusEffect] }> {
  readonly known = new Set<string>();
  readonly states = new Map<string, ClaudeState>();
  readonly applied: [string, StatusEvent['kind']][] = [];
  readonly events: StatusEvent[] = [];
  get(key: string) {
    return this.known.has(key) ? ({ state: this.states.get(key) ?? 'idle' } as TabStatus) : undefined;
  }
  apply(key: string, event: StatusEvent) {
    this.applied.push([key, event.kind]);
    this.events.push(event);
    return {} as never;
  }
}

class FakeApprovals extends EventEmitter<{ message: [ApprovalServerMessage] }> {
  readonly settled: [string, string][] = [];
  readonly open: Approval[] = [];
  settleTab(key: string, outcome: 'answered-in-terminal' | 'claude-exited'): void {
    this.settled.push([key, outcome]);
  }
  forTab(key: string): Approval[] {
    return this.open.filter((a) => a.tabId === key);
  }
}

function world() {
  const status = new FakeStatus();
  const approvals = new FakeApprovals();
  const rule = settleApprovalsWithStatus({ status, approvals });
  return { status, approvals, rule };
}

const opened = (tabId: string, kind: Approval['kind'] = 'permission', id = 'ap-1'): ApprovalServerMessage => ({ type: 'approval-opened', approval: { id, tabId, kind } as Approval });
const resolved = (tabId: string, id = 'ap-1'): ApprovalServerMessage => ({
  type: 'approval-resolved',
  resolution: { id, tabId, outcome: 'answered', by: { kind: 'device', name: 'phone' }, at: 0, message: null },
});

describe('approval settlement', () => {
  it('settles a session whose claude is gone or ended as claude-exited', () => {
    const { status, approvals } = world();
    status.emit('effect', 'tb-1', { kind: 'permission-settled', reason: 'claude-gone' });
    status.emit('effect', 'outside-a', { kind: 'permission-settled', reason: 'session-ended' });
    expect(approvals.settled).toEqual([
      ['tb-1', 'claude-exited'],
      ['outside-a', 'claude-exited'],
    ]);
  });

  it('settles a session whose turn ended as answered in the terminal, and leaves other effects alone', () => {
    const { status, approvals } = world();
    status.emit('effect', 'tb-1', { kind: 'permission-settled', reason: 'turn-ended' });
    status.emit('effect', 'tb-1', { kind: 'permission-settled', reason: 'tool-ran' });
    status.emit('effect', 'tb-1', { kind: 'notify', state: 'needs-input' });
    expect(approvals.settled).toEqual([['tb-1', 'answered-in-terminal']]);
  });

  it('tells the status of a session that an approval opened for it (it then needs the person), and nothing of a session with no status', () => {
    const { status, approvals } = world();
    status.known.add('tb-1');
    approvals.emit('message', opened('tb-1'));
    approvals.emit('message', opened('tb-unknown'));
    expect(status.applied).toEqual([['tb-1', 'approval-open']]);
  });

  it('puts a session back where it was once a dialog read off its screen has gone with nothing else open', () => {
    const { status, approvals } = world();
    status.known.add('tb-1');
    status.states.set('tb-1', 'idle');
    approvals.emit('message', opened('tb-1', 'dialog', 'ap-offer'));
    status.states.set('tb-1', 'needs-input');
    approvals.emit('message', resolved('tb-1', 'ap-offer'));
    expect(status.applied).toEqual([
      ['tb-1', 'approval-open'],
      ['tb-1', 'dialog-closed'],
    ]);
    expect(status.events[1]).toMatchObject({ kind: 'dialog-closed', state: 'idle' });
  });

  it('leaves the wait to the hooks for a permission, for a dialog seen while the session already waited, and while another approval is open', () => {
    const { status, approvals } = world();
    status.known.add('tb-1');
    status.states.set('tb-1', 'busy');
    approvals.emit('message', opened('tb-1', 'permission', 'ap-perm'));
    approvals.emit('message', resolved('tb-1', 'ap-perm'));
    status.states.set('tb-1', 'needs-input');
    approvals.emit('message', opened('tb-1', 'dialog', 'ap-again'));
    approvals.emit('message', resolved('tb-1', 'ap-again'));
    status.states.set('tb-1', 'idle');
    approvals.emit('message', opened('tb-1', 'dialog', 'ap-first'));
    approvals.open.push({ id: 'ap-second', tabId: 'tb-1', kind: 'permission' } as Approval);
    approvals.emit('message', resolved('tb-1', 'ap-first'));
    expect(status.applied.map(([, kind]) => kind)).toEqual(['approval-open', 'approval-open', 'approval-open']);
  });

  it('once disposed, joins nothing', async () => {
    const { status, approvals, rule } = world();
    status.known.add('tb-1');
    await rule.dispose();
    status.emit('effect', 'tb-1', { kind: 'permission-settled', reason: 'claude-gone' });
    approvals.emit('message', opened('tb-1'));
    expect(approvals.settled).toEqual([]);
    expect(status.applied).toEqual([]);
  });
});
