import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { PairingResponse } from '../../protocol/api.js';
import { closeIcon } from '../ui/icons.js';
import { controls } from '../ui/styles.js';

function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * A pairing for the next device: its QR code to scan, the short code to type, and how long
 * both still work. Fires `pm-new-code` and `pm-close`.
 */
@customElement('pm-pairing-panel')
export class PairingPanel extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      section {
        padding: 14px 16px 18px;
        background: var(--pm-surface);
        border: 1px solid var(--pm-border);
        border-radius: var(--pm-radius);
      }
      header {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 8px;
        margin: -4px -8px 6px 0;
      }
      h2 {
        margin: 0;
        font-size: 17px;
      }
      .body {
        display: flex;
        flex-direction: column;
        align-items: center;
        gap: 16px;
      }
      /*
       * Phones read dark modules on a light field, with a quiet zone around the code; the
       * padding gives that margin even when the agent's SVG has none of its own.
       */
      .qr {
        position: relative;
        width: min(100%, 288px);
        aspect-ratio: 1;
        padding: 16px;
        background: var(--pm-qr-bg);
        border-radius: 12px;
        color: var(--pm-qr-ink);
      }
      .qr svg {
        display: block;
        width: 100%;
        height: 100%;
        shape-rendering: crispEdges;
      }
      .qr.expired svg {
        opacity: 0.12;
      }
      .qr .stamp {
        position: absolute;
        inset: 0;
        display: grid;
        place-items: center;
        font-weight: 700;
        font-size: 20px;
        color: var(--pm-qr-stamp);
      }
      .side {
        display: flex;
        flex-direction: column;
        align-items: center;
        gap: 10px;
        text-align: center;
        min-width: 0;
      }
      p {
        margin: 0;
        color: var(--pm-muted);
      }
      .code {
        font-family: var(--pm-mono);
        font-size: 38px;
        font-weight: 700;
        letter-spacing: 0.12em;
        line-height: 1.1;
        color: var(--pm-text);
        white-space: nowrap;
        user-select: all;
      }
      .code.expired {
        color: var(--pm-muted);
        text-decoration: line-through;
      }
      .expiry {
        font-variant-numeric: tabular-nums;
      }
      .expiry.soon {
        color: var(--pm-warn);
      }
      @media (min-width: 640px) {
        .body {
          flex-direction: row;
          align-items: center;
          gap: 28px;
        }
        .qr {
          flex: none;
          width: 272px;
        }
        .side {
          align-items: flex-start;
          text-align: left;
        }
      }
    `,
  ];

  @property({ attribute: false }) pairing: PairingResponse | null = null;
  /** When the pairing expires, on this browser's clock (ms since the epoch). */
  @property({ type: Number }) deadline = 0;
  @property({ type: Number }) now = Date.now();
  @property({ type: Boolean }) busy = false;

  private fire(name: string): void {
    this.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true }));
  }

  override render() {
    const p = this.pairing;
    if (!p) return nothing;
    const left = this.deadline - this.now;
    const expired = left <= 0;
    return html`<section aria-labelledby="pairing-title">
      <header>
        <h2 id="pairing-title">Pair a new device</h2>
        <button class="ghost icon" aria-label="Close pairing" @click=${() => this.fire('pm-close')}>${closeIcon()}</button>
      </header>
      <div class="body">
        <div class="qr ${expired ? 'expired' : ''}" role="img" aria-label="QR code of the pairing link">
          ${unsafeHTML(p.qrSvg)} ${expired ? html`<div class="stamp">Expired</div>` : nothing}
        </div>
        <div class="side">
          <p>Scan this with the new device's camera, or type this code in pocketmux there:</p>
          <div class="code ${expired ? 'expired' : ''}" aria-label="Pairing code">${p.code}</div>
          <p class="expiry ${!expired && left < 60_000 ? 'soon' : ''}" role="timer" aria-live="off">
            ${expired ? 'This code expired.' : html`Works once, for <span>${countdown(left)}</span>`}
          </p>
          <button class=${expired ? 'primary' : ''} ?disabled=${this.busy} @click=${() => this.fire('pm-new-code')}>
            ${this.busy ? 'Getting a code…' : 'New code'}
          </button>
        </div>
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-pairing-panel': PairingPanel;
  }
}
