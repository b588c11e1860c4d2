import { css, html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { TabKind } from '../../protocol/agents.js';
import type { Guardrail, WorkspaceView } from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import { guardrailMark } from '../core/guardrail.js';
import { groupName, shortPath } from '../core/labels.js';
import { ItemActionsController, itemActionsPanel } from './item-actions-controller.js';
import { groupCard } from './group-card-styles.js';
import { PendingActionController } from '../core/pending-action-controller.js';
import { router, terminalPath } from '../core/router.js';
import { sessionActions } from '../core/session-actions.js';
import { attentionCount, STATE_LABEL, workspaceState } from '../core/tab-status.js';
import { caretIcon, moreIcon, plusIcon, shieldIcon, sparkIcon } from '../ui/icons.js';
import { controls } from '../ui/styles.js';
import '../ui/status-dot.js';
import './tab-row.js';
import type { TabRow } from './tab-row.js';

/** A workspace: its name and directory, its tabs, and the actions on it. */
@customElement('pm-workspace-card')
export class WorkspaceCard extends LitElement {
  static override styles = [
    controls,
    groupCard,
    itemActionsPanel,
    css`
      :host {
        display: block;
      }
      header {
        display: flex;
        align-items: center;
        gap: 8px;
        padding: 8px 6px 8px 16px;
        border-bottom: 1px solid var(--pm-border);
      }
      .title {
        flex: 1 1 auto;
        min-width: 0;
      }
      .dir {
        color: var(--pm-muted);
        font-family: var(--pm-mono);
        font-size: 13px;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .more {
        color: var(--pm-muted);
      }
      /* A guardrail that is on: seen before it acts, quiet beside the name. */
      .guard {
        display: flex;
        align-items: center;
        gap: 4px;
        margin-top: 2px;
        color: var(--pm-muted);
        font-size: 13px;
      }
      .guard svg {
        flex: none;
        width: 14px;
        height: 14px;
      }
      .panel {
        padding: 10px 12px 12px 16px;
        border-bottom: 1px solid var(--pm-border);
      }
      .empty {
        padding: 14px 16px 4px;
        color: var(--pm-muted);
        font-size: 15px;
      }
      footer {
        padding: 8px 12px 12px;
        display: flex;
        flex-direction: column;
        gap: 8px;
      }
      .buttons {
        display: flex;
        flex-wrap: wrap;
        gap: 8px;
      }
      /* "New Claude" and its options read as one control. */
      .split {
        display: inline-flex;
      }
      .split .new-claude {
        border-top-right-radius: 0;
        border-bottom-right-radius: 0;
      }
      .split .options {
        border-top-left-radius: 0;
        border-bottom-left-radius: 0;
        border-left: none;
        padding: 0;
      }
      .split .new-claude svg,
      .new-codex svg {
        color: var(--pm-accent);
      }
    `,
  ];

  @property({ attribute: false }) workspace!: WorkspaceView;
  /** Claude statuses by tab id, as the status channel last reported them. */
  @property({ attribute: false }) statuses: Readonly<Record<string, TabStatus>> = {};
  /** Read-only, while the agent is out of reach: its tabs open, nothing is made, renamed or closed. */
  @property({ type: Boolean }) offline = false;
  /** The tabs the desktop split shows. */
  @property({ attribute: false }) onScreen: ReadonlySet<string> = new Set();
  @state() private claudeSheet = false;
  private readonly actions = new ItemActionsController(this, {
    rename: (name) => sessionActions.request(this, 'pm-workspace-rename', { workspaceId: this.workspace.id, name }),
    close: () => sessionActions.request(this, 'pm-workspace-close', { workspaceId: this.workspace.id }),
  });
  /** Creating a tab from the footer, apart from the header's actions. */
  private readonly creation = new PendingActionController(this);

  private setGuardrail(guardrail: Guardrail | null): Promise<void> {
    return this.actions.settle(() => sessionActions.request(this, 'pm-workspace-guardrail', { workspaceId: this.workspace.id, guardrail }));
  }

  private async newTab(kind: TabKind): Promise<void> {
    const created = await this.creation.run(() => sessionActions.request(this, 'pm-tab-create', { workspaceId: this.workspace.id, kind }));
    if (created) router.go(terminalPath(created.value.id));
  }

  /** Gives the keyboard to the row of `tabId`; false when this card does not hold it. */
  focusTab(tabId: string): boolean {
    const row = this.renderRoot.querySelector<TabRow>(`pm-tab-row[data-tab-id="${CSS.escape(tabId)}"]`);
    if (!row) return false;
    row.focusButton();
    return true;
  }

  focusFirst(): void {
    this.renderRoot.querySelector<HTMLElement>('button')?.focus();
  }

  override render() {
    const ws = this.workspace;
    const state = workspaceState(ws, this.statuses);
    const waiting = attentionCount([ws], this.statuses);
    return html`<section aria-label=${`Workspace ${groupName(ws.name, ws.machine)}`}>
      <header>
        <div class="title">
          <div class="name">
            ${state ? html`<pm-status-dot state=${state} label=${`${ws.name}: ${STATE_LABEL[state].toLowerCase()}`}></pm-status-dot>` : nothing}
            <h2><bdi>${groupName(ws.name, ws.machine)}</bdi></h2>
            ${waiting > 0 ? html`<span class="waiting ${state ?? ''}">${waiting} waiting</span>` : nothing}
          </div>
          <div class="dir" title=${ws.dir}><bdi>${shortPath(ws.dir)}</bdi></div>
          ${this.renderGuardMark()}
        </div>
        ${this.offline
          ? nothing
          : html`<button
              class="icon ghost more"
              aria-label=${`Actions for workspace ${ws.name}`}
              aria-expanded=${this.actions.mode !== 'idle'}
              @click=${() => this.actions.toggleMenu()}
            >
              ${moreIcon()}
            </button>`}
      </header>
      ${this.actions.mode === 'idle' || this.offline ? nothing : html`<div class="panel">${this.renderPanel()}</div>`}
      ${ws.tabs.length === 0
        ? html`<div class="empty">No tabs yet.</div>`
        : html`<ul>
            ${repeat(
              ws.tabs,
              (t) => t.id,
              (t) => html`<li><pm-tab-row data-tab-id=${t.id} .tab=${t} .status=${this.statuses[t.id]} ?offline=${this.offline} ?shown=${this.onScreen.has(t.id)}></pm-tab-row></li>`,
            )}
          </ul>`}
      ${this.offline ? nothing : this.renderFooter()}
    </section>`;
  }

  private renderFooter() {
    const ws = this.workspace;
    return html`<footer>
        <div class="buttons">
          <button ?disabled=${this.creation.busy} @click=${() => this.newTab('shell')}>${plusIcon()} New tab</button>
          <span class="split">
            <button class="new-claude" ?disabled=${this.creation.busy} @click=${() => this.newTab('claude')}>${sparkIcon()} New Claude</button>
            <button
              class="options"
              aria-label="Claude options: permission mode, resume a past session"
              aria-expanded=${this.claudeSheet}
              @click=${() => {
                this.claudeSheet = !this.claudeSheet;
                // Its own chunk: most visits never open it.
                if (this.claudeSheet) void import('./new-claude-sheet.js');
                this.creation.clearError();
              }}
            >
              ${caretIcon()}
            </button>
          </span>
          <button class="new-codex" ?disabled=${this.creation.busy} @click=${() => this.newTab('codex')}>${sparkIcon()} New Codex</button>
        </div>
        ${this.creation.error ? html`<div class="error" role="alert">${this.creation.error}</div>` : nothing}
        ${this.claudeSheet
          ? html`<pm-new-claude-sheet .workspaceId=${ws.id} @pm-cancel=${() => (this.claudeSheet = false)}></pm-new-claude-sheet>`
          : nothing}
      </footer>`;
  }

  private renderGuardMark() {
    const mark = guardrailMark(this.workspace.guardrail);
    return mark ? html`<div class="guard">${shieldIcon()}<span>${mark}</span></div>` : nothing;
  }

  /** "When nobody answers": leave it in the terminal, or deny it after a while; saved on a tap. */
  private renderGuardrail() {
    return html`<pm-guardrail-menu
      .guardrail=${this.workspace.guardrail}
      ?busy=${this.actions.busy}
      @pm-guardrail-choose=${(e: CustomEvent<Guardrail | null>) => this.setGuardrail(e.detail)}
      @pm-cancel=${() => this.actions.setMode('idle')}
    ></pm-guardrail-menu>`;
  }

  private renderPanel() {
    const ws = this.workspace;
    const n = ws.tabs.length;
    const tabs = n === 0 ? '' : ` Its ${n === 1 ? 'tab' : `${n} tabs`} and everything running in ${n === 1 ? 'it' : 'them'} will end.`;
    return this.actions.renderPanel({
      nameLabel: 'Workspace name',
      name: ws.name,
      closeAction: 'Close workspace',
      closeMessage: `Close workspace “${ws.name}”?${tabs}`,
      setting: { action: 'When nobody answers', render: () => this.renderGuardrail() },
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-workspace-card': WorkspaceCard;
  }
}
