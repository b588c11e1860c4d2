import { css, html, LitElement } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { choosePhoneContext, PHONE_CONTEXT_STORAGE_KEY, phoneContextChosen } from '../core/phone-context.js';
import { controls } from '../ui/styles.js';
import { settingsChoice, settingsSection } from './section-styles.js';

/** "Tell Claude when I write from my phone", for this device only. */
@customElement('pm-phone-context-setting')
export class PhoneContextSetting extends LitElement {
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

  @state() private on = phoneContextChosen();
  /** The choice made in another window of the app. */
  private readonly onStorage = (e: StorageEvent) => {
    if (e.key === PHONE_CONTEXT_STORAGE_KEY || e.key === null) this.on = phoneContextChosen();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.on = phoneContextChosen();
    window.addEventListener('storage', this.onStorage);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('storage', this.onStorage);
  }

  private choose(on: boolean): void {
    this.on = on;
    choosePhoneContext(on);
  }

  override render() {
    return html`<section aria-labelledby="phone-context-heading">
      <h2 id="phone-context-heading">Claude on this device</h2>
      <div class="card">
        <label class="choice">
          <span class="texts">
            <span class="label" id="phone-context-label">Tell Claude when I write from my phone</span>
            <span class="detail" id="phone-context-detail"
              >A prompt sent from a phone-size screen asks Claude for short answers, no wide tables and small code blocks. Only that prompt.</span
            >
          </span>
          <input
            type="checkbox"
            role="switch"
            aria-labelledby="phone-context-label"
            aria-describedby="phone-context-detail"
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
    'pm-phone-context-setting': PhoneContextSetting;
  }
}
