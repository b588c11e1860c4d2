import { css, html, LitElement, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import type { CreateWorkspaceBody } from '../../protocol/api.js';
import { NAME_MAX } from '../../protocol/limits.js';
import { PendingActionController } from '../core/pending-action-controller.js';
import { controls, fieldLabel } from '../ui/styles.js';
import { sessionActions } from '../core/session-actions.js';

/**
 * The "Add workspace" form: a directory on the agent's machine, and an optional name. Loaded
 * only once the person opens it, so the first screen carries just its button. Says `close`
 * when cancelled or once the workspace is added.
 */
@customElement('pm-add-workspace-form')
export class AddWorkspaceForm extends LitElement {
  static override styles = [
    controls,
    fieldLabel,
    css`
      :host {
        display: block;
      }
      form {
        display: flex;
        flex-direction: column;
        gap: 12px;
        padding: 14px 16px 16px;
        background: var(--pm-surface);
        border: 1px solid var(--pm-border);
        border-radius: var(--pm-radius);
      }
      h2 {
        margin: 0;
        font-size: 17px;
      }
      input {
        color: var(--pm-text);
      }
      #dir {
        font-family: var(--pm-mono);
      }
      .buttons {
        display: flex;
        justify-content: flex-end;
        gap: 8px;
      }
    `,
  ];

  private readonly adding = new PendingActionController(this);

  override async firstUpdated(): Promise<void> {
    this.renderRoot.querySelector<HTMLInputElement>('#dir')?.focus();
  }

  private close(): void {
    this.dispatchEvent(new Event('close'));
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const dir = String(data.get('dir') ?? '').trim();
    const name = String(data.get('name') ?? '').trim();
    if (!dir) {
      this.adding.fail('Enter a directory on the machine running pocketmux, like ~/code/project.');
      return;
    }
    const body: CreateWorkspaceBody = name ? { dir, name } : { dir };
    if (!(await this.adding.run(() => sessionActions.request(this, 'pm-workspace-create', body)))) return;
    this.close();
  }

  override render() {
    return html`<form @submit=${this.submit} novalidate>
      <h2>Add workspace</h2>
      <label>
        Directory on the agent's machine
        <input
          id="dir"
          name="dir"
          placeholder="~/code/project"
          autocomplete="off"
          autocapitalize="off"
          spellcheck="false"
          enterkeyhint="next"
          ?disabled=${this.adding.busy}
        />
      </label>
      <label>
        Name (optional)
        <input name="name" placeholder="the folder's name" maxlength=${NAME_MAX} autocomplete="off" enterkeyhint="done" ?disabled=${this.adding.busy} />
      </label>
      ${this.adding.error ? html`<div class="error" role="alert">${this.adding.error}</div>` : nothing}
      <div class="buttons">
        <button type="button" @click=${this.close}>Cancel</button>
        <button class="primary" type="submit" ?disabled=${this.adding.busy}>Add</button>
      </div>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-add-workspace-form': AddWorkspaceForm;
  }
}
