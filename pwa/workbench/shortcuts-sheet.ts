import { css, html, LitElement } from 'lit';
import { customElement } from 'lit/decorators.js';
import { closeIcon } from '../ui/icons.js';
import { controls } from '../ui/styles.js';
import { onMac, TERMINAL_SHORTCUTS } from '../terminal/terminal-shortcuts.js';
import { APP_SHORTCUTS } from './app-shortcuts.js';

const MAC = onMac();

/**
 * The keyboard shortcuts, the app's and the terminal's, in a modal dialog (Esc or the close
 * button leave it, and the focus goes back where it was).
 */
@customElement('pm-shortcuts-sheet')
export class ShortcutsSheet extends LitElement {
  static override styles = [
    controls,
    css`
      dialog {
        width: min(560px, calc(100vw - 24px));
        max-height: calc(100dvh - 48px);
        padding: 0;
        border-radius: var(--pm-radius);
        border: 1px solid var(--pm-border);
        background: var(--pm-surface);
        color: var(--pm-text);
        box-shadow: 0 16px 48px var(--pm-shadow);
      }
      dialog::backdrop {
        background: color-mix(in srgb, var(--pm-bg) 70%, transparent);
      }
      header {
        position: sticky;
        top: 0;
        display: flex;
        align-items: center;
        justify-content: space-between;
        padding: 6px 6px 6px 20px;
        background: var(--pm-surface);
        border-bottom: 1px solid var(--pm-border);
      }
      h2 {
        margin: 0;
        font-size: 18px;
      }
      .body {
        padding: 8px 20px 20px;
      }
      h3 {
        margin: 16px 0 6px;
        font-size: 13px;
        font-weight: 650;
        color: var(--pm-muted);
      }
      table {
        width: 100%;
        border-collapse: collapse;
      }
      th,
      td {
        padding: 7px 0;
        border-bottom: 1px solid var(--pm-surface-2);
        text-align: left;
        font-weight: normal;
        vertical-align: top;
      }
      td {
        text-align: right;
        white-space: nowrap;
        padding-left: 16px;
      }
      kbd {
        font-family: var(--pm-mono);
        font-size: 13px;
        padding: 2px 6px;
        border-radius: 6px;
        border: 1px solid var(--pm-border);
        background: var(--pm-surface-2);
      }
      p {
        margin: 14px 0 0;
        color: var(--pm-muted);
        font-size: 14px;
      }
    `,
  ];

  private returnFocus: Element | null = null;

  /** Opens as a modal: the page behind takes no keys or clicks until it closes. */
  async open(): Promise<void> {
    this.returnFocus = document.activeElement;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog && !dialog.open) dialog.showModal();
  }

  private onClose(): void {
    this.remove();
    if (this.returnFocus instanceof HTMLElement) this.returnFocus.focus();
  }

  override render() {
    const row = (label: string, keys: string, macKeys: string) => html`<tr><th scope="row">${label}</th><td><kbd>${MAC ? macKeys : keys}</kbd></td></tr>`;
    return html`<dialog aria-labelledby="shortcuts-title" @close=${this.onClose}>
      <header>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <form method="dialog"><button class="icon ghost" aria-label="Close">${closeIcon()}</button></form>
      </header>
      <div class="body">
        <h3>Anywhere in pocketmux</h3>
        <table>
          ${APP_SHORTCUTS.map((s) => row(s.label, s.keys, s.macKeys))}
        </table>
        <h3>In a terminal</h3>
        <table>
          ${TERMINAL_SHORTCUTS.map((s) => row(s.label, s.keys, s.macKeys))}
        </table>
        <p>Every other key goes to the program in the terminal: plain Ctrl+<i>key</i> belongs to the shell.</p>
      </div>
    </dialog>`;
  }
}

/** Shows the sheet, once: pressing the shortcut again while it is open leaves it as it is. */
export function showShortcutsSheet(): void {
  if (document.querySelector('pm-shortcuts-sheet')) return;
  const sheet = document.createElement('pm-shortcuts-sheet');
  document.body.append(sheet);
  void sheet.open();
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-shortcuts-sheet': ShortcutsSheet;
  }
}
