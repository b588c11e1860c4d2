import { css, html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { closeIcon } from '../ui/icons.js';
import { controls } from '../ui/styles.js';
import type { SplitDirection } from './layout.js';
import type { PaneCandidate } from './tab-order.js';
import { CLOSE_PANE_EVENT } from '../tab/tab-events.js';
import { splitColumnIcon, splitRowIcon } from './workbench-icons.js';

export const OPEN_BESIDE_EVENT = 'pm-open-beside';
export const SPLIT_DIRECTION_EVENT = 'pm-split-direction';

/**
 * The end of a pane's header in the desktop split: open another tab beside this one (choosing
 * side by side or stacked), and close this pane. Asks; the workbench decides.
 */
@customElement('pm-pane-actions')
export class PaneActions extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        position: relative;
        display: inline-flex;
        align-items: center;
        gap: 2px;
      }
      button[aria-expanded='true'] {
        background: var(--pm-surface-2);
      }
      .menu {
        position: absolute;
        top: calc(100% + 4px);
        right: 0;
        z-index: 3;
        width: 300px;
        max-height: min(420px, 70vh);
        overflow-y: auto;
        display: flex;
        flex-direction: column;
        gap: 10px;
        padding: 10px;
        border-radius: var(--pm-radius);
        background: var(--pm-surface);
        border: 1px solid var(--pm-border);
        box-shadow: 0 10px 30px var(--pm-shadow);
      }
      h2 {
        margin: 0 4px;
        font-size: 13px;
        font-weight: 650;
        color: var(--pm-muted);
      }
      .direction {
        display: grid;
        grid-template-columns: 1fr 1fr;
        gap: 6px;
      }
      .direction button[aria-pressed='true'] {
        border-color: var(--pm-accent);
        background: var(--pm-surface-3);
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-direction: column;
        gap: 2px;
      }
      li button {
        width: 100%;
        flex-direction: column;
        align-items: flex-start;
        justify-content: center;
        gap: 0;
        padding: 6px 10px;
        border-color: transparent;
        background: transparent;
        text-align: left;
      }
      @media (hover: hover) {
        li button:hover {
          background: var(--pm-surface-2);
        }
      }
      .name,
      .detail {
        max-width: 100%;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .detail {
        font-family: var(--pm-mono);
        font-size: 12px;
        color: var(--pm-muted);
      }
      .empty {
        margin: 0 4px 4px;
        font-size: 14px;
        color: var(--pm-muted);
      }
    `,
  ];

  /** Panes up now, this one among them. */
  @property({ type: Number }) count = 1;
  @property({ type: Number }) max = 4;
  @property() direction: SplitDirection = 'row';
  /** The tab this pane shows, to name it in the close button. */
  @property() paneName = '';
  @property({ attribute: false }) candidates: readonly PaneCandidate[] = [];
  @state() private open = false;

  private readonly onOutside = (e: PointerEvent) => {
    if (!e.composedPath().includes(this)) this.open = false;
  };

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('pointerdown', this.onOutside, true);
  }

  private toggle(): void {
    this.open = !this.open;
    if (this.open) {
      document.addEventListener('pointerdown', this.onOutside, true);
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('.menu button')?.focus());
    } else {
      document.removeEventListener('pointerdown', this.onOutside, true);
    }
  }

  private close(): void {
    this.open = false;
    document.removeEventListener('pointerdown', this.onOutside, true);
    this.renderRoot.querySelector<HTMLButtonElement>('.split')?.focus();
  }

  private ask<T>(type: string, detail: T): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  private choose(tabId: string): void {
    this.open = false;
    document.removeEventListener('pointerdown', this.onOutside, true);
    this.ask(OPEN_BESIDE_EVENT, { tabId });
  }

  override render() {
    const full = this.count >= this.max;
    const splitIcon = this.direction === 'row' ? splitRowIcon() : splitColumnIcon();
    return html`<button
        class="icon ghost split"
        aria-label="Open another tab beside"
        title=${full ? `${this.max} panes at most: close one first` : 'Open another tab beside'}
        aria-expanded=${this.open}
        aria-haspopup="dialog"
        ?disabled=${full}
        @click=${this.toggle}
      >
        ${splitIcon}
      </button>
      ${this.count > 1
        ? html`<button class="icon ghost" aria-label=${`Close the pane of ${this.paneName}`} title="Close this pane" @click=${() => this.ask(CLOSE_PANE_EVENT, null)}>
            ${closeIcon()}
          </button>`
        : nothing}
      ${this.open ? this.renderMenu() : nothing}`;
  }

  private renderMenu() {
    const direction = (value: SplitDirection, text: string, icon: unknown) =>
      html`<button type="button" aria-pressed=${this.direction === value} @click=${() => this.ask(SPLIT_DIRECTION_EVENT, { direction: value })}>
        ${icon} ${text}
      </button>`;
    return html`<div
      class="menu"
      role="dialog"
      aria-label="Open another tab beside"
      @keydown=${(e: KeyboardEvent) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        this.close();
      }}
    >
      <div class="direction" role="group" aria-label="Panes">
        ${direction('row', 'Side by side', splitRowIcon())} ${direction('column', 'Stacked', splitColumnIcon())}
      </div>
      <h2 id="open-beside">Open beside</h2>
      ${this.candidates.length === 0
        ? html`<p class="empty">Every tab is open already.</p>`
        : html`<ul aria-labelledby="open-beside">
            ${this.candidates.map(
              (c) => html`<li>
                <button type="button" @click=${() => this.choose(c.tabId)}>
                  <span class="name"><bdi>${c.name}</bdi></span>
                  <span class="detail"><bdi>${c.detail}</bdi></span>
                </button>
              </li>`,
            )}
          </ul>`}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-pane-actions': PaneActions;
  }
}
