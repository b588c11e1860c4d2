import type { ApprovalServerMessage } from '../../protocol/approvals.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { StatusEffect } from '../status/reducer.js';
import type { StatusManager } from '../status/status-manager.js';
import { type Disposable, toDisposable } from '../util/disposable.js';
import type { Listenable } from '../util/listenable.js';

export interface ApprovalSettlementDeps {
  status: Pick<StatusManager, 'get' | 'apply'> & Listenable<{ effect: [string, StatusEffect] }>;
  approvals: Pick<ApprovalStore, 'settleTab'> & Listenable<{ message: [ApprovalServerMessage] }>;
}

/**
 * The status and the approvals keep each other true. Claude moved on without a hook saying so
 * (Esc in a dialog, claude gone): nothing it asked in that session waits any more. A dialog
 * read off the screen is a wait the hooks did not report (after a restart, say): its session
 * needs the person.
 */
export function settleApprovalsWithStatus({ status, approvals }: ApprovalSettlementDeps): Disposable {
  const onEffect = (key: string, effect: StatusEffect) => {
    if (effect.kind !== 'permission-settled') return;
    if (effect.reason === 'claude-gone' || effect.reason === 'session-ended') approvals.settleTab(key, 'claude-exited');
    else if (effect.reason === 'turn-ended') approvals.settleTab(key, 'answered-in-terminal');
  };
  const onApproval = (msg: ApprovalServerMessage) => {
    if (msg.type === 'approval-opened' && status.get(msg.approval.tabId)) status.apply(msg.approval.tabId, { kind: 'approval-open', at: Date.now() });
  };
  status.on('effect', onEffect);
  approvals.on('message', onApproval);
  return toDisposable(() => {
    status.off('effect', onEffect);
    approvals.off('message', onApproval);
  });
}
