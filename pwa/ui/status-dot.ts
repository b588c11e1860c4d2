import { css, html, LitElement, type PropertyValues } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { ClaudeState } from '../../protocol/status.js';

/**
 * A small mark for a Claude status. Each state differs in shape as well as colour, still and
 * in motion alike, so it reads without colour vision and with reduced motion too: idle is a
 * small dot, unknown a hollow ring, busy a ring with one arc turning (half the ring, still),
 * needs-input a diamond (pulsing), ready-for-review a ring round a dot. The element itself is
 * an image named by `label` for screen readers and on hover.
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
      transform: scale(0.6);
      background: var(--pm-idle);
    }
    .unknown {
      transform: scale(0.85);
      border: 2px solid var(--pm-muted);
    }
    .busy {
      border: 2px solid color-mix(in srgb, var(--pm-busy) 28%, transparent);
      border-top-color: var(--pm-busy);
      animation: spin 0.9s linear infinite;
    }
    .needs-input {
      border-radius: 2px;
      transform: rotate(45deg) scale(0.78);
      background: var(--pm-attention);
      animation: pulse 1.8s ease-out infinite;
    }
    .ready-for-review {
      border: 2px solid var(--pm-review);
      background: radial-gradient(circle, var(--pm-review) 0 32%, transparent 36%);
    }
    @keyframes spin {
      to {
        transform: rotate(1turn);
      }
    }
    @keyframes pulse {
      0% {
        box-shadow: 0 0 0 0 color-mix(in srgb, var(--pm-attention) 60%, transparent);
      }
      70%,
      100% {
        box-shadow: 0 0 0 6px transparent;
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .busy {
        animation: none;
        border-right-color: var(--pm-busy);
      }
      .needs-input {
        animation: none;
        box-shadow: 0 0 0 2px color-mix(in srgb, var(--pm-attention) 30%, transparent);
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
