import { css, html, LitElement } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { plusIcon } from '../ui/icons.js';
import { controls } from '../ui/styles.js';

/**
 * "Add workspace" at the foot of the list. Its form (add-workspace-form.ts) loads when the
 * button is pressed: most visits never open it, and the first screen stays within its budget.
 */
@customElement('pm-add-workspace')
export class AddWorkspace extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      .open {
        width: 100%;
        border-style: dashed;
        background: transparent;
        color: var(--pm-muted);
        min-height: 52px;
      }
      @media (hover: hover) {
        .open:hover {
          color: var(--pm-text);
        }
      }
    `,
  ];

  @state() private open = false;

  private async show(): Promise<void> {
    await import('./add-workspace-form.js');
    this.open = true;
  }

  override render() {
    if (!this.open) return html`<button class="open" @click=${this.show}>${plusIcon()} Add workspace</button>`;
    return html`<pm-add-workspace-form @close=${() => (this.open = false)}></pm-add-workspace-form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-add-workspace': AddWorkspace;
  }
}
