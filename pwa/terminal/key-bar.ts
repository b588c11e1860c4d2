import { css, html, LitElement, nothing } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import type { BarKey } from './keys.js';
import { arrowIcon, sendIcon } from '../ui/icons.js';
import { pasteIcon } from './terminal-icons.js';
import { controls } from '../ui/styles.js';

/** Reading the clipboard needs the Clipboard API, in a secure context (HTTPS or localhost). */
function canPaste(): boolean {
  return typeof navigator.clipboard?.readText === 'function';
}

/**
 * Keys a phone keyboard lacks (Esc, Tab, a sticky Ctrl, arrows, Paste where the page may read
 * the clipboard) and a line editor whose text goes to the terminal when sent, with the phone's
 * autocorrect and dictation.
 */
@customElement('pm-key-bar')
export class KeyBar extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: block;
        background: var(--pm-surface);
        border-top: 1px solid var(--pm-border);
        padding: 6px calc(6px + var(--pm-safe-right)) calc(6px + var(--pm-safe-bottom)) calc(6px + var(--pm-safe-left));
      }
      /* Eight keys of a finger's width fit a 390 px phone; a narrower one wraps them rather than shrink them. */
      .keys {
        display: flex;
        flex-wrap: wrap;
        gap: 3px;
      }
      .keys button {
        flex: 1 1 0;
        min-width: var(--pm-tap);
        padding: 0;
        font-size: 14px;
        font-weight: 600;
        background: var(--pm-surface-2);
      }
      .keys button[aria-pressed='true'] {
        background: var(--pm-accent);
        border-color: var(--pm-accent);
        color: var(--pm-accent-ink);
      }
      form {
        display: flex;
        gap: 6px;
        margin-top: 6px;
      }
      input {
        flex: 1 1 auto;
        font-family: var(--pm-mono);
        font-size: 16px;
      }
      .send {
        padding: 0;
        width: var(--pm-tap);
      }
    `,
  ];

  @property({ type: Boolean }) ctrl = false;
  @query('input') private input!: HTMLInputElement;

  private key(key: BarKey): void {
    this.dispatchEvent(new CustomEvent('pm-key', { detail: { key } }));
  }

  private submit(e: SubmitEvent): void {
    e.preventDefault();
    const text = this.input.value;
    this.input.value = '';
    this.dispatchEvent(new CustomEvent('pm-line', { detail: { text } }));
  }

  /** Keeps focus where it is (the terminal, and with it the phone's keyboard) when a key is tapped. */
  private keepFocus(e: PointerEvent): void {
    e.preventDefault();
  }

  override render() {
    const key = (k: BarKey, label: unknown, name: string) =>
      html`<button type="button" aria-label=${name} @pointerdown=${this.keepFocus} @click=${() => this.key(k)}>${label}</button>`;
    return html`
      <div class="keys" role="toolbar" aria-label="Terminal keys">
        ${key('esc', 'Esc', 'Esc (Escape)')} ${key('tab', 'Tab', 'Tab')}
        <button
          type="button"
          aria-label="Ctrl (Control)"
          aria-pressed=${this.ctrl}
          @pointerdown=${this.keepFocus}
          @click=${() => this.dispatchEvent(new CustomEvent('pm-ctrl', { detail: { on: !this.ctrl } }))}
        >
          Ctrl
        </button>
        ${key('left', arrowIcon('left'), 'Left')} ${key('up', arrowIcon('up'), 'Up')} ${key('down', arrowIcon('down'), 'Down')}
        ${key('right', arrowIcon('right'), 'Right')}
        ${canPaste()
          ? html`<button type="button" aria-label="Paste" @pointerdown=${this.keepFocus} @click=${() => this.dispatchEvent(new CustomEvent('pm-paste'))}>
              ${pasteIcon()}
            </button>`
          : nothing}
      </div>
      <form @submit=${this.submit}>
        <input
          aria-label="Send a line to the terminal"
          placeholder="Type a command…"
          autocomplete="off"
          autocapitalize="off"
          spellcheck="false"
          enterkeyhint="send"
        />
        <button class="send primary" type="submit" aria-label="Send">${sendIcon()}</button>
      </form>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-key-bar': KeyBar;
  }
  interface HTMLElementEventMap {
    'pm-key': CustomEvent<{ key: BarKey }>;
    'pm-ctrl': CustomEvent<{ on: boolean }>;
    'pm-line': CustomEvent<{ text: string }>;
    'pm-paste': CustomEvent<undefined>;
  }
}
