import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { WorkspaceView } from '../../protocol/api.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import type { TabStatus } from '../../protocol/status.js';
import './add-workspace.js';
import '../ui/connection-note.js';
import { settingsIcon } from '../ui/icons.js';
import { controls, pageBar } from '../ui/styles.js';
import './workspace-card.js';
import './outside-card.js';
import { router, SETTINGS_PATH } from '../core/router.js';
import { awayMachine } from '../core/labels.js';
import type { ConnectionKind } from '../core/reconnecting-socket.js';

const CONNECTION_LABEL: Record<ConnectionKind, string> = {
  connecting: 'Connecting…',
  open: '',
  reconnecting: 'Reconnecting…',
  // Only a connection limit ends these channels; reloading starts over.
  'closed-final': 'Disconnected',
  // The pair screen replaces the list.
  'access-lost': '',
};

/**
 * The first screen: every workspace with its tabs, then the Claude sessions started outside
 * pocketmux, live from the agent, under what the app puts in its `inbox` slot (what waits on
 * the person) and beside its `bell` slot. What its cards and rows ask for (`sessionActions`)
 * goes up to the app.
 */
@customElement('pm-session-list')
export class SessionList extends LitElement {
  static override styles = [
    controls,
    pageBar,
    css`
      .bar-inner {
        justify-content: space-between;
        gap: 12px;
      }
      h1 {
        display: flex;
        align-items: center;
        gap: 10px;
      }
      h1 img {
        width: 28px;
        height: 28px;
      }
      .actions {
        display: flex;
        align-items: center;
        gap: 4px;
        min-width: 0;
        margin-right: -10px;
      }
      .actions button {
        color: var(--pm-muted);
      }
      .placeholder {
        padding: 32px 8px;
        text-align: center;
        color: var(--pm-muted);
      }
    `,
  ];

  @property({ attribute: false }) workspaces: WorkspaceView[] = [];
  /** Claude sessions reporting from outside the tabs; their group shows only when there are some. */
  @property({ attribute: false }) outside: readonly OutsideSessionView[] = [];
  @property({ type: Boolean }) loaded = false;
  @property() connection: ConnectionKind = 'connecting';
  @property({ attribute: false }) statuses: Readonly<Record<string, TabStatus>> = {};
  /** The last-known lists, shown while the agent is out of reach: nothing that needs it is offered. */
  @property({ type: Boolean }) offline = false;
  /** Beside the desktop split: the tabs its panes show, marked in their rows. */
  @property({ attribute: false }) onScreen: ReadonlySet<string> = new Set();

  override render() {
    return html`
      <header class="bar">
        <div class="bar-inner">
          <h1><img src="/icon.svg" alt="" />pocketmux</h1>
          <div class="actions">
            <pm-connection-note label=${this.loaded || this.connection !== 'connecting' ? CONNECTION_LABEL[this.connection] : ''}></pm-connection-note>
            <slot name="bell"></slot>
            ${this.offline
              ? nothing
              : html`<button class="ghost icon" aria-label="Settings" title="Settings: devices, notifications, theme" @click=${() => router.go(SETTINGS_PATH)}>${settingsIcon()}</button>`}
          </div>
        </div>
        <slot name="notice"></slot>
      </header>
      <main>
        <slot name="inbox"></slot>
        ${this.loaded ? this.renderWorkspaces() : html`<div class="placeholder" role="status">Loading your sessions…</div>`}
        ${this.loaded && this.outside.length > 0
          ? html`<pm-outside-card .sessions=${this.outside} .statuses=${this.statuses} ?offline=${this.offline} .onScreen=${this.onScreen}></pm-outside-card>`
          : nothing}
        ${this.loaded && !this.offline ? html`<pm-add-workspace></pm-add-workspace>` : ''}
      </main>
    `;
  }

  /** Gives the keyboard to the row of `tabId` when the list holds it, else to the list's first control. */
  focusRow(tabId: string | null): void {
    const cards = [...this.renderRoot.querySelectorAll('pm-workspace-card')];
    if (tabId && cards.some((card) => card.focusTab(tabId))) return;
    const first = this.renderRoot.querySelector<HTMLElement>('button');
    if (first) first.focus();
    else cards[0]?.focusFirst();
  }

  private renderWorkspaces() {
    if (this.workspaces.length === 0) {
      return html`<div class="placeholder">No workspaces yet. Add a directory to start a shell in it.</div>`;
    }
    return repeat(
      this.workspaces,
      (ws) => ws.id,
      (ws) => html`<pm-workspace-card .workspace=${ws} .statuses=${this.statuses} ?offline=${this.offline || !!awayMachine(ws.machine)} .onScreen=${this.onScreen}></pm-workspace-card>`,
    );
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-session-list': SessionList;
  }
}
