import { css, html, LitElement, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { UPDATE_READY_EVENT, type UpdateReadyEvent } from './update-event.js';
import { controls } from '../ui/styles.js';

/** Offers to switch to a newer version once its service worker is installed and waiting. */
@customElement('pm-update-toast')
export class UpdateToast extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        position: fixed;
        left: 50%;
        bottom: calc(16px + var(--pm-safe-bottom));
        transform: translateX(-50%);
        z-index: 10;
        width: max-content;
        max-width: calc(100% - 24px);
      }
      div {
        display: flex;
        align-items: center;
        gap: 12px;
        padding: 6px 6px 6px 16px;
        border-radius: 12px;
        background: var(--pm-surface-2);
        border: 1px solid var(--pm-border);
        box-shadow: 0 8px 24px var(--pm-shadow);
      }
    `,
  ];

  @state() private apply: (() => void) | null = null;
  private readonly onReady = (e: Event) => {
    this.apply = (e as UpdateReadyEvent).detail.apply;
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener(UPDATE_READY_EVENT, this.onReady);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener(UPDATE_READY_EVENT, this.onReady);
  }

  override render() {
    const apply = this.apply;
    if (!apply) return nothing;
    return html`<div role="status">
      A new version of pocketmux is ready.
      <button class="primary" @click=${apply}>Reload</button>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-update-toast': UpdateToast;
  }
}
