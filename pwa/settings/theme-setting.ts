import { css, html, LitElement } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { controls } from '../ui/styles.js';
import { settingsSection } from './section-styles.js';
import { currentTheme, onThemeChange, type Theme } from '../ui/theme.js';
import { saveThemeChoice, THEME_CHOICES, THEME_STORAGE_KEY, type ThemeChoice, themeChoice } from '../ui/theme-choice.js';

const CHOICE_LABEL: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Theme: System, Light or Dark, for this device only. */
@customElement('pm-theme-setting')
export class ThemeSetting extends LitElement {
  static override styles = [
    controls,
    settingsSection,
    css`
      fieldset {
        flex-direction: column;
        gap: 10px;
        margin: 0;
        min-width: 0;
      }
      .segments {
        display: flex;
        max-width: 420px;
        padding: 3px;
        gap: 3px;
        border-radius: 12px;
        background: var(--pm-bg);
        border: 1px solid var(--pm-field-border);
      }
      label {
        position: relative;
        flex: 1 1 0;
        display: grid;
        place-items: center;
        min-height: var(--pm-tap);
        padding: 0 10px;
        border-radius: 9px;
        color: var(--pm-muted);
        font-weight: 600;
        cursor: pointer;
        -webkit-tap-highlight-color: transparent;
      }
      label:has(input:checked) {
        background: var(--pm-surface-3);
        color: var(--pm-text);
        box-shadow: inset 0 0 0 1px var(--pm-field-border);
      }
      label:has(input:focus-visible) {
        outline: 2px solid var(--pm-accent);
        outline-offset: 1px;
      }
      input {
        /* The radio covers its segment, unseen: taps, the keyboard and screen readers reach it. */
        position: absolute;
        inset: 0;
        width: 100%;
        height: 100%;
        min-height: 0;
        margin: 0;
        opacity: 0;
        cursor: pointer;
      }
      p {
        margin: 0;
        font-size: 14px;
        color: var(--pm-muted);
      }
    `,
  ];

  @state() private choice: ThemeChoice = themeChoice();
  @state() private shown: Theme = currentTheme();
  private stopListening: (() => void) | null = null;
  /** The choice made in another window of the app. */
  private readonly onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY || e.key === null) this.choice = themeChoice();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.choice = themeChoice();
    this.shown = currentTheme();
    this.stopListening = onThemeChange((theme) => {
      this.shown = theme;
    });
    window.addEventListener('storage', this.onStorage);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopListening?.();
    this.stopListening = null;
    window.removeEventListener('storage', this.onStorage);
  }

  private choose(choice: ThemeChoice): void {
    this.choice = choice;
    saveThemeChoice(choice);
  }

  override render() {
    // Named by the heading above; the legend groups the radios for screen readers only.
    return html`<section aria-labelledby="theme-heading">
      <h2 id="theme-heading">Theme on this device</h2>
      <fieldset class="card">
        <legend class="visually-hidden">Theme</legend>
        <div class="segments">
          ${THEME_CHOICES.map(
            (c) => html`<label>
              <input type="radio" name="theme" value=${c} .checked=${this.choice === c} @change=${() => this.choose(c)} />${CHOICE_LABEL[c]}
            </label>`,
          )}
        </div>
        <p>${this.choice === 'system' ? `Follows this device's setting: ${this.shown} now.` : `${CHOICE_LABEL[this.choice]}, whatever this device's setting.`}</p>
      </fieldset>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-theme-setting': ThemeSetting;
  }
}
