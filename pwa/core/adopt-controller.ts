import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { PendingActionController } from './pending-action-controller.js';
import { terminalPath } from './router.js';
import { adoptQuestion } from './labels.js';
import { sessionActions } from './session-actions.js';

/**
 * "Adopt" for a Claude started outside pocketmux, wherever it is offered (its row, its screen's
 * header): a confirmation that says what happens, then the request, its progress and the
 * agent's refusal in place; once adopted, the new tab's terminal. `go` is how to get there:
 * a new history step from the list, a replacement from the session's own screen (it is gone).
 */
export class AdoptController extends PendingActionController {
  confirming = false;

  constructor(
    private readonly element: ReactiveControllerHost & HTMLElement,
    private readonly go: (path: string) => void,
  ) {
    super(element);
  }

  toggle(): void {
    this.confirming = !this.confirming;
    // The confirmation's element is fetched when first asked for: most visits never adopt.
    if (this.confirming) void import('../ui/confirm-bar.js');
    this.clearError();
  }

  cancel(): void {
    this.confirming = false;
    this.clearError();
  }

  private async adopt(key: string): Promise<void> {
    const adopted = await this.run(() => sessionActions.request(this.element, 'pm-outside-adopt', { key }));
    if (!adopted) {
      // The agent's reason, as a sentence: "its claude process is not known yet…".
      this.fail(this.error.charAt(0).toUpperCase() + this.error.slice(1));
      return;
    }
    this.confirming = false;
    this.go(terminalPath(adopted.value.id));
  }

  /**
   * The button that opens and closes the confirmation, for the session named `name`. The host
   * passes its glyph: this controller importing the icons moves lit out of the first screen's
   * chunk.
   */
  renderButton(name: string, glyph: TemplateResult) {
    return html`<button
      class="icon ghost adopt"
      aria-label=${`Adopt ${name} as a pocketmux tab`}
      title="Adopt as a pocketmux tab"
      aria-expanded=${this.confirming}
      @click=${() => this.toggle()}
    >
      ${glyph}
    </button>`;
  }

  /** The confirmation and what became of it; nothing until asked for. */
  renderPanel(session: Pick<OutsideSessionView, 'key' | 'terminal'>) {
    if (!this.confirming) return nothing;
    return html`<pm-confirm-bar
        message=${adoptQuestion(session.terminal)}
        action=${this.busy ? 'Adopting…' : 'Adopt'}
        ?busy=${this.busy}
        @pm-confirm=${() => this.adopt(session.key)}
        @pm-cancel=${() => this.cancel()}
      ></pm-confirm-bar>
      ${this.error ? html`<div class="error" role="alert">${this.error}</div>` : nothing}`;
  }
}
