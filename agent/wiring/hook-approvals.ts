import type { Guardrail } from '../../protocol/api.js';
import { durationText } from '../../protocol/duration-text.js';
import type { HookPayload } from '../../protocol/hooks.js';
import type { Approval } from '../../protocol/approvals.js';
import type { ApprovalStore, HeldHook } from '../approvals/approval-store.js';
import { approvalRequest, blockRequest, type PermissionRequestPayload, settleFromHook } from '../approvals/from-hooks.js';
import type { PaneDialogs } from '../approvals/pane-dialogs.js';
import type { OutsideSessions } from '../outside/outside-sessions.js';
import type { StatusManager } from '../status/status-manager.js';
import type { WorkspaceStore } from '../store/workspace-store.js';
import type { Logger } from '../util/log.js';

export interface HookApprovalsDeps {
  approvals: Pick<ApprovalStore, 'add' | 'forTab' | 'settle' | 'settleTab' | 'settleTool'>;
  status: Pick<StatusManager, 'apply'>;
  outside: Pick<OutsideSessions, 'forget'>;
  dialogs: Pick<PaneDialogs, 'offer'>;
  /** The guardrail of the workspace a session's tab is in; null for none, and for a session outside the tabs. */
  guardrailOf: (key: string) => Guardrail | null;
  /** What a guardrail's minute lasts (a minute; shorter only in tests). */
  minuteMs: number;
  log: Pick<Logger, 'warn'>;
}

/** The guardrail of the workspace a tab is in; null for a key that is no tab (an outside session). */
export function guardrailOfTab(store: Pick<WorkspaceStore, 'tab' | 'workspace'>, key: string): Guardrail | null {
  const tab = store.tab(key);
  return (tab && store.workspace(tab.workspaceId)?.guardrail) ?? null;
}

/** What Claude is told when a guardrail denies: why, in words it can act on. */
export function guardrailMessage(guardrail: Guardrail): string {
  return `No answer from the phone within ${durationText(guardrail.afterMinutes * 60)}: denied by the workspace's guardrail. Go on without it, or ask again later.`;
}

/** What Claude's hooks do to the approvals, beyond the status every event goes to. */
export interface HookApprovals {
  /**
   * An event that is not a PermissionRequest: the approvals it shows Claude no longer waits on
   * are settled; an outside session's SessionEnd lets the session go (its claude exited, or
   * /clear goes on under a new id), and a session still waiting stays in needs-input. A
   * PermissionDenied (auto mode blocked a call) is offered as a block, pushed like a question.
   */
  afterEvent(key: string, fromTab: boolean, payload: HookPayload): void;
  /**
   * A PermissionRequest: the approval it opens, holding `held` until it is settled, or null
   * when `held` was let go at once: a plan's dialog does not obey the hook (it is offered to be
   * answered by keys), and a tool input nested too deep is left to the terminal.
   */
  hold(key: string, payload: PermissionRequestPayload, held: HeldHook): Approval | null;
  /**
   * The request is left to the CLI's own dialog, its hook already answered with no decision
   * (someone has the terminal open, and the CLI draws no dialog while its hook waits): once the
   * dialog is drawn it is offered as a card answered by its keys.
   */
  showOnScreen(key: string, payload: PermissionRequestPayload): void;
  /** Claude closed the held hook's request: it stopped waiting, so the person answered in the terminal. */
  hookClosed(approvalId: string): void;
}

export function hookApprovals({ approvals, status, outside, dialogs, guardrailOf, minuteMs, log }: HookApprovalsDeps): HookApprovals {
  return {
    afterEvent(key, fromTab, payload) {
      settleFromHook(approvals, key, payload);
      if (payload.hook_event_name === 'PermissionDenied') {
        const request = blockRequest(key, payload);
        if (request) approvals.add(request, null);
        else log.warn('a blocked call nested too deep to offer', { key, tool: payload.tool_name.slice(0, 200) });
      }
      if (!fromTab && payload.hook_event_name === 'SessionEnd') outside.forget(key, 'session-ended');
      else if (approvals.forTab(key).length > 0) status.apply(key, { kind: 'approval-open', at: Date.now() });
    },
    hold(key, payload, held) {
      const request = approvalRequest(key, payload);
      if (request === null) {
        log.warn('a permission request nested too deep to offer; it is left to the terminal', { key, tool: payload.tool_name.slice(0, 200) });
        held.reply(null);
        return null;
      }
      if (request.kind === 'plan') {
        held.reply(null);
        void dialogs.offer(request);
        return null;
      }
      const guardrail = guardrailOf(key);
      const denyAfter = guardrail ? { ms: guardrail.afterMinutes * minuteMs, message: guardrailMessage(guardrail) } : null;
      const approval = approvals.add(request, held, { denyAfter });
      if (!approval) held.reply(null);
      return approval;
    },
    showOnScreen(key, payload) {
      const request = approvalRequest(key, payload);
      if (request === null) {
        log.warn('a permission request nested too deep to offer; it is left to the terminal', { key, tool: payload.tool_name.slice(0, 200) });
        return;
      }
      void dialogs.offer({ ...request, kind: 'dialog' });
    },
    hookClosed(approvalId) {
      approvals.settle(approvalId, 'answered-in-terminal', { kind: 'terminal', name: null });
    },
  };
}
