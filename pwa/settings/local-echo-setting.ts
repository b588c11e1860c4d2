import { css, html, LitElement } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { chooseLocalEcho, LOCAL_ECHO_STORAGE_KEY, localEchoChosen } from '../core/local-echo-choice.js';
import { controls } from '../ui/styles.js';
import { settingsChoice, settingsSection } from './section-styles.js';

/** "Show typing at once" (the terminal's local echo), for this device only. */
@customElement('pm-local-echo-setting')
export class LocalEchoSetting extends LitElement {
  static override styles = [
    controls,
    settingsSection,
    settingsChoice,
    css`
      .card {
        flex-direction: column;
        padding: 0;
      }
      .texts {
        flex: 1 1 auto;
        min-width: 0;
        display: flex;
        flex-direction: column;
        gap: 4px;
      }
    `,
  ];

  @state() private on = localEchoChosen();
  /** The choice made in another window of the app. */
  private readonly onStorage = (e: StorageEvent) => {
    if (e.key === LOCAL_ECHO_STORAGE_KEY || e.key === null) this.on = localEchoChosen();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.on = localEchoChosen();
    window.addEventListener('storage', this.onStorage);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('storage', this.onStorage);
  }

  private choose(on: boolean): void {
    this.on = on;
    chooseLocalEcho(on);
  }

  override render() {
    return html`<section aria-labelledby="local-echo-heading">
      <h2 id="local-echo-heading">Terminal on this device</h2>
      <div class="card">
        <label class="choice">
          <span class="texts">
            <span class="label" id="local-echo-label">Show typing at once</span>
            <span class="detail" id="local-echo-detail"
              >What you type shows before the computer's echo comes back, and gives way to what it draws. Only once this line's echo has been seen, so a password prompt shows nothing.</span
            >
          </span>
          <input
            type="checkbox"
            role="switch"
            aria-labelledby="local-echo-label"
            aria-describedby="local-echo-detail"
            .checked=${this.on}
            @change=${(e: Event) => this.choose((e.target as HTMLInputElement).checked)}
          />
        </label>
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-local-echo-setting': LocalEchoSetting;
  }
}
