import { css, html, LitElement } from 'lit';
import { state } from 'lit/decorators.js';
import { controls } from '../ui/styles.js';
import { settingsChoice, settingsSection } from './section-styles.js';

/** One choice of this device, kept in its storage: what a switch setting reads and writes. */
export interface DeviceSwitch {
  /** The storage key, to follow the choice made in another window of the app. */
  storageKey: string;
  chosen(): boolean;
  choose(on: boolean): void;
  /** A prefix for the element ids the section's labels point at. */
  id: string;
  heading: string;
  label: string;
  detail: string;
}

/**
 * A settings section with one switch for a choice of this device only, which follows the
 * choice when another window of the app changes it. Each setting is a subclass naming its
 * choice and its own element.
 */
export abstract class DeviceSwitchSetting extends LitElement {
  static override styles = [
    controls,
    settingsSection,
    settingsChoice,
    css`
      .card {
        flex-direction: column;
        padding: 0;
      }
    `,
  ];

  protected abstract readonly choice: DeviceSwitch;

  @state() private on = false;
  private readonly onStorage = (e: StorageEvent) => {
    if (e.key === this.choice.storageKey || e.key === null) this.on = this.choice.chosen();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.on = this.choice.chosen();
    window.addEventListener('storage', this.onStorage);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('storage', this.onStorage);
  }

  private choose(on: boolean): void {
    this.on = on;
    this.choice.choose(on);
  }

  override render() {
    const { id, heading, label, detail } = this.choice;
    return html`<section aria-labelledby="${id}-heading">
      <h2 id="${id}-heading">${heading}</h2>
      <div class="card">
        <label class="choice">
          <span class="texts">
            <span class="label" id="${id}-label">${label}</span>
            <span class="detail" id="${id}-detail">${detail}</span>
          </span>
          <input
            type="checkbox"
            role="switch"
            aria-labelledby="${id}-label"
            aria-describedby="${id}-detail"
            .checked=${this.on}
            @change=${(e: Event) => this.choose((e.target as HTMLInputElement).checked)}
          />
        </label>
      </div>
    </section>`;
  }
}
