import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { TabView } from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import { tabLabel } from './labels.js';
import { ItemActionsController } from './item-actions-controller.js';
import { router, terminalPath } from '../shared/router.js';
import { sessionActions } from './session-actions.js';
import { describeStatus } from './tab-status.js';
import { chevronIcon, moreIcon, promptIcon, sparkIcon } from '../shared/icons.js';
import { controls } from '../shared/shared-styles.js';
import '../shared/status-dot.js';

/** One tab of a workspace: opens its terminal; rename and close behind a menu. */
@customElement('pm-tab-row')
export class TabRow extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      .row {
        display: flex;
        align-items: stretch;
        gap: 4px;
      }
      .open {
        flex: 1 1 auto;
        min-width: 0;
        justify-content: flex-start;
        text-align: left;
        min-height: 56px;
        padding: 6px 10px;
        gap: 12px;
        border-color: transparent;
        background: transparent;
      }
      .open:active {
        background: var(--pm-surface-2);
      }
      @media (hover: hover) {
        .open:hover {
          background: var(--pm-surface-2);
        }
      }
      .glyph {
        position: relative;
        flex: none;
        display: grid;
        place-items: center;
        width: 34px;
        height: 34px;
        border-radius: 8px;
        background: var(--pm-surface-2);
        color: var(--pm-accent);
      }
      /* The status sits on the glyph's corner, ringed in the row's colour to stand clear of it. */
      .glyph pm-status-dot {
        position: absolute;
        right: -4px;
        bottom: -4px;
        --pm-dot-size: 14px;
        padding: 2px;
        border-radius: 50%;
        background: var(--pm-surface);
        box-sizing: content-box;
      }
      .text {
        display: flex;
        flex-direction: column;
        min-width: 0;
        flex: 1 1 auto;
      }
      .primary-text {
        font-weight: 600;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .secondary-text {
        display: flex;
        min-width: 0;
        gap: 0.5ch;
        color: var(--pm-muted);
        font-size: 14px;
        font-family: var(--pm-mono);
        white-space: nowrap;
      }
      /* The state is what the row is for: the path gives way first. */
      .secondary-text .state {
        /* Shrinks only after the path (flex-shrink 1000) has given way. */
        flex: 0 1 auto;
        min-width: 0;
        font-family: var(--pm-font);
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .secondary-text .state ~ .path {
        flex-shrink: 1000;
        min-width: 1.5em;
      }
      .state.needs-input {
        color: var(--pm-attention);
        font-weight: 600;
      }
      .state.ready-for-review {
        color: var(--pm-review);
        font-weight: 600;
      }
      .state.busy {
        color: var(--pm-busy);
      }
      /* What waits on the person is tinted, not moved: rows never jump under a finger. */
      .row.needs-input .open {
        background: rgb(240 181 74 / 0.08);
        box-shadow: inset 3px 0 0 var(--pm-attention);
      }
      .row.ready-for-review .open {
        background: rgb(108 182 255 / 0.07);
        box-shadow: inset 3px 0 0 var(--pm-review);
      }
      .secondary-text .command {
        flex: none;
        max-width: 50%;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      /* Paths lose their start, not their end: the last directory says the most. */
      .secondary-text .path {
        flex: 0 1 auto;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        direction: rtl;
        text-align: left;
      }
      .chevron {
        flex: none;
        color: var(--pm-muted);
      }
      .more {
        align-self: center;
        color: var(--pm-muted);
      }
      .panel {
        padding: 4px 0 10px 56px;
        display: flex;
        flex-direction: column;
        gap: 8px;
      }
      .actions {
        display: flex;
        gap: 8px;
        flex-wrap: wrap;
      }
      .dead {
        opacity: 0.65;
      }
    `,
  ];

  @property({ attribute: false }) tab!: TabView;
  /** The tab's Claude status, when the agent has one. */
  @property({ attribute: false }) status: TabStatus | undefined;
  private readonly actions = new ItemActionsController(this, {
    rename: (name) => sessionActions.request(this, 'pm-tab-rename', { tabId: this.tab.id, name }),
    close: () => sessionActions.request(this, 'pm-tab-close', { tabId: this.tab.id }),
  });

  private open(): void {
    router.go(terminalPath(this.tab.id));
  }

  override render() {
    const claude = this.tab.kind === 'claude';
    const label = tabLabel(this.tab);
    const primary = claude && !this.tab.name ? 'Claude' : label.primary;
    const status = this.tab.alive ? describeStatus(this.tab, this.status) : null;
    const command = this.tab.alive ? (claude ? null : label.command) : 'not running';
    const name = `Open ${primary} in ${label.path}${status ? `, ${status.text}` : ''}`;
    return html`
      <div class="row ${this.tab.alive ? '' : 'dead'} ${status?.attention ? status.state : ''}">
        <button class="open" @click=${this.open} aria-label=${name}>
          <span class="glyph">
            ${claude ? sparkIcon() : promptIcon()}
            ${status ? html`<pm-status-dot state=${status.state} label=${status.text}></pm-status-dot>` : nothing}
          </span>
          <span class="text">
            <span class="primary-text"><bdi>${primary}</bdi></span>
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
        <button
          class="icon ghost more"
          aria-label=${`Actions for ${primary}`}
          aria-expanded=${this.actions.mode !== 'idle'}
          @click=${() => this.actions.toggleMenu()}
        >
          ${moreIcon()}
        </button>
      </div>
      ${this.actions.mode === 'idle' ? nothing : html`<div class="panel">${this.renderPanel(primary)}</div>`}
    `;
  }

  private renderPanel(name: string) {
    const ends = this.tab.kind === 'claude' ? 'Claude and everything running in it' : 'Its shell and everything running in it';
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
