import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';

/** A small pill saying the live connection is not up; nothing while it is. */
@customElement('pm-connection-note')
export class ConnectionNote extends LitElement {
  static override styles = css`
    :host {
      display: inline-flex;
      flex: none;
    }
    span {
      display: inline-flex;
      align-items: center;
      gap: 6px;
      padding: 3px 10px;
      border-radius: 999px;
      font-size: 13px;
      white-space: nowrap;
      color: var(--pm-warn);
      background: var(--pm-warn-bg);
      border: 1px solid var(--pm-warn-border);
    }
    span::before {
      content: '';
      width: 7px;
      height: 7px;
      border-radius: 50%;
      background: currentColor;
      animation: pulse 1.4s ease-in-out infinite;
    }
    @keyframes pulse {
      50% {
        opacity: 0.3;
      }
    }
    @media (prefers-reduced-motion: reduce) {
      span::before {
        animation: none;
      }
    }
  `;

  /** Text to show, or empty while connected. */
  @property() label = '';

  override render() {
    return this.label ? html`<span role="status">${this.label}</span>` : nothing;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-connection-note': ConnectionNote;
  }
}
