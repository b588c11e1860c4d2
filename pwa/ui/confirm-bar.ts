import { css, html, LitElement } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { controls } from './styles.js';

/** Asks before something that cannot be undone: fires `pm-confirm` or `pm-cancel`. */
@customElement('pm-confirm-bar')
export class ConfirmBar extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      .box {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        justify-content: flex-end;
        gap: 8px 12px;
        padding: 10px 12px;
        border-radius: 10px;
        background: var(--pm-danger-bg);
        border: 1px solid var(--pm-danger-border);
      }
      p {
        margin: 0;
        flex: 1 1 180px;
        font-size: 15px;
      }
      .buttons {
        display: flex;
        gap: 8px;
      }
    `,
  ];

  @property() message = '';
  @property() action = 'Close';
  @property({ type: Boolean }) busy = false;

  override firstUpdated(): void {
    this.renderRoot.querySelector<HTMLButtonElement>('button')?.focus();
  }

  override render() {
    return html`<div class="box" role="alertdialog" aria-label=${this.message}>
      <p>${this.message}</p>
      <div class="buttons">
        <button type="button" @click=${() => this.dispatchEvent(new CustomEvent('pm-cancel'))}>Cancel</button>
        <button type="button" class="danger" ?disabled=${this.busy} @click=${() => this.dispatchEvent(new CustomEvent('pm-confirm'))}>
          ${this.action}
        </button>
      </div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-confirm-bar': ConfirmBar;
  }
}
