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
  approvals: Pick<ApprovalStore, 'add' | 'get' | 'forTab' | 'settle' | 'settleTab' | 'settleTool'>;
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
   * answered by keys), and a tool input nested too deep is left to the terminal. With
   * `drawnOnRelease`, the CLI draws its dialog only once its hook is let go (Codex): the
   * request is handed to the terminal when one opens on the session (`terminalOpened`).
   */
  hold(key: string, payload: PermissionRequestPayload, held: HeldHook, drawnOnRelease?: boolean): Approval | null;
  /**
   * The request is left to the CLI's own dialog, its hook already answered with no decision
   * (someone has the terminal open, and the CLI draws no dialog while its hook waits): once the
   * dialog is drawn it is offered as a card answered by its keys.
   */
  showOnScreen(key: string, payload: PermissionRequestPayload): void;
  /**
   * Someone opened the session's terminal. A request held from a CLI that draws its dialog
   * only once its hook is let go would leave that terminal showing nothing to answer: each is
   * let go (`moved-to-terminal`), and its dialog, now drawn, becomes the card answered by keys,
   * not pushed again (someone is at the terminal; the first push is closed by the settling).
   */
  terminalOpened(key: string): void;
  /** Claude closed the held hook's request: it stopped waiting, so the person answered in the terminal. */
  hookClosed(approvalId: string): void;
}

export function hookApprovals({ approvals, status, outside, dialogs, guardrailOf, minuteMs, log }: HookApprovalsDeps): HookApprovals {
  /**
   * The held requests a terminal's opening hands over, by approval id. Entries of approvals
   * settled since are dropped at each hold, so this never outgrows the store's open approvals.
   */
  const drawnOnRelease = new Map<string, { key: string; payload: PermissionRequestPayload }>();
  const prune = () => {
    for (const id of drawnOnRelease.keys()) if (!approvals.get(id)) drawnOnRelease.delete(id);
  };
  const offerDialog = (key: string, payload: PermissionRequestPayload, quiet: boolean) => {
    const request = approvalRequest(key, payload);
    if (request === null) {
      log.warn('a permission request nested too deep to offer; it is left to the terminal', { key, tool: payload.tool_name.slice(0, 200) });
      return;
    }
    void dialogs.offer({ ...request, kind: 'dialog' }, { quiet });
  };
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
    hold(key, payload, held, drawn = false) {
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
      else if (drawn) {
        prune();
        drawnOnRelease.set(approval.id, { key, payload });
      }
      return approval;
    },
    showOnScreen(key, payload) {
      offerDialog(key, payload, false);
    },
    terminalOpened(key) {
      for (const [id, held] of [...drawnOnRelease]) {
        if (held.key !== key) continue;
        drawnOnRelease.delete(id);
        if (!approvals.get(id)) continue;
        approvals.settle(id, 'moved-to-terminal', { kind: 'terminal', name: null });
        offerDialog(key, held.payload, true);
      }
    },
    hookClosed(approvalId) {
      approvals.settle(approvalId, 'answered-in-terminal', { kind: 'terminal', name: null });
    },
  };
}
