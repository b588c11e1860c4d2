import { css, html, LitElement } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { Guardrail } from '../../protocol/api.js';
import { guardrailChoices } from '../core/guardrail.js';
import { controls } from '../ui/styles.js';

/**
 * "When nobody answers", a workspace's guardrail: leave what waits in the terminal, or deny
 * it after a while. Fires `pm-guardrail-choose` with the choice (null for none) and
 * `pm-cancel`; the workspace card saves it.
 */
@customElement('pm-guardrail-menu')
export class GuardrailMenu extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      fieldset {
        margin: 0;
        padding: 0;
        border: none;
        display: flex;
        flex-direction: column;
        gap: 8px;
        min-width: 0;
      }
      legend {
        padding: 0;
        margin-bottom: 2px;
        font-weight: 650;
      }
      .hint {
        margin: 0;
        color: var(--pm-muted);
        font-size: 14px;
      }
      /* The waits in even columns, two on a phone; leaving it in the terminal stands across them. */
      .choices {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr));
        gap: 8px;
        max-width: 32rem;
      }
      .choices button:first-child {
        grid-column: 1 / -1;
      }
      .choices button[aria-pressed='true'] {
        border-color: var(--pm-accent);
        background: color-mix(in srgb, var(--pm-accent) 12%, transparent);
      }
      .actions {
        display: flex;
        gap: 8px;
        flex-wrap: wrap;
      }
    `,
  ];

  /** The workspace's guardrail now; null when none is on. */
  @property({ attribute: false }) guardrail: Guardrail | null = null;
  /** A choice on its way to the agent: the buttons wait for it. */
  @property({ type: Boolean }) busy = false;

  private choose(guardrail: Guardrail | null): void {
    this.dispatchEvent(new CustomEvent('pm-guardrail-choose', { detail: guardrail }));
  }

  override render() {
    const current = this.guardrail;
    return html`<fieldset>
      <legend>When nobody answers</legend>
      <p class="hint">A permission or question from this workspace's tabs that waits unanswered is denied, and Claude is told why.</p>
      <div class="choices">
        ${guardrailChoices(current).map(
          (c) => html`<button
            aria-pressed=${(current?.afterMinutes ?? null) === c.afterMinutes}
            ?disabled=${this.busy}
            @click=${() => this.choose(c.afterMinutes === null ? null : { afterMinutes: c.afterMinutes })}
          >
            ${c.label}
          </button>`,
        )}
      </div>
      <div class="actions"><button class="ghost" @click=${() => this.dispatchEvent(new CustomEvent('pm-cancel'))}>Cancel</button></div>
    </fieldset>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-guardrail-menu': GuardrailMenu;
  }
  interface HTMLElementEventMap {
    'pm-guardrail-choose': CustomEvent<Guardrail | null>;
  }
}
