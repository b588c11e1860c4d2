import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { type Access, lostReason, onAccessLost, resolveAccess, takePairSecret } from '../core/access.js';
import { errorText } from '../core/api-request.js';
import { SHOW_DIALOG_EVENT } from '../core/dialog-shown.js';
import { DIALOG_SHOWN_ERROR } from '../../protocol/approvals.js';
import { Backoff } from '../core/backoff.js';
import { type Route, RouteController, router } from '../core/router.js';
import type { ConnectionKind } from '../core/reconnecting-socket.js';
import { SessionActionsController } from '../core/session-actions.js';
import { StatusController } from '../sessions/status-controller.js';
import { SyncController } from '../sessions/sync-controller.js';
import { InboxActionsController } from '../inbox/inbox-actions.js';
import { SHOW_INBOX_EVENT } from '../inbox/inbox-bell.js';
import { ANSWERED_NOTE, approvalLink, HIGHLIGHT_MS, LINK_NOTE_MS, linkOutcome, withoutApprovalLink } from './deep-link.js';
import { DISMISS_NOTE_EVENT } from '../inbox/inbox-section.js';
import { buildInbox, countFromStatuses, EMPTY_INBOX, type Inbox, inboxCount } from '../core/inbox-items.js';
import { guardrailNote, guardrailOfTab, isGuardrailDecision } from '../core/guardrail.js';
import '../inbox/inbox-bell.js';
import '../inbox/inbox-section.js';
import { MediaQueryController } from '../core/media-query-controller.js';
import { followThemeChoice } from '../ui/theme-choice.js';
import '../sessions/session-list.js';
import { pageTitle, SCREEN_NAME_EVENT } from '../terminal/page-title.js';
import './unreachable-screen.js';
import { offlineOr } from '../offline/offline-access.js';
import { OfflineSaveController } from '../core/offline-save-controller.js';
import { isAppShortcutKey } from '../workbench/shortcut-keys.js';

const EMPTY_SET: ReadonlySet<string> = new Set();

/** How long a refused prompt's dialog is waited for, when the agent has not offered its card yet. */
const DIALOG_CARD_WAIT_MS = 5_000;

/** A screen this wide opens tabs in the desktop split, with the list (and its inbox) beside them. */
const WIDE = '(min-width: 1100px)';

/**
 * The app shell: decides between pairing, the home screen (the inbox over the session list),
 * Settings and a tab.
 */
@customElement('pm-app')
export class App extends LitElement {
  private readonly routes = new RouteController(this);
  private readonly sync = new SyncController(this);
  private readonly status = new StatusController(this, (approval, resolution) => {
    // Denied while nobody answered: the card stays to say so, for the person coming back.
    if (isGuardrailDecision(resolution)) this.inboxActions.keepSettled(approval, guardrailNote(guardrailOfTab(this.sync.workspaces, approval.tabId)));
  });
  private readonly inboxActions = new InboxActionsController(this, {
    forgetApproval: (id, answeredByKey) => this.status.forgetApproval(id, answeredByKey),
    dismiss: (tabId) => this.status.dismiss(tabId),
  });
  private readonly wide = new MediaQueryController(this, WIDE);
  /** The live lists, kept on this device as they change, for the offline view. */
  private readonly offline = new OfflineSaveController(this, () =>
    this.access.kind === 'granted' && this.sync.loaded && this.status.loaded
      ? { home: this.access.session.home, workspaces: this.sync.workspaces, outside: this.sync.outside, statuses: this.status.statuses, approvals: this.status.approvals }
      : null,
  );

