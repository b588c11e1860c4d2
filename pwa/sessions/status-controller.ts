import type { ReactiveControllerHost } from 'lit';
import { type Approval, type ApprovalResolution, isUnreadScreen } from '../../protocol/approvals.js';
import type { StatusClientMessage } from '../../protocol/status-client.js';
import { StatusServerMessage, type TabStatus } from '../../protocol/status.js';
import { CHANNEL_PATHS } from '../core/api.js';
import { FollowingCards } from '../core/following-cards.js';
import { JsonChannelController } from '../core/json-channel-controller.js';
import { RecentIds, syncedApprovals, withOpened, withoutApproval } from '../core/open-approvals.js';
import { PresenceReporter, presenceOf } from './presence.js';

/**
 * Keeps every tab's Claude status and every open approval live from `/api/status`: a full
 * sync on connect, then updates. Reconnects with backoff, and asks for a fresh sync whenever the page comes back
 * into view, so a phone woken from sleep never shows a stale badge. Tells the agent which tab
 * the person looks at (`status:presence`), so this device is not pushed about it.
 */
export class StatusController extends JsonChannelController<StatusServerMessage> {
  /** Replaced (never mutated) on every change, so elements given it see a new value. */
  statuses: Readonly<Record<string, TabStatus>> = {};
  /** What Claude asks the person, oldest first; replaced the same way. */
  approvals: readonly Approval[] = [];
  loaded = false;
  /** Unread screens answered by a key, whose cards wait in place for the screen that follows. */
  private readonly following: FollowingCards;

  /** Approvals settled while this socket was open, so a crossing sync cannot bring one back. */
  private readonly resolved = new RecentIds();

  /** True once the current socket delivered its first sync. */
  private synced = false;
  /** The tab on screen, and whether its opening was already acted on. */
  private viewing: { tabId: string; handled: boolean } | null = null;

  private readonly presence = new PresenceReporter(presenceOf(null, 'hidden', false), (msg) => this.send(msg));
  /** Visibility, focus and blur all move what the person looks at. */
  private readonly onPresenceChange = () => this.updatePresence();

  /**
   * `onResolved` hears of every approval settled while it was shown here, with how it was
   * settled, before its card leaves: a decision the person did not make (a guardrail's) is
   * told on its card.
   */
  constructor(
    host: ReactiveControllerHost,
    private readonly onResolved: (approval: Approval, resolution: ApprovalResolution) => void = () => undefined,
  ) {
    super(host, {
      path: CHANNEL_PATHS.status,
      name: 'status',
      schema: StatusServerMessage,
      requestFullState: JSON.stringify({ type: 'status:request-sync' } satisfies StatusClientMessage),
    });
    this.following = new FollowingCards(() => host.requestUpdate());
  }

  /** The cards of unread screens answered a moment ago, waiting for the screen that follows. */
  get waitingToFollow(): readonly Approval[] {
    return this.following.list;
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.onPresenceChange);
    window.addEventListener('focus', this.onPresenceChange);
    window.addEventListener('blur', this.onPresenceChange);
    this.updatePresence();
  }

  override hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.onPresenceChange);
    window.removeEventListener('focus', this.onPresenceChange);
    window.removeEventListener('blur', this.onPresenceChange);
    this.following.clear();
    super.hostDisconnected();
  }

  get(tabId: string): TabStatus | undefined {
    return this.statuses[tabId];
  }

  /**
   * The person opened a tab (or left every tab, with null). Opening a tab that is ready for
   * review means they have seen the result; if its status is not known yet (the page was
   * loaded on that tab), that is decided when the sync arrives.
   */
  setViewing(tabId: string | null): void {
    if (tabId === this.viewing?.tabId) return;
    this.viewing = tabId === null ? null : { tabId, handled: false };
    this.settleViewing();
    this.updatePresence();
  }

  /**
   * An approval this device settled (or learnt was settled) by its own request: its card
   * leaves at once, before the agent's broadcast arrives. An unread screen answered by a key
   * (`answeredByKey`) waits in its place for the screen that follows, instead.
   */
  forgetApproval(id: string, answeredByKey = false): void {
    this.resolved.add(id);
    const shown = this.approvals.find((a) => a.id === id);
    if (shown && answeredByKey && isUnreadScreen(shown)) this.following.hold(shown);
    const next = withoutApproval(this.approvals, id);
    if (next === this.approvals) return;
    this.approvals = next;
    this.host.requestUpdate();
  }

  /** The person has seen a finished turn (the inbox's "Done"), as opening the tab would say. */
  dismiss(tabId: string): boolean {
    if (this.statuses[tabId]?.state !== 'ready-for-review') return true;
    return this.send({ type: 'status:tab-dismissed', tabId });
  }

  private updatePresence(): void {
    this.presence.update(presenceOf(this.viewing?.tabId ?? null, document.visibilityState, document.hasFocus()));
  }

  private settleViewing(): void {
    const v = this.viewing;
    if (!v || v.handled || !this.synced || !this.live.isOpen) return;
    v.handled = true;
    if (this.statuses[v.tabId]?.state === 'ready-for-review') this.send({ type: 'status:tab-dismissed', tabId: v.tabId });
  }

  protected connecting(): void {
    this.synced = false;
    // A new socket's first sync is the agent's word on what is open.
    this.resolved.clear();
    this.presence.reset();
  }

  protected receive(msg: StatusServerMessage): void {
    switch (msg.type) {
      case 'status:sync': {
        const next: Record<string, TabStatus> = {};
        for (const [key, status] of Object.entries(msg.tabs)) {
          const shown = this.statuses[key];
          // A sync answered on a live socket can cross an update already shown; a new
          // socket's first sync is the agent's word and replaces everything.
          next[key] = this.synced && shown && shown.seq > status.seq ? shown : status;
        }
        this.statuses = next;
        this.approvals = syncedApprovals(msg.approvals, this.resolved.set);
        this.following.followedBy(this.approvals);
        this.synced = true;
        this.loaded = true;
        this.settleViewing();
        // Every sync, not only a new socket's first: cheap (sent only if changed), and a sync
        // answered after waking is where a page that slept learns its focus again.
        this.updatePresence();
        this.presence.synced();
        this.host.requestUpdate();
        return;
      }
      case 'status:update': {
        const shown = this.statuses[msg.tabId];
        // seq counts hook events only; a dismissal or a recovery moves the state at the same
        // seq, so only a strictly older update is stale.
        if (shown && msg.status.seq < shown.seq) return;
        this.statuses = { ...this.statuses, [msg.tabId]: msg.status };
        this.host.requestUpdate();
        return;
      }
      case 'status:removed': {
        if (!(msg.tabId in this.statuses)) return;
        const { [msg.tabId]: _gone, ...rest } = this.statuses;
        this.statuses = rest;
        this.host.requestUpdate();
        return;
      }
      case 'status:error':
        console.warn('pocketmux: the status channel refused a message:', msg.message);
        return;
      case 'status:hook-event':
        return;
      case 'approval-opened': {
        this.following.followedBy([msg.approval]);
        const next = withOpened(this.approvals, msg.approval, this.resolved.set);
        if (next === this.approvals) return;
        this.approvals = next;
        this.host.requestUpdate();
        return;
      }
      case 'approval-resolved': {
        const shown = this.approvals.find((a) => a.id === msg.resolution.id);
        if (shown) this.onResolved(shown, msg.resolution);
        this.forgetApproval(msg.resolution.id, msg.resolution.outcome === 'answered');
        return;
      }
    }
  }

  private send(msg: StatusClientMessage): boolean {
    return this.live.send(JSON.stringify(msg));
  }
}
