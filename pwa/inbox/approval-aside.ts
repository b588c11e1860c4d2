import { css, html, LitElement } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import './approval-card.js';
import type { ApprovalEntry } from './inbox-items.js';

/** On a wide screen, what Claude asks, beside the open tab: that tab's cards first. */
@customElement('pm-approval-aside')
export class ApprovalAside extends LitElement {
  static override styles = css`
    :host {
      display: flex;
      flex-direction: column;
      gap: 12px;
      padding: 12px 12px calc(16px + var(--pm-safe-bottom));
    }
    h2 {
      margin: 2px 2px 0;
      font-size: 13px;
      font-weight: 650;
      letter-spacing: 0.05em;
      text-transform: uppercase;
      color: var(--pm-muted);
    }
  `;

  @property({ attribute: false }) entries: ApprovalEntry[] = [];
  /** The tab on screen. */
  @property() tabId = '';

  override render() {
    return html`<h2>Waiting for you</h2>
      ${repeat(
        this.entries,
        (e) => e.approval.id,
        (e) => html`<pm-approval-card data-approval-id=${e.approval.id} .entry=${e} ?here=${e.approval.tabId === this.tabId}></pm-approval-card>`,
      )}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-approval-aside': ApprovalAside;
  }
}