  @state() private access: Access = { kind: 'checking' };
  /** The approval a notification's link (`/?approval=<id>`) opened, ringed a moment. */
  @state() private highlight: string | null = null;
  /** Said at the top of the inbox when that approval was already answered. */
  @state() private linkNote = '';
  /** A link not followed yet: it waits for the agent's open approvals. */
  private pendingLink: string | null = approvalLink(location.search);
  private highlightTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * A session whose text was refused for the dialog it shows: that dialog's card is brought
   * into view once the inbox has it (it may be a poll away), or not at all after `until`.
   */
  private pendingDialog: { key: string; until: number } | null = null;
  private noteTimer: ReturnType<typeof setTimeout> | null = null;
  /** Settings is loaded on first visit; a failed load is said, not left blank. */
  @state() private settingsLoadError = '';
  /** The open tab's name, as its screen calls it: in the page title while that screen shows. */
  @state() private screenName = '';
  private readonly onScreenName = (e: CustomEvent<string>) => {
    this.screenName = e.detail;
  };
  private settingsRequested = false;
  /**
   * The tab screen (terminal and timeline) is its own chunk: the first screen is the list and
   * the inbox. It loads when a tab is opened, or once the list has shown and the page is idle.
   */
  @state() private terminalLoadError = '';
  /** The tab screen's code (with the shortcuts) once asked for; null again after it failed. */
  private tabScreen: Promise<void> | null = null;
  /** The tabs the desktop split shows (its `pm-panes` event): their cards need no way there. */
  @state() private paneTabs: ReadonlySet<string> = new Set();
  private stopShortcuts: (() => void) | null = null;
  /** The screen last drawn, to tell when the person moved to another one. */
  private shownRoute: Route['name'] | null = null;
  private listScroll = 0;
  /** A pairing secret the agent could not be asked about yet; it is unused, so retries keep it. */
  private pendingSecret: string | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly retryBackoff = new Backoff(1_000, 15_000);
  private stopListening: (() => void) | null = null;
  private stopTheme: (() => void) | null = null;
  private readonly onHashChange = () => {
    // Pasting a pairing URL into a tab that already shows the app changes only the fragment.
    const secret = takePairSecret();
    if (secret) void this.boot(secret);
  };
  private readonly onOnline = () => {
    if (this.access.kind === 'error' || this.access.kind === 'offline') void this.boot(this.pendingSecret);
  };
  /**
   * Any REST 401 or socket closed for a revoked device lands here. Stopping the live
   * channels here is what ends their reconnecting; the pair screen takes over.
   */
  private readonly onAccessLost = (reason: string | null) => {
    // Nothing of the sessions stays on a device that lost its access.
    this.offline.clear();
    if (this.access.kind !== 'granted') return;
    this.sync.stop();
    this.status.stop();
    const lost = lostReason(reason, true);
    this.access = { kind: 'unpaired', secret: null, lost };
    // A socket closed for revocation says no more than that: the agent's answer says why.
    if (lost === 'cut-off') void this.learnWhyLost();
  };
  /** The bell: home, from the top, wherever the person was. */
  private readonly onShowInbox = () => {
    if (this.access.kind !== 'granted') return;
    if (this.split) {
      // Beside the split the list is a sidebar: its top is where the inbox is.
      const sidebar = this.querySelector('pm-session-list');
      sidebar?.scrollTo({ top: 0 });
      const inbox = this.querySelector('pm-inbox');
      if (inbox && !inbox.hidden) {
        inbox.tabIndex = -1;
        inbox.focus();
      } else {
        // An empty inbox takes no room; the bell, which says nothing waits, answers the key instead.
        this.querySelector('pm-inbox-bell')?.focusButton();
      }
      return;
    }
    this.listScroll = 0;
    if (this.routes.route.name === 'list') window.scrollTo({ top: 0 });
    else router.toList();
  };
  private readonly onDismissNote = () => this.showLinkNote('');
  /** Text was refused for a dialog: its card, where it is answered. On a phone that is the home screen's inbox. */
  private readonly onShowDialog = (e: CustomEvent<string>) => {
    if (this.access.kind !== 'granted') return;
    this.pendingDialog = { key: e.detail, until: Date.now() + DIALOG_CARD_WAIT_MS };
    if (this.routes.route.name !== 'list' && !this.split) {
      // The prompt stays in the tab's composer; the note says why the screen changed.
      this.showLinkNote(`Not sent: ${DIALOG_SHOWN_ERROR}. Your prompt stays in the tab.`);
      router.toList();
    }
    this.followDialog();
  };
  private readonly onPaired = (e: CustomEvent<Access>) => {
    this.pendingSecret = null;
    this.access = e.detail;
    if (this.access.kind !== 'granted') return;
    router.replace('/');
    this.sync.start();
    this.status.start();
  };

  constructor() {
    super();
    // Registers itself on this element, where the list's cards and rows, and a tab's screen
    // (adopting the session it shows), ask for what they need.
    new SessionActionsController(this);
  }

