import { css, html, LitElement, type PropertyValues } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { ClaudeState } from '../../protocol/status.js';

/**
 * A small round mark for a Claude status. Each state differs in shape or motion as well as
 * colour (filled, hollow, spinning, pulsing), so it reads without colour vision too; the
 * element itself is an image named by `label` for screen readers and on hover.
 */
@customElement('pm-status-dot')
export class StatusDot extends LitElement {
  static override styles = css`
    :host {
      display: inline-grid;
      place-items: center;
      flex: none;
      width: var(--pm-dot-size, 12px);
      height: var(--pm-dot-size, 12px);
    }
    span {
      box-sizing: border-box;
      width: 100%;
      height: 100%;
      border-radius: 50%;
    }
    .idle {
      transform: scale(0.7);
      background: #5b6573;
    }
    .unknown {
      transform: scale(0.85);
      border: 2px solid var(--pm-muted);
    }
    .busy {
      border: 2px solid rgb(180 160 255 / 0.28);
      border-top-color: var(--pm-busy);
      animation: spin 0.9s linear infinite;
    }
    .needs-input {
      background: var(--pm-attention);
      animation: pulse 1.8s ease-out infinite;
    }
    .ready-for-review {
      background: var(--pm-review);
      box-shadow: 0 0 0 2px rgb(108 182 255 / 0.25);
    }
    @keyframes spin {
      to {
        transform: rotate(1turn);
      }
    }
    @keyframes pulse {
      0% {
        box-shadow: 0 0 0 0 rgb(240 181 74 / 0.6);
      }
      70%,
      100% {
        box-shadow: 0 0 0 6px rgb(240 181 74 / 0);
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .busy {
        animation: none;
        border-right-color: var(--pm-busy);
      }
      .needs-input {
        animation: none;
        box-shadow: 0 0 0 3px rgb(240 181 74 / 0.3);
      }
    }
  `;

  @property({ reflect: true }) state: ClaudeState = 'idle';
  /** What the dot stands for, in words. */
  @property() label = '';

  override connectedCallback(): void {
    super.connectedCallback();
    this.setAttribute('role', 'img');
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('label')) {
      this.setAttribute('aria-label', this.label);
      this.title = this.label;
    }
  }

  override render() {
    return html`<span class=${this.state} aria-hidden="true"></span>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-status-dot': StatusDot;
  }
}
