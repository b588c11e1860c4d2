import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import '../components/update-toast.js';
import { type Access, resolveAccess, takeLinkToken } from '../state/access.js';
import { Backoff } from '../state/backoff.js';
import { RouteController } from '../state/router.js';
import { StatusController } from '../state/status-controller.js';
import { type SyncState, SyncController } from '../state/sync-controller.js';
import { attentionCount, needsPerson } from '../state/tab-status.js';
import './link-screen.js';
import './session-list.js';
import './terminal-view.js';

/** The app shell: decides between the link screen, the session list and a terminal. */
@customElement('pm-app')
export class App extends LitElement {
  private readonly routes = new RouteController(this);
  private readonly sync = new SyncController(this, () => {
    this.status.stop();
    this.access = { kind: 'denied', linkRejected: false };
  });
  private readonly status = new StatusController(this);

  @state() private access: Access = { kind: 'checking' };
  private listScroll = 0;
  /** A link token whose claim never reached the agent; it is still unused, so retries send it. */
  private pendingToken: string | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly retryBackoff = new Backoff(1_000, 15_000);
  private readonly onHashChange = () => {
    // Pasting the link into a tab that already shows the app changes only the fragment.
    const token = takeLinkToken();
    if (token) void this.boot(token);
  };
  private readonly onOnline = () => {
    if (this.access.kind === 'error') void this.boot(this.pendingToken);
  };

  /** Light DOM: the terminal's host element must be reachable by xterm's document stylesheet. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHashChange);
    window.addEventListener('online', this.onOnline);
    void this.boot(takeLinkToken());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHashChange);
    window.removeEventListener('online', this.onOnline);
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  private async boot(token: string | null): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    // Keep showing an error while retrying in the background, rather than flashing a blank page.
    if (this.access.kind !== 'error') this.access = { kind: 'checking' };
    this.sync.stop();
    this.status.stop();
    const access = await resolveAccess(token);
    this.access = access;
    if (access.kind === 'error') {
      this.pendingToken = token;
      this.retryTimer = setTimeout(() => void this.boot(this.pendingToken), this.retryBackoff.next());
      return;
    }
    this.pendingToken = null;
    this.retryBackoff.reset();
    if (access.kind === 'granted') {
      this.sync.start();
      this.status.start();
    }
  }

  /** The list's connection note speaks for both live channels: a stale dot is as wrong as a stale tab. */
  private connectionState(): SyncState {
    if (this.sync.state !== 'online') return this.sync.state;
    return this.status.state === 'online' ? 'online' : 'reconnecting';
  }

  /** How many tabs wait on the person: needs input or ready for review. */
  private waitingCount(): number {
    if (this.access.kind !== 'granted') return 0;
    // Before the tab list arrives, count what the status channel knows about the agent's tabs.
    if (!this.sync.loaded) return this.status.managed().filter(([, s]) => needsPerson(s.state)).length;
    return attentionCount(this.sync.workspaces, this.status.statuses);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const route = this.routes.route;
    if (route.name === 'terminal' && this.listScroll === 0) this.listScroll = window.scrollY;
    this.status.setViewing(this.access.kind === 'granted' && route.name === 'terminal' ? route.tabId : null);
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const waiting = this.waitingCount();
    const title = waiting > 0 ? `(${waiting}) pocketmux` : 'pocketmux';
    if (document.title !== title) document.title = title;
    // The list stays mounted under a terminal; put it back where the person left it.
    if (this.routes.route.name === 'list' && this.listScroll > 0) {
      window.scrollTo(0, this.listScroll);
      this.listScroll = 0;
    }
  }

  override render() {
    const waiting = this.waitingCount();
    return html`${this.renderScreen()}<pm-update-toast></pm-update-toast>
      <div class="pm-visually-hidden" role="status">${waiting === 0 ? '' : `${waiting} ${waiting === 1 ? 'tab waits' : 'tabs wait'} for you`}</div>`;
  }

  private renderScreen() {
    const access = this.access;
    switch (access.kind) {
      case 'checking':
        return nothing;
      case 'denied':
        return html`<pm-link-screen ?linkRejected=${access.linkRejected} @pm-retry=${() => this.boot(null)}></pm-link-screen>`;
      case 'error':
        return html`<pm-link-screen .errorMessage=${access.message} @pm-retry=${() => this.boot(this.pendingToken)}></pm-link-screen>`;
      case 'granted': {
        const route = this.routes.route;
        const found = route.name === 'terminal' ? this.sync.tab(route.tabId) : undefined;
        return html`
          <pm-session-list
            ?hidden=${route.name === 'terminal'}
            .workspaces=${this.sync.workspaces}
            ?loaded=${this.sync.loaded}
            .syncState=${this.connectionState()}
            .statuses=${this.status.statuses}
          ></pm-session-list>
          ${route.name === 'terminal'
            ? html`<pm-terminal-view
                .tabId=${route.tabId}
                .view=${route.view}
                .tab=${found?.tab}
                .status=${this.status.get(route.tabId)}
              ></pm-terminal-view>`
            : nothing}
        `;
      }
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-app': App;
  }
}