  /** Light DOM: the terminal's host element must be reachable by xterm's document stylesheet. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHashChange);
    window.addEventListener('online', this.onOnline);
    window.addEventListener('keydown', this.onEarlyShortcut, true);
    this.addEventListener(SHOW_INBOX_EVENT, this.onShowInbox);
    this.addEventListener(DISMISS_NOTE_EVENT, this.onDismissNote);
    this.addEventListener(SHOW_DIALOG_EVENT, this.onShowDialog);
    this.addEventListener(SCREEN_NAME_EVENT, this.onScreenName);
    this.stopListening = onAccessLost(this.onAccessLost);
    // theme-boot.js showed the theme before the first paint; from here it follows the system and the setting.
    this.stopTheme = followThemeChoice();
    void this.boot(takePairSecret());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHashChange);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('keydown', this.onEarlyShortcut, true);
    this.removeEventListener(SHOW_INBOX_EVENT, this.onShowInbox);
    this.removeEventListener(DISMISS_NOTE_EVENT, this.onDismissNote);
    this.removeEventListener(SHOW_DIALOG_EVENT, this.onShowDialog);
    this.removeEventListener(SCREEN_NAME_EVENT, this.onScreenName);
    this.stopListening?.();
    this.stopListening = null;
    this.stopTheme?.();
    this.stopTheme = null;
    this.stopShortcuts?.();
    this.stopShortcuts = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.highlightTimer) clearTimeout(this.highlightTimer);
    if (this.noteTimer) clearTimeout(this.noteTimer);
  }

  private async boot(secret: string | null): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    // Keep showing an error (or the offline view) while retrying in the background, rather than flashing a blank page.
    if (this.access.kind !== 'error' && this.access.kind !== 'offline') this.access = { kind: 'checking' };
    this.sync.stop();
    this.status.stop();
    let access = await resolveAccess(secret);
    // Out of reach: the lists this device saved, if any, rather than only the error.
    if (access.kind === 'error') access = await offlineOr(access, this.access);
    this.access = access;
    if (access.kind === 'error' || access.kind === 'offline') {
      this.pendingSecret = secret;
      this.retryTimer = setTimeout(() => void this.boot(this.pendingSecret), this.retryBackoff.next());
      return;
    }
    this.pendingSecret = null;
    this.retryBackoff.reset();
    if (access.kind === 'unpaired') this.offline.clear();
    if (access.kind === 'granted') {
      this.sync.start();
      this.status.start();
    }
  }

  /** Asks the agent why this browser was let go, for the pair screen to say; it changes nothing else. */
  private async learnWhyLost(): Promise<void> {
    const access = await resolveAccess(null, true);
    if (access.kind === 'unpaired' && this.access.kind === 'unpaired' && this.access.lost === 'cut-off' && this.access.secret === null) this.access = access;
  }

  private loadTabScreen(): Promise<void> {
    this.tabScreen ??= import('./tab-screen.js').then(
      (mod) => {
        this.stopShortcuts ??= mod.installAppShortcuts({
          active: () => this.access.kind === 'granted',
          workspaces: () => this.sync.workspaces,
          outside: () => this.sync.outside,
          route: () => this.routes.route,
          workbench: () => this.querySelector('pm-workbench'),
          sidebar: () => this.querySelector('pm-session-list'),
          showInbox: this.onShowInbox,
        });
      },
      (err: unknown) => {
        this.tabScreen = null;
        this.terminalLoadError = errorText(err);
      },
    );
    return this.tabScreen;
  }

  /**
   * A shortcut pressed before the tab screen's code, which holds the shortcuts, has come (it
   * is fetched once the list is idle): the key is kept from the page, the code fetched, and
   * the same key pressed again for the shortcuts it installed.
   */
  private readonly onEarlyShortcut = (e: KeyboardEvent) => {
    if (this.stopShortcuts || e.isComposing || this.access.kind !== 'granted' || !isAppShortcutKey(e)) return;
    e.preventDefault();
    e.stopPropagation();
    const again: KeyboardEventInit = { key: e.key, code: e.code, ctrlKey: true, shiftKey: true, bubbles: true, cancelable: true };
    void this.loadTabScreen().then(() => {
      if (this.stopShortcuts) window.dispatchEvent(new KeyboardEvent('keydown', again));
    });
  };

  /** After the list is on screen: the tab screen is fetched while nothing else happens. */
  private prefetchTabScreen(): void {
    if (this.tabScreen) return;
    const idle = (cb: () => void) => ('requestIdleCallback' in window ? window.requestIdleCallback(cb, { timeout: 5_000 }) : setTimeout(cb, 2_000));
    idle(() => this.loadTabScreen());
  }

