import { css, html, LitElement, svg } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { controls, spinner } from '../ui/styles.js';
import { shortTime } from '../core/time.js';

/** "Retry now" shows that it is trying at least this long, so a quick failure still reads as a try. */
const RETRY_FEEDBACK_MS = 1_200;

/** A cloud struck through: no connection. */
const offlineIcon = svg`<svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M7 18h10a4 4 0 0 0 1.2-7.8A6 6 0 0 0 7.4 8.6 4.7 4.7 0 0 0 7 18z"/><path d="M4 4l16 16"/></svg>`;

/**
 * The offline view's word on what it shows: saved lists, from when, and that the app keeps
 * trying to reach the agent (it does, with backoff and when the network returns); "Retry
 * now" asks at once (`pm-retry`, as the unreachable screen's button does).
 */
@customElement('pm-offline-bar')
export class OfflineBar extends LitElement {
  static override styles = [
    controls,
    spinner,
    css`
      :host {
        display: block;
        background: var(--pm-warn-bg);
        border-top: 1px solid var(--pm-warn-border);
        border-bottom: 1px solid var(--pm-warn-border);
      }
      .inner {
        max-width: 760px;
        margin: 0 auto;
        /* Its own height from the start: the lists below never move when it fills in. */
        min-height: 56px;
        padding: 6px calc(16px + var(--pm-safe-right)) 6px calc(16px + var(--pm-safe-left));
        display: flex;
        align-items: center;
        gap: 10px;
      }
      svg {
        flex: none;
        color: var(--pm-warn);
      }
      /* On a phone its words need the room more than the picture does. */
      @media (max-width: 480px) {
        svg {
          display: none;
        }
      }
      .text {
        flex: 1 1 auto;
        min-width: 0;
        margin: 0;
        display: flex;
        flex-direction: column;
        line-height: 1.3;
        font-size: 15px;
      }
      time {
        white-space: nowrap;
      }
      strong {
        color: var(--pm-warn);
        font-weight: 650;
      }
      .sub {
        color: var(--pm-muted);
        font-size: 13px;
      }
      button {
        flex: none;
        background: var(--pm-surface);
        border-color: var(--pm-warn-border);
      }
      /* Not disabled while it tries: the focus stays on it. */
      button[aria-disabled='true'] {
        cursor: default;
        color: var(--pm-muted);
      }
      .spinner {
        --pm-spinner-size: 14px;
      }
    `,
  ];

  /** When the lists shown were saved (ms since epoch). */
  @property({ type: Number }) savedAt = 0;
  @state() private retrying = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  private retry(): void {
    if (this.retrying) return;
    this.retrying = true;
    this.dispatchEvent(new CustomEvent('pm-retry', { bubbles: true, composed: true }));
    this.retryTimer = setTimeout(() => {
      this.retrying = false;
    }, RETRY_FEEDBACK_MS);
  }

  override render() {
    const when = new Date(this.savedAt).toISOString();
    return html`<div class="inner">
      ${offlineIcon}
      <p class="text" role="status">
        <span><strong>Offline</strong> · last updated <time datetime=${when}>${shortTime(when)}</time></span>
        <span class="sub">${this.retrying ? 'Trying to reach pocketmux…' : "Can't reach pocketmux; retrying."}</span>
      </p>
      <button aria-disabled=${this.retrying ? 'true' : 'false'} @click=${this.retry}>
        ${this.retrying ? html`<span class="spinner" aria-hidden="true"></span>` : ''}Retry now
      </button>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-offline-bar': OfflineBar;
  }
}
