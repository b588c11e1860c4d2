import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { controls } from '../components/shared-styles.js';

/** Shown when this browser has no access yet: how to get in, and why the last try failed. */
@customElement('pm-link-screen')
export class LinkScreen extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: grid;
        place-items: center;
        min-height: 100dvh;
        padding: calc(24px + var(--pm-safe-top)) 20px calc(24px + var(--pm-safe-bottom));
      }
      .card {
        width: 100%;
        max-width: 440px;
        display: flex;
        flex-direction: column;
        gap: 16px;
      }
      img {
        width: 64px;
        height: 64px;
      }
      h1 {
        margin: 0;
        font-size: 24px;
      }
      p {
        margin: 0;
        color: var(--pm-muted);
      }
      code {
        font-family: var(--pm-mono);
        color: var(--pm-text);
        background: var(--pm-surface-2);
        padding: 1px 6px;
        border-radius: 6px;
        font-size: 0.92em;
        white-space: nowrap;
      }
      .problem {
        padding: 12px 14px;
        border-radius: 10px;
        background: var(--pm-danger-bg);
        border: 1px solid #5a2a31;
        color: var(--pm-danger);
      }
      .problem strong {
        display: block;
        color: var(--pm-text);
        margin-bottom: 4px;
      }
      ol {
        margin: 0;
        padding-left: 22px;
        color: var(--pm-muted);
        display: flex;
        flex-direction: column;
        gap: 8px;
      }
      button {
        align-self: flex-start;
      }
    `,
  ];

  /** The printed link was refused (already used, or not valid). */
  @property({ type: Boolean }) linkRejected = false;
  /** The agent could not be asked, or refused for another reason; the app keeps retrying. */
  @property() errorMessage = '';

  private retry(): void {
    this.dispatchEvent(new CustomEvent('pm-retry', { bubbles: true, composed: true }));
  }

  override render() {
    if (this.errorMessage) {
      return html`<div class="card">
        <img src="/icon.svg" alt="" />
        <h1>Can't reach pocketmux</h1>
        <div class="problem" role="alert">${this.errorMessage}</div>
        <p>This page keeps trying. If the agent stopped, start it again with <code>pocketmux start</code> on its machine.</p>
        <button @click=${this.retry}>Try again</button>
      </div>`;
    }
    return html`<div class="card">
      <img src="/icon.svg" alt="" />
      <h1>Connect this browser</h1>
      ${this.linkRejected
        ? html`<div class="problem" role="alert">
            <strong>This link was already used or is not valid.</strong>
            Restart the agent for a new one.
          </div>`
        : nothing}
      <p>pocketmux lets in only browsers that opened the link its agent printed.</p>
      <ol>
        <li>On the machine running your sessions, look at the terminal where you ran <code>pocketmux start</code>.</li>
        <li>Open the link it printed (the one with <code>#token=</code>) in this browser. It works once.</li>
      </ol>
      <button @click=${this.retry}>Try again</button>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-link-screen': LinkScreen;
  }
}
