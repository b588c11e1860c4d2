import { css, html, LitElement } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import { NAME_MAX } from '../../protocol/limits.js';
import { controls } from './styles.js';

/** An inline name editor: fires `pm-save` with the new name, or `pm-cancel`. */
@customElement('pm-rename-form')
export class RenameForm extends LitElement {
  static override styles = [
    controls,
    css`
      form {
        display: flex;
        gap: 8px;
        align-items: center;
        flex-wrap: wrap;
      }
      input {
        flex: 1 1 160px;
      }
      .buttons {
        display: flex;
        gap: 8px;
      }
    `,
  ];

  @property() value = '';
  @property() label = 'Name';
  @property({ type: Boolean }) busy = false;

  @query('input') private input!: HTMLInputElement;

  override firstUpdated(): void {
    this.input.focus();
    this.input.select();
  }

  private submit(e: Event): void {
    e.preventDefault();
    this.dispatchEvent(new CustomEvent('pm-save', { detail: { name: this.input.value } }));
  }

  private cancel(): void {
    this.dispatchEvent(new CustomEvent('pm-cancel'));
  }

  override render() {
    return html`<form @submit=${this.submit} @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && this.cancel()}>
      <input aria-label=${this.label} .value=${this.value} maxlength=${NAME_MAX} autocomplete="off" enterkeyhint="done" ?disabled=${this.busy} />
      <div class="buttons">
        <button type="button" @click=${this.cancel}>Cancel</button>
        <button class="primary" type="submit" ?disabled=${this.busy}>Save</button>
      </div>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-rename-form': RenameForm;
  }
}
