import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { AGENT_NAMES } from '../../protocol/agents.js';
import type { TabView } from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import { tabLabel } from '../core/labels.js';
import { ItemActionsController, itemActionsPanel } from './item-actions-controller.js';
import { router, terminalPath } from '../core/router.js';
import { sessionActions } from '../core/session-actions.js';
import { describeStatus } from '../core/tab-status.js';
import { rowModeMark } from '../core/permission-mode.js';
import { chevronIcon, moreIcon, promptIcon, sparkIcon } from '../ui/icons.js';
import { chip, controls } from '../ui/styles.js';
import { rowStyles } from './row-styles.js';
import '../ui/status-dot.js';

/** One tab of a workspace: opens its terminal; rename and close behind a menu. */
@customElement('pm-tab-row')
export class TabRow extends LitElement {
  static override styles = [
    controls,
    chip,
    rowStyles,
    itemActionsPanel,
    css`
      .secondary-text .command {
        flex: none;
        max-width: 50%;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .panel {
        padding: 4px 0 10px 56px;
      }
      .dead {
        opacity: 0.65;
      }
    `,
  ];

  @property({ attribute: false }) tab!: TabView;
  /** The tab's Claude status, when the agent has one. */
  @property({ attribute: false }) status: TabStatus | undefined;
  /** Read-only, while the agent is out of reach: it opens, it is not renamed or closed. */
  @property({ type: Boolean }) offline = false;
  /** Shown in a pane of the desktop split, beside the list. */
  @property({ type: Boolean, reflect: true }) shown = false;
  private readonly actions = new ItemActionsController(this, {
    rename: (name) => sessionActions.request(this, 'pm-tab-rename', { tabId: this.tab.id, name }),
    close: () => sessionActions.request(this, 'pm-tab-close', { tabId: this.tab.id }),
  });

  private open(): void {
    router.go(terminalPath(this.tab.id));
  }

  /** Gives the keyboard to the row's own button, the one that opens the tab. */
  focusButton(): void {
    this.renderRoot.querySelector<HTMLElement>('button')?.focus();
  }

  override render() {
    const kind = this.tab.kind;
    const claude = kind !== 'shell';
    const label = tabLabel(this.tab);
    const primary = claude && !this.tab.name ? AGENT_NAMES[kind] : label.primary;
    const status = this.tab.alive ? describeStatus(this.tab, this.status) : null;
    const command = this.tab.alive ? (claude ? null : label.command) : 'not running';
    const mode = this.tab.alive ? rowModeMark(this.status) : null;
    const name = `Open ${primary} in ${label.path}${status ? `, ${status.text}` : ''}${mode ? `, ${mode.text} mode` : ''}`;
    return html`
      <div class="row ${this.tab.alive ? '' : 'dead'} ${status?.attention ? status.state : ''}">
        <button class="open" @click=${this.open} aria-label=${name} aria-current=${this.shown ? 'true' : 'false'}>
          <span class="glyph">
            ${claude ? sparkIcon() : promptIcon()}
            ${status ? html`<pm-status-dot state=${status.state} label=${status.text}></pm-status-dot>` : nothing}
          </span>
          <span class="text">
            <span class="primary-line">
              <span class="primary-text"><bdi>${primary}</bdi></span>
              ${mode ? html`<span class="chip ${mode.tone}" aria-hidden="true">${mode.text}</span>` : nothing}
            </span>
            <span class="secondary-text">
              ${status
                ? html`<span class="state ${status.state}">${status.text}</span><span aria-hidden="true">·</span>`
                : command
                  ? html`<span class="command"><bdi>${command}</bdi> ·</span>`
                  : nothing}
              <span class="path"><bdi>${label.path}</bdi></span>
            </span>
          </span>
          <span class="chevron">${chevronIcon()}</span>
        </button>
        ${this.offline
          ? nothing
          : html`<button
              class="icon ghost more"
              aria-label=${`Actions for ${primary}`}
              aria-expanded=${this.actions.mode !== 'idle'}
              @click=${() => this.actions.toggleMenu()}
            >
              ${moreIcon()}
            </button>`}
      </div>
      ${this.actions.mode === 'idle' || this.offline ? nothing : html`<div class="panel">${this.renderPanel(primary)}</div>`}
    `;
  }

  private renderPanel(name: string) {
    const kind = this.tab.kind;
    const ends = kind === 'shell' ? 'Its shell and everything running in it' : `${AGENT_NAMES[kind]} and everything running in it`;
    return this.actions.renderPanel({
      nameLabel: 'Tab name',
      name: this.tab.name ?? '',
      closeAction: 'Close tab',
      closeMessage: `Close “${name}”? ${ends} will end.`,
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-tab-row': TabRow;
  }
}
