import { css, html, nothing, type ReactiveControllerHost } from 'lit';
import { PendingActionController } from '../core/pending-action-controller.js';

/** The panel the host shows the actions in (its padding is the host's), and the menu's buttons. */
export const itemActionsPanel = css`
  .panel {
    display: flex;
    flex-direction: column;
    gap: 8px;
  }
  .actions {
    display: flex;
    gap: 8px;
    flex-wrap: wrap;
  }
`;

export type ItemMode = 'idle' | 'menu' | 'rename' | 'confirm-close' | 'setting';

/** What the actions panel says about the item it acts on. */
export interface ItemActionsText {
  /** The rename field's label. */
  nameLabel: string;
  /** The name the rename field starts from. */
  name: string;
  /** The close button, in the menu and on the confirmation. */
  closeAction: string;
  closeMessage: string;
  /** One more thing the menu opens, drawn by the item itself (a workspace's guardrail). */
  setting?: { action: string; render: () => unknown };
}

export interface ItemActions {
  rename(name: string): Promise<unknown>;
  close(): Promise<unknown>;
}

/**
 * The actions behind an item's "more" button (a workspace, a tab): a menu, then a rename
 * form or a confirmation to close, each showing progress and the agent's error in place.
 */
export class ItemActionsController extends PendingActionController {
  mode: ItemMode = 'idle';

  constructor(
    host: ReactiveControllerHost,
    private readonly actions: ItemActions,
  ) {
    super(host);
  }

  setMode(mode: ItemMode): void {
    // The panels' elements come with the menu: ready before any of its buttons is pressed.
    if (mode !== 'idle') void import('./item-action-panels.js');
    this.mode = mode;
    this.clearError();
  }

  toggleMenu(): void {
    this.setMode(this.mode === 'idle' ? 'menu' : 'idle');
  }

  /** Runs `work` with progress and its error shown in place; the panel closes once it is done. */
  async settle(work: () => Promise<unknown>): Promise<void> {
    if (await this.run(work)) this.setMode('idle');
  }

  renderError() {
    return this.error ? html`<div class="error" role="alert">${this.error}</div>` : nothing;
  }

  /** The panel for the current mode; nothing while idle. */
  renderPanel(text: ItemActionsText) {
    switch (this.mode) {
      case 'menu':
        return html`<div class="actions">
            <button @click=${() => this.setMode('rename')}>Rename</button>
            ${text.setting ? html`<button @click=${() => this.setMode('setting')}>${text.setting.action}</button>` : nothing}
            <button class="danger" @click=${() => this.setMode('confirm-close')}>${text.closeAction}</button>
          </div>
          ${this.renderError()}`;
      case 'rename':
        return html`<pm-rename-form
            label=${text.nameLabel}
            .value=${text.name}
            ?busy=${this.busy}
            @pm-save=${(e: CustomEvent<{ name: string }>) => this.settle(() => this.actions.rename(e.detail.name))}
            @pm-cancel=${() => this.setMode('idle')}
          ></pm-rename-form>
          ${this.renderError()}`;
      case 'confirm-close':
        return html`<pm-confirm-bar
            message=${text.closeMessage}
            action=${text.closeAction}
            ?busy=${this.busy}
            @pm-confirm=${() => this.settle(() => this.actions.close())}
            @pm-cancel=${() => this.setMode('idle')}
          ></pm-confirm-bar>
          ${this.renderError()}`;
      case 'setting':
        return html`${text.setting?.render() ?? nothing}${this.renderError()}`;
      default:
        return nothing;
    }
  }
}
