import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { StatusEffect, StatusEvent } from '../../../../agent/status/reducer.js';
import { settleApprovalsWithStatus } from '../../../../agent/wiring/approval-settlement.js';
import type { Approval, ApprovalServerMessage } from '../../../../protocol/approvals.js';

class FakeStatus extends EventEmitter<{ effect: [string, StatusEffect] }> {
  readonly known = new Set<string>();
  readonly applied: [string, StatusEvent['kind']][] = [];
  get(key: string) {
    return this.known.has(key) ? ({} as never) : undefined;
  }
  apply(key: string, event: StatusEvent) {
    this.applied.push([key, event.kind]);
    return {} as never;
  }
}

class FakeApprovals extends EventEmitter<{ message: [ApprovalServerMessage] }> {
  readonly settled: [string, string][] = [];
  settleTab(key: string, outcome: 'answered-in-terminal' | 'claude-exited'): void {
    this.settled.push([key, outcome]);
  }
}

function world() {
  const status = new FakeStatus();
  const approvals = new FakeApprovals();
  const rule = settleApprovalsWithStatus({ status, approvals });
  return { status, approvals, rule };
}

const opened = (tabId: string): ApprovalServerMessage => ({ type: 'approval-opened', approval: { tabId } as Approval });

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
