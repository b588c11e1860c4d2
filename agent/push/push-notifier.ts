import type { ChangesTotal } from '../../protocol/changes-summary.js';
import type { Approval, ApprovalServerMessage } from '../../protocol/approvals.js';
import type { PushPayload, PushSettings } from '../../protocol/push.js';
import type { StatusServerMessage } from '../../protocol/status.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { StatusEffect } from '../status/reducer.js';
import type { StatusManager } from '../status/status-manager.js';
import type { Logger } from '../util/log.js';
import type { Presence } from './presence.js';
import { approvalPush, closePush, needsInputPush, reviewPush, type TabPlace, tabTag, testPush } from './push-payloads.js';
import type { PushSender } from './push-sender.js';
import type { PushSubscriptions } from './push-subscriptions.js';

/** How long a push service keeps a notification for a device that is offline. */
const TTL_S = { approval: 600, tab: 3_600, close: 600 } as const;

/** Tags pushed and not yet closed, remembered at most: approvals and tabs are bounded, so this is a backstop. */
const MAX_OPEN_TAGS = 2_000;

export interface PushNotifierDeps {
  subscriptions: PushSubscriptions;
  sender: PushSender;
  approvals: ApprovalStore;
  status: StatusManager;
  presence: Presence;
  /** The tab's and workspace's names, for the notification's text; null for a session outside the tabs. */
  place: (tabId: string) => TabPlace | null;
  /** What the turn that just ended changed, once compared (at most a moment later); null for nothing known. */
  turnTotal?: (tabId: string) => Promise<ChangesTotal | null>;
  log: Logger;
}

/**
 * Decides who is pushed what. An approval opened (from a live hook) is pushed with its buttons;
 * a tab that needs the person with nothing to approve, and a tab ready for review, are pushed
 * too; each to the devices that chose it, except one looking at that tab right now. When the
 * thing is settled or the tab moves on, every device that was told gets a `close` for the same
 * tag, so a notification answered on the laptop leaves the phone. Restart recovery never
 * reaches here: the reducer gives no `notify` for it. A dialog read off the screen is pushed
 * like a question, unless it was offered quietly: seen again after a restart (or after its
 * approval expired), announced before; or following from an answer the person just gave.
 */
export class PushNotifier {
  /** Who was shown each tag that is still showing. */
  private readonly shown = new Map<string, Set<string>>();

  private readonly onApproval = (msg: ApprovalServerMessage) => {
    if (msg.type === 'approval-opened') {
      const { approval } = msg;
      if (!approval.quiet) this.announceApproval(approval);
    } else this.close(msg.resolution.id);
  };

  private readonly onEffect = (tabId: string, effect: StatusEffect) => {
    if (effect.kind !== 'notify') return;
    if (effect.state === 'ready-for-review') {
      // The Stop that brought this starts the turn's compare right after: look once it had the
      // chance, and say what the turn changed when it is known in time.
      queueMicrotask(() => {
        void (this.deps.turnTotal?.(tabId) ?? Promise.resolve(null)).then((total) => {
          const status = this.deps.status.get(tabId);
          // A new prompt came meanwhile: this turn's review is no longer what waits.
          if (status?.state === 'ready-for-review') this.announceReview(tabId, status.lastMessage, total);
        });
      });
      return;
    }
    // A PermissionRequest opens its approval right after this effect: look once it had the chance.
    queueMicrotask(() => {
      if (this.deps.approvals.forTab(tabId).length === 0 && this.deps.status.get(tabId)?.state === 'needs-input') this.announceNeedsInput(tabId);
    });
  };

  private readonly onStatus = (msg: StatusServerMessage) => {
    if (msg.type === 'status:removed') this.close(tabTag(msg.tabId));
    else if (msg.type === 'status:update' && msg.status.state !== 'needs-input' && msg.status.state !== 'ready-for-review') this.close(tabTag(msg.tabId));
  };

  constructor(private readonly deps: PushNotifierDeps) {
    deps.approvals.on('message', this.onApproval);
    deps.status.on('effect', this.onEffect);
    deps.status.on('message', this.onStatus);
  }

  /**
   * The pushes themselves, each to every device that chose its kind and is not looking at the
   * session. This agent's own are decided above; a linked machine's by MachinePushes, under
   * the keys the home agent gives them.
   */
  announceApproval(approval: Approval): void {
    this.show('approvals', approval.tabId, () => approvalPush(approval, this.deps.place(approval.tabId)), TTL_S.approval);
  }

  announceNeedsInput(tabId: string): void {
    this.show('needsInput', tabId, () => needsInputPush(tabId, this.deps.place(tabId)), TTL_S.tab);
  }

  announceReview(tabId: string, lastMessage: string | null, total: ChangesTotal | null): void {
    this.show('review', tabId, () => reviewPush(tabId, this.deps.place(tabId), lastMessage, total), TTL_S.tab);
  }

  /** Every device that was shown `tag` is told to close it. */
  close(tag: string): void {
    const told = this.shown.get(tag);
    if (!told) return;
    this.shown.delete(tag);
    for (const deviceId of told) {
      const subscription = this.deps.subscriptions.get(deviceId).subscription;
      if (subscription) this.deps.sender.send(subscription, closePush(tag), TTL_S.close);
    }
  }

  /** `POST /api/push/test`: one notification to the asking device. */
  test(deviceId: string): boolean {
    const subscription = this.deps.subscriptions.get(deviceId).subscription;
    if (!subscription) return false;
    this.deps.sender.send(subscription, testPush(), 60);
    return true;
  }

  dispose(): void {
    this.deps.approvals.off('message', this.onApproval);
    this.deps.status.off('effect', this.onEffect);
    this.deps.status.off('message', this.onStatus);
  }

  /**
   * Sends to every device that wants `what` and is not looking at the tab. The payload is made
   * only once one does: a turn ends on every Stop, and with nobody subscribed a busy agent
   * spent a noticeable share of its hook handling shaping notifications no one would get.
   */
  private show(what: keyof PushSettings, tabId: string, build: () => PushPayload, ttl: number): void {
    const told = new Set<string>();
    let payload: PushPayload | null = null;
    for (const [deviceId, entry] of this.deps.subscriptions.subscribed()) {
      if (!entry.settings[what] || this.deps.presence.isViewing(deviceId, tabId)) continue;
      payload ??= build();
      this.deps.sender.send(entry.subscription, payload, ttl);
      told.add(deviceId);
    }
    if (told.size === 0 || payload?.kind !== 'show') return;
    this.shown.delete(payload.tag);
    this.shown.set(payload.tag, told);
    if (this.shown.size > MAX_OPEN_TAGS) {
      const oldest = this.shown.keys().next().value;
      if (oldest !== undefined) this.shown.delete(oldest);
    }
    this.deps.log.debug('pushed', { tag: payload.tag, devices: told.size });
  }
}