  private loadSettingsView(): void {
    if (this.settingsRequested) return;
    this.settingsRequested = true;
    import('../settings/devices-view.js').catch((err: unknown) => {
      this.settingsRequested = false;
      this.settingsLoadError = errorText(err);
    });
  }

  /** The list's connection note speaks for both live channels: a stale dot is as wrong as a stale tab. */
  private connectionState(): ConnectionKind {
    const sync = this.sync.state.kind;
    const status = this.status.state.kind;
    if (sync !== 'open') return sync;
    // Once the list was drawn, the status channel coming up late is not a first connect.
    if (status === 'connecting') return this.status.loaded ? 'reconnecting' : 'connecting';
    return status;
  }

  /**
   * Whether the list can be drawn: its sessions and the inbox above them have both arrived.
   * Drawn on the sessions alone, the inbox would push them down when it came. A status
   * channel that failed does not hold the list back: it says so in the header.
   */
  private get listLoaded(): boolean {
    const status = this.status.state.kind;
    return this.sync.loaded && (this.status.loaded || (status !== 'connecting' && status !== 'open'));
  }

  private inbox(): Inbox {
    if (this.access.kind !== 'granted') return EMPTY_INBOX;
    return buildInbox(this.sync, this.status.statuses, this.status.approvals, this.inboxActions.settling, this.status.waitingToFollow);
  }

  /** How many things wait on the person: open approvals, tabs waiting in the terminal, finished turns. */
  private attention(inbox: Inbox): number {
    if (this.access.kind !== 'granted') return 0;
    // Before the list arrives, count what the status channel knows about the agent's sessions.
    if (!this.sync.loaded) return countFromStatuses(this.status.statuses, this.status.approvals);
    return inboxCount(inbox);
  }

  /** Whether a tab shows in the desktop split: a wide screen, the list as its sidebar. */
  private get split(): boolean {
    return this.access.kind === 'granted' && this.wide.matches && this.routes.route.name === 'terminal';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const route = this.routes.route;
    const granted = this.access.kind === 'granted';
    this.classList.toggle('pm-split', this.split);
    // Leaving the list: remember where it was, before it is hidden.
    if (granted && this.shownRoute === 'list' && route.name !== 'list') this.listScroll = window.scrollY;
    if (granted && route.name === 'settings') this.loadSettingsView();
    if (granted && route.name === 'terminal') void this.loadTabScreen();
    this.status.setViewing(granted && route.name === 'terminal' ? route.tabId : null);
  }

  /**
   * Follows a notification's link once the agent said what is open: to that card, or to a
   * note that it was answered already. The query leaves the address bar, so a reload does
   * not follow it again.
   */
  private followLink(): void {
    const id = this.pendingLink;
    if (id === null || this.access.kind !== 'granted' || !this.status.loaded || !this.sync.loaded) return;
    this.pendingLink = null;
    history.replaceState(history.state, '', `${location.pathname}${withoutApprovalLink(location.search)}${location.hash}`);
    if (linkOutcome(id, this.status.approvals.map((a) => a.id)) === 'answered') {
      this.showLinkNote(ANSWERED_NOTE);
      return;
    }
    this.showCard(id);
  }

  /** The refused session's dialog, once the agent has offered it. */
  private followDialog(): void {
    const pending = this.pendingDialog;
    if (pending === null || this.access.kind !== 'granted') return;
    if (Date.now() > pending.until) {
      this.pendingDialog = null;
      return;
    }
    const approval = this.status.approvals.find((a) => a.tabId === pending.key);
    if (!approval) return;
    this.pendingDialog = null;
    this.showCard(approval.id);
  }

  /** Rings approval `id`'s card a moment and scrolls it into view. */
  private showCard(id: string): void {
    this.highlight = id;
    if (this.highlightTimer) clearTimeout(this.highlightTimer);
    this.highlightTimer = setTimeout(() => {
      this.highlight = null;
    }, HIGHLIGHT_MS);
    void this.scrollToCard(id);
  }

  private async scrollToCard(id: string): Promise<void> {
    await this.updateComplete;
    await this.querySelector('pm-inbox')?.scrollToApproval(id);
  }

