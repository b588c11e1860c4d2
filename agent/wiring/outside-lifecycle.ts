import type { StatusServerMessage } from '../../protocol/status.js';
import { parseSessionKey } from '../../protocol/session-key.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { ForgetReason, OutsideSession, OutsideSessions } from '../outside/outside-sessions.js';
import type { StatusManager } from '../status/status-manager.js';
import { type Disposable, toDisposable } from '../util/disposable.js';
import type { Listenable } from '../util/listenable.js';
import type { Logger } from '../util/log.js';

export interface OutsideLifecycleDeps {
  outside: Pick<OutsideSessions, 'has' | 'forget' | 'sweep'> & Listenable<{ forgotten: [OutsideSession, ForgetReason] }>;
  status: Pick<StatusManager, 'snapshot' | 'forget'> & Listenable<{ message: [StatusServerMessage] }>;
  approvals: Pick<ApprovalStore, 'settleTab'>;
  log: Pick<Logger, 'warn'>;
  /** How often the sessions are looked through for a claude that has ended. */
  sweepMs: number;
}

/**
 * An outside session is kept while its claude runs. Once it is forgotten, nothing it asked
 * waits any more and its status goes; a status the cap let go takes the session with it; a
 * status of a session the agent no longer knows (from before its file) goes at start.
 */
export function outsideLifecycle({ outside, status, approvals, log, sweepMs }: OutsideLifecycleDeps): Disposable {
  for (const key of Object.keys(status.snapshot())) if (parseSessionKey(key).kind === 'outside' && !outside.has(key)) status.forget(key);
  const onForgotten = (session: OutsideSession, _reason: ForgetReason) => {
    approvals.settleTab(session.key, 'claude-exited');
    status.forget(session.key);
  };
  const onStatus = (msg: StatusServerMessage) => {
    if (msg.type === 'status:removed' && parseSessionKey(msg.tabId).kind === 'outside') outside.forget(msg.tabId, 'status-dropped');
  };
  outside.on('forgotten', onForgotten);
  status.on('message', onStatus);
  const sweep = setInterval(() => void outside.sweep().catch((err: Error) => log.warn('outside sessions check failed', { error: err.message })), sweepMs);
  sweep.unref();
  return toDisposable(() => {
    clearInterval(sweep);
    outside.off('forgotten', onForgotten);
    status.off('message', onStatus);
  });
}
