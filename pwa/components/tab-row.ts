import { css, html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { TabView } from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import { api, errorText } from '../state/api.js';
import { tabLabel } from '../state/labels.js';
import { router, terminalPath } from '../state/router.js';
import { describeStatus } from '../state/tab-status.js';
import { chevronIcon, moreIcon, promptIcon, sparkIcon } from './icons.js';
import { controls } from './shared-styles.js';
import './confirm-bar.js';
import './rename-form.js';
import './status-dot.js';

type Mode = 'idle' | 'menu' | 'rename' | 'confirm-close';

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
  @state() private mode: Mode = 'idle';
  @state() private busy = false;
  @state() private error = '';

  private open(): void {
    router.go(terminalPath(this.tab.id));
  }

  private setMode(mode: Mode): void {
    this.mode = mode;
    this.error = '';
  }

  private async run(work: () => Promise<unknown>, after: Mode = 'idle'): Promise<void> {
    this.busy = true;
    this.error = '';
    try {
      await work();
      this.mode = after;
    } catch (err) {
      this.error = errorText(err);
    } finally {
      this.busy = false;
    }
  }

  private rename(name: string): void {
    void this.run(() => api('PATCH', `/api/tabs/${encodeURIComponent(this.tab.id)}`, { name }));
  }

  private close(): void {
    void this.run(() => api('DELETE', `/api/tabs/${encodeURIComponent(this.tab.id)}`));
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
          aria-expanded=${this.mode !== 'idle'}
          @click=${() => this.setMode(this.mode === 'idle' ? 'menu' : 'idle')}
        >
          ${moreIcon()}
        </button>
      </div>
      ${this.mode === 'idle' ? nothing : html`<div class="panel">${this.renderPanel(primary)}</div>`}
    `;
  }

  private renderPanel(name: string) {
    const error = this.error ? html`<div class="error" role="alert">${this.error}</div>` : nothing;
    switch (this.mode) {
      case 'menu':
        return html`<div class="actions">
            <button @click=${() => this.setMode('rename')}>Rename</button>
            <button class="danger" @click=${() => this.setMode('confirm-close')}>Close tab</button>
          </div>
          ${error}`;
      case 'rename':
        return html`<pm-rename-form
            label="Tab name"
            .value=${this.tab.name ?? ''}
            ?busy=${this.busy}
            @pm-save=${(e: CustomEvent<{ name: string }>) => this.rename(e.detail.name)}
            @pm-cancel=${() => this.setMode('idle')}
          ></pm-rename-form>
          ${error}`;
      case 'confirm-close':
        return html`<pm-confirm-bar
            message=${`Close “${name}”? ${this.tab.kind === 'claude' ? 'Claude and everything running in it' : 'Its shell and everything running in it'} will end.`}
            action="Close tab"
            ?busy=${this.busy}
            @pm-confirm=${this.close}
            @pm-cancel=${() => this.setMode('idle')}
          ></pm-confirm-bar>
          ${error}`;
      default:
        return nothing;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-tab-row': TabRow;
  }
}
