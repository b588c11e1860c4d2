import { type ApprovalServerMessage, claudeWaitsOn } from '../../protocol/approvals.js';
import type { ClaudeState } from '../../protocol/status.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { StatusEffect } from '../status/reducer.js';
import type { StatusManager } from '../status/status-manager.js';
import { type Disposable, toDisposable } from '../util/disposable.js';
import type { Listenable } from '../util/listenable.js';

export interface ApprovalSettlementDeps {
  status: Pick<StatusManager, 'get' | 'apply'> & Listenable<{ effect: [string, StatusEffect] }>;
  approvals: Pick<ApprovalStore, 'settleTab' | 'forTab'> & Listenable<{ message: [ApprovalServerMessage] }>;
}

/**
 * The status and the approvals keep each other true. Claude moved on without a hook saying so
 * (Esc in a dialog, claude gone): nothing it asked in that session waits any more. A dialog
 * read off the screen is a wait the hooks did not report (a startup offer, a notice, a dialog
 * seen after a restart): its session needs the person while it is up, and is back where it
 * was once it has gone with nothing open, since no hook says so.
 */
export function settleApprovalsWithStatus({ status, approvals }: ApprovalSettlementDeps): Disposable {
  /** The state each open dialog's tab was in before the dialog made it wait. */
  const before = new Map<string, { tabId: string; state: ClaudeState }>();
  const onEffect = (key: string, effect: StatusEffect) => {
    if (effect.kind !== 'permission-settled') return;
    if (effect.reason === 'claude-gone' || effect.reason === 'session-ended') approvals.settleTab(key, 'claude-exited');
    else if (effect.reason === 'turn-ended') approvals.settleTab(key, 'answered-in-terminal');
  };
  const onApproval = (msg: ApprovalServerMessage) => {
    if (msg.type === 'approval-opened') {
      const { approval } = msg;
      const current = status.get(approval.tabId);
      // A block tells what Claude did not do; it went on, and its state with it.
      if (!current || !claudeWaitsOn(approval.kind)) return;
      if (approval.kind === 'dialog' && current.state !== 'needs-input') before.set(approval.id, { tabId: approval.tabId, state: current.state });
      status.apply(approval.tabId, { kind: 'approval-open', at: Date.now() });
      return;
    }
    const waited = before.get(msg.resolution.id);
    if (!waited) return;
    before.delete(msg.resolution.id);
    if (approvals.forTab(waited.tabId).length > 0 || !status.get(waited.tabId)) return;
    status.apply(waited.tabId, { kind: 'dialog-closed', state: waited.state, at: Date.now() });
  };
  status.on('effect', onEffect);
  approvals.on('message', onApproval);
  return toDisposable(() => {
    status.off('effect', onEffect);
    approvals.off('message', onApproval);
  });
}
