import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { DialogOption } from '../../protocol/approvals.js';
import { visibleText } from '../../protocol/safe-text.js';
import { controls, spinner } from '../ui/styles.js';
import { optionStyles } from './card-styles.js';
import { dialogLayout } from './dialog-keys.js';

/**
 * A dialog's answers on its card: the choices the agent read off Claude's screen, each with the
 * key cap of the key that chooses it, and an unread screen's bare keys as a pad. Fires
 * `pm-dialog-press` with the key of the answer chosen; the card sends it.
 */
@customElement('pm-dialog-answers')
export class DialogAnswers extends LitElement {
  static override styles = [
    controls,
    spinner,
    optionStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        gap: 10px;
      }
      /* A named key before what it does: a key cap, as the keyboard prints it. */
      .option .cap {
        flex: none;
        min-width: 44px;
        padding: 3px 7px;
        border-radius: 7px;
        border: 1px solid var(--pm-field-border);
        border-bottom-width: 2px;
        background: var(--pm-surface-2);
        font-family: var(--pm-mono);
        font-size: 13px;
        text-align: center;
        color: var(--pm-text);
        white-space: nowrap;
      }
      /* An unread screen's bare keys: a pad of caps, each still a finger wide. */
      .pad {
        display: grid;
        /* Six across: Enter, Esc, ↑ and ↓ on the first row, the digits under them. */
        grid-template-columns: repeat(6, minmax(0, 1fr));
        gap: 8px;
        /* On a wide card the keys stay key-sized rather than stretching across it. */
        max-width: 26rem;
      }
      .pad button {
        min-width: 44px;
        min-height: 48px;
        padding: 0 6px;
        border-radius: 10px;
        border-bottom-width: 2px;
        font-family: var(--pm-mono);
        font-size: 16px;
        font-weight: 600;
      }
      .pad button.named {
        grid-column: span 2;
      }
    `,
  ];

  @property({ attribute: false }) options: DialogOption[] = [];
  /** Whose screen the keys go to, by name ("Claude", "Codex"). */
  @property({ attribute: false }) agent = 'Claude';
  /** An answer on its way, or the card read only: no key is pressed meanwhile. */
  @property({ type: Boolean }) busy = false;
  /** The key of the answer on its way: its button carries the spinner. */
  @property({ attribute: false }) pending: string | null = null;

  private press(key: string): void {
    this.dispatchEvent(new CustomEvent('pm-dialog-press', { detail: key }));
  }

  private spinner(key: string) {
    return this.pending === key ? html`<span class="spinner" aria-hidden="true"></span>` : nothing;
  }

  override render() {
    // A select list's places are not digits on Claude's screen: its options stand in order, with no key shown.
    const { choices, pad } = dialogLayout(this.options);
    return html`${choices.length > 0
      ? html`<div class="options">
          ${choices.map(
            (c) => html`<button class="option" ?disabled=${this.busy} @click=${() => this.press(c.key)}>
              ${c.cap === null ? nothing : html`<kbd class="cap" aria-hidden="true">${c.cap}</kbd>`}
              <span class="texts"><span class="label">${visibleText(c.label)}</span></span>
              ${c.cap === null ? nothing : html`<span class="visually-hidden">(${c.spoken})</span>`}
              ${this.spinner(c.key)}
            </button>`,
          )}
        </div>`
      : nothing}
    ${pad.length > 0
      ? html`<div class="pad" role="group" aria-label=${`Keys to press in ${this.agent}'s screen`}>
          ${pad.map(
            (k) => html`<button class=${k.cap !== null && k.label.length > 1 ? 'named' : ''} aria-label=${k.spoken} ?disabled=${this.busy} @click=${() => this.press(k.key)}>
              ${this.pending === k.key ? html`<span class="spinner" aria-hidden="true"></span>` : visibleText(k.label)}
            </button>`,
          )}
        </div>`
      : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-dialog-answers': DialogAnswers;
  }
  interface HTMLElementEventMap {
    'pm-dialog-press': CustomEvent<string>;
  }
}