  private showLinkNote(note: string): void {
    this.linkNote = note;
    if (this.noteTimer) clearTimeout(this.noteTimer);
    this.noteTimer = note
      ? setTimeout(() => {
          this.linkNote = '';
        }, LINK_NOTE_MS)
      : null;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.followLink();
    this.followDialog();
    const waiting = this.attention(this.inbox());
    const title = pageTitle(waiting, this.access.kind === 'granted' && this.routes.route.name === 'terminal' ? this.screenName : '');
    if (document.title !== title) document.title = title;
    if (this.access.kind !== 'granted') {
      this.shownRoute = null;
      return;
    }
    if (this.sync.loaded) this.prefetchTabScreen();
    const shown = this.routes.route.name;
    if (shown === this.shownRoute) return;
    // The list stays mounted under the other screens; put it back where the person left it.
    if (shown === 'list' && this.listScroll > 0) window.scrollTo(0, this.listScroll);
    if (shown === 'list') this.listScroll = 0;
    if (shown === 'settings') window.scrollTo(0, 0);
    this.shownRoute = shown;
  }

  override render() {
    const inbox = this.inbox();
    const waiting = this.attention(inbox);
    return html`${this.renderScreen(inbox, waiting)}<pm-update-toast></pm-update-toast>
      <div class="pm-visually-hidden" role="status">${waiting === 0 ? '' : `${waiting} ${waiting === 1 ? 'thing waits' : 'things wait'} for you`}</div>`;
  }

  private renderScreen(inbox: Inbox, waiting: number) {
    const access = this.access;
    switch (access.kind) {
      case 'checking':
        return nothing;
      case 'unpaired':
        // Its own chunk: a paired device never needs it.
        void import('../pairing/pair-screen.js');
        return html`<pm-pair-screen .secret=${access.secret} .lost=${access.lost} @pm-paired=${this.onPaired}></pm-pair-screen>`;
      case 'error':
        return html`<pm-unreachable-screen
          .errorMessage=${access.message}
          @pm-retry=${() => this.boot(this.pendingSecret)}
        ></pm-unreachable-screen>`;
      case 'offline':
        return html`<pm-offline-view .snapshot=${access.snapshot} .route=${this.routes.route} @pm-retry=${() => this.boot(this.pendingSecret)}></pm-offline-view>`;
      case 'granted': {
        const route = this.routes.route;
        const found = route.name === 'terminal' ? this.sync.tab(route.tabId) : undefined;
        const bell = html`<pm-inbox-bell slot="bell" .count=${waiting}></pm-inbox-bell>`;
        const split = this.split;
        const tabScreen = route.name === 'terminal' && !this.terminalLoadError;
        return html`
          <pm-session-list
            ?hidden=${route.name !== 'list' && !split}
            aria-label=${split ? 'Sessions' : nothing}
            .onScreen=${split ? this.paneTabs : EMPTY_SET}
            .workspaces=${this.sync.workspaces}
            .outside=${this.sync.outside}
            ?loaded=${this.listLoaded}
            .connection=${this.connectionState()}
            .statuses=${this.status.statuses}
          >
            ${bell}
            <pm-inbox slot="inbox" .inbox=${inbox} .highlight=${this.highlight} .note=${this.linkNote} .shown=${split ? this.paneTabs : EMPTY_SET}></pm-inbox>
          </pm-session-list>
          ${route.name === 'terminal' && this.terminalLoadError
            ? html`<pm-unreachable-screen problem="not-loaded" .errorMessage=${this.terminalLoadError}></pm-unreachable-screen>`
            : nothing}
          ${tabScreen && !split
            ? html`<pm-terminal-view
                .tabId=${route.tabId}
                .view=${route.view}
                .tab=${found?.tab}
                .outside=${this.sync.outsideSession(route.tabId)}
                .status=${this.status.get(route.tabId)}
              >
                ${bell}
              </pm-terminal-view>`
            : nothing}
          ${tabScreen && split
            ? html`<pm-workbench
                .tabId=${route.tabId}
                .view=${route.view}
                .workspaces=${this.sync.workspaces}
                .outside=${this.sync.outside}
                ?loaded=${this.sync.loaded}
                .statuses=${this.status.statuses}
                @pm-panes=${(e: CustomEvent<ReadonlySet<string>>) => {
                  this.paneTabs = e.detail;
                }}
              ></pm-workbench>`
            : nothing}
          ${route.name === 'settings' ? this.renderSettings() : nothing}
        `;
      }
    }
  }

  private renderSettings() {
    if (this.settingsLoadError) {
      return html`<pm-unreachable-screen problem="not-loaded" .errorMessage=${this.settingsLoadError}></pm-unreachable-screen>`;
    }
    return html`<pm-devices-view></pm-devices-view>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-app': App;
  }
}
