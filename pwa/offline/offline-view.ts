import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { buildInbox, EMPTY_INBOX, type Inbox } from '../core/inbox-items.js';
import '../inbox/inbox-section.js';
import '../sessions/session-list.js';
import type { Route } from '../core/router.js';
import './offline-bar.js';
import './offline-tab.js';
import type { SessionsSnapshot } from '../core/offline-snapshot.js';

/**
 * What the app shows while the agent is out of reach and this device saved the lists before:
 * the last-known inbox and sessions, read-only, under the offline bar; a tab opens its saved
 * timeline. The same list and inbox as live, told they are offline: nothing that needs the
 * agent is offered.
 */
@customElement('pm-offline-view')
export class OfflineView extends LitElement {
  @property({ attribute: false }) snapshot!: SessionsSnapshot;
  @property({ attribute: false }) route: Route = { name: 'list' };
  private inbox: Inbox = EMPTY_INBOX;

  /** Light DOM, as the app's own screens: the page's styles and scroll apply. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('snapshot')) {
      const s = this.snapshot;
      this.inbox = buildInbox(s, s.statuses, s.approvals);
    }
  }

  override render() {
    const s = this.snapshot;
    const route = this.route;
    return html`
      <pm-session-list ?hidden=${route.name !== 'list'} offline loaded connection="open" .workspaces=${s.workspaces} .outside=${s.outside} .statuses=${s.statuses}>
        <pm-offline-bar slot="notice" .savedAt=${s.savedAt}></pm-offline-bar>
        <pm-inbox slot="inbox" offline .inbox=${this.inbox}></pm-inbox>
      </pm-session-list>
      ${route.name === 'list' ? nothing : html`<pm-offline-tab .snapshot=${s} .tabId=${route.name === 'terminal' ? route.tabId : null}></pm-offline-tab>`}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-offline-view': OfflineView;
  }
}
