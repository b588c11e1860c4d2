import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { bellIcon } from '../ui/icons.js';
import { controls } from '../ui/styles.js';

/** Asks the app to show the inbox: the home screen, from its top. */
export const SHOW_INBOX_EVENT = 'pm-show-inbox';

/** The header's bell: how many things wait on the person; a tap goes to the inbox. */
@customElement('pm-inbox-bell')
export class InboxBell extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: inline-flex;
        flex: none;
      }
      button {
        color: var(--pm-muted);
      }
      /* With something waiting, the bell carries its number beside it, in the colour of "needs you". */
      button.on {
        width: auto;
        min-width: var(--pm-tap);
        padding: 0 12px 0 9px;
        gap: 5px;
        border-radius: 999px;
        color: var(--pm-attention);
        background: color-mix(in srgb, var(--pm-attention) 13%, transparent);
        border-color: color-mix(in srgb, var(--pm-attention) 35%, transparent);
        font-weight: 700;
        font-variant-numeric: tabular-nums;
      }
      @media (hover: hover) {
        button.on:hover {
          background: color-mix(in srgb, var(--pm-attention) 20%, transparent);
        }
      }
    `,
  ];

  @property({ type: Number }) count = 0;

  /** Gives the keyboard to the bell's button. */
  focusButton(): void {
    this.renderRoot.querySelector<HTMLElement>('button')?.focus();
  }

  override render() {
    const n = this.count;
    const name = n === 0 ? 'Inbox, nothing waits for you' : `Inbox, ${n} ${n === 1 ? 'thing waits' : 'things wait'} for you`;
    return html`<button
      class=${n > 0 ? 'on' : 'icon ghost'}
      aria-label=${name}
      title=${name}
      @click=${() => this.dispatchEvent(new Event(SHOW_INBOX_EVENT, { bubbles: true, composed: true }))}
    >
      ${bellIcon()}${n > 0 ? html`<span aria-hidden="true">${n > 99 ? '99+' : n}</span>` : nothing}
    </button>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-inbox-bell': InboxBell;
  }
}
