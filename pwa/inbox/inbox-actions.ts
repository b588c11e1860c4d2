import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DecisionBody } from '../../protocol/api.js';
import { type Approval, NOT_CARRIED_OUT } from '../../protocol/approvals.js';
import { actionsOf } from '../core/action-request.js';
import { ApiRequestError } from '../core/api-request.js';
import * as api from '../core/api.js';
import { phoneContext } from '../core/phone-context.js';
import { sessionRoutes } from '../core/session-routes.js';
import { type SettlingApproval, withKept } from '../core/inbox-items.js';

/** What the inbox's cards ask of the page. */
export type InboxActionMap = {
  'pm-approval-decide': { detail: { approval: Approval; body: DecisionBody }; result: undefined };
  /** `tabId` is a tab's id or an outside session's key: the reply goes to that one's pane. */
  'pm-tab-reply': { detail: { tabId: string; text: string }; result: undefined };
  'pm-tab-dismiss': { detail: { tabId: string }; result: undefined };
  /** A card kept to say what was decided for the person (a guardrail's denial), put away. */
  'pm-settled-dismiss': { detail: { approvalId: string }; result: undefined };
};

export const inboxActions = actionsOf<InboxActionMap>();

/** How long a card settled elsewhere stays to say so. */
export const SETTLED_NOTE_MS = 2_500;
/** How many decided-for-you cards stay until put away; past it the oldest goes. */
export const KEPT_NOTES_MAX = 20;

/** What the page's live state does for the inbox. */
export interface InboxState {
  /**
   * An approval this device saw settled: its card leaves every screen now, or, for an unread
   * screen answered by a key (`answeredByKey`), waits in place for the screen that follows.
   */
  forgetApproval(id: string, answeredByKey?: boolean): void;
  /** Tells the agent the person saw a finished turn; false when it could not be said now. */
  dismiss(tabId: string): boolean;
}

/** "already approved by Pixel 8" as a sentence. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Types a reply into the session's pane: a tab's through the tabs, a Claude started outside
 * pocketmux through its own tmux (the agent refuses, saying why, when it has none).
 */
function reply(key: string, text: string): Promise<undefined> {
  return sessionRoutes(key).input({ text, enter: true, ...phoneContext() });
}

/**
 * Carries out, through the API client and the status channel, what the cards inside its host
 * ask: decisions on approvals, replies to finished turns, "Done". The agent's answer comes
 * back on the status channel; a decision's own answer is applied at once so the card leaves
 * without waiting for it.
 */
export class InboxActionsController implements ReactiveController {
  /** Cards settled by someone else just as this device answered, shown a moment with a note. */
  settling: readonly SettlingApproval[] = [];

  private stops: (() => void)[] = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    private readonly state: InboxState,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    const on = this.host;
    this.stops = [
      inboxActions.answer(on, 'pm-approval-decide', ({ approval, body }) => this.decide(approval, body)),
      inboxActions.answer(on, 'pm-tab-reply', async ({ tabId, text }) => reply(tabId, text)),
      inboxActions.answer(on, 'pm-tab-dismiss', async ({ tabId }) => {
        if (!this.state.dismiss(tabId)) throw new Error('Not connected to the agent right now. Try again in a moment.');
        return undefined;
      }),
      inboxActions.answer(on, 'pm-settled-dismiss', async ({ approvalId }) => {
        this.forgetSettled(approvalId);
        return undefined;
      }),
    ];
  }

  hostDisconnected(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.settling = [];
  }

  private async decide(approval: Approval, body: DecisionBody): Promise<undefined> {
    try {
      await api.decideApproval(approval.id, body);
    } catch (err) {
      // Someone else answered first: say who, briefly, then let the card go. A block's answer
      // that could not be carried out now leaves it open, saying why.
      if (err instanceof ApiRequestError && err.status === 409 && err.code !== NOT_CARRIED_OUT) {
        this.showSettled(approval, sentence(err.message));
        this.state.forgetApproval(approval.id);
        return undefined;
      }
      throw err;
    }
    this.state.forgetApproval(approval.id, body.decision === 'answer');
    return undefined;
  }

  /**
   * A decision made for the person while nobody answered (a guardrail's): its card stays, with
   * `note`, until put away, so one coming back to the phone sees what was decided.
   */
  keepSettled(approval: Approval, note: string): void {
    this.settling = withKept(this.settling, approval, note, KEPT_NOTES_MAX);
    this.host.requestUpdate();
  }

  private forgetSettled(id: string): void {
    this.settling = this.settling.filter((s) => s.approval.id !== id);
    this.host.requestUpdate();
  }

  private showSettled(approval: Approval, note: string): void {
    this.settling = [...this.settling.filter((s) => s.approval.id !== approval.id), { approval, note }];
    this.host.requestUpdate();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.forgetSettled(approval.id);
    }, SETTLED_NOTE_MS);
    this.timers.add(timer);
  }
}
