import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { PairBody } from '../../protocol/api.js';
import { NAME_MAX, PAIRING_CODE_ALPHABET, PAIRING_CODE_LENGTH } from '../../protocol/limits.js';
import { durationText } from '../../protocol/duration-text.js';
import { ACCESS_REFUSALS } from '../../protocol/refusals.js';
import * as api from '../core/api.js';
import { agentText } from '../core/agent-text.js';
import { screenCard } from '../ui/screen-card.js';
import { controls, fieldLabel } from '../ui/styles.js';
import type { Access, LostAccess } from '../core/access.js';
import { pair } from './pair-device.js';
import { ApiRequestError, errorText } from '../core/api-request.js';
import { guessThisDevice } from './device-name.js';

/** Characters a pairing code may hold, plus the dash people type in the middle. */
const NOT_IN_CODE = new RegExp(`[^-${PAIRING_CODE_ALPHABET}]`, 'g');
/** A character typed that no code holds, in either case (spaces are let pass): worth a hint. */
const NO_CODE_CHARACTER = new RegExp(`[^-\\s${PAIRING_CODE_ALPHABET}]`, 'i');
/** When the agent asks us to slow down without saying for how long. */
const DEFAULT_WAIT_S = 60;

function cleanCode(typed: string): string {
  return typed.toUpperCase().replace(NOT_IN_CODE, '');
}

/** What the screen says to a browser that was in before, by why the agent let it go. */
const LOST_NOTICES: Record<LostAccess, { title: string; text: string }> = {
  [ACCESS_REFUSALS.revoked]: {
    title: 'This device was removed',
    text: 'It was taken off the list of devices in Settings, so it is signed out. If you did not remove it, check that list on a device you trust. To use this one again, pair it.',
  },
  [ACCESS_REFUSALS.pairAgain]: {
    title: 'Pair this device again',
    text: 'It was paired by an older pocketmux, before each device had a key of its own. Pair it once more to go on: the key it gets never leaves this browser.',
  },
  [ACCESS_REFUSALS.unknown]: {
    title: 'Pair this device again',
    text: 'pocketmux no longer knows this browser: its list of devices was reset (another data directory, or a damaged devices file). Pair it again to go on.',
  },
  'cut-off': {
    title: 'Pair this device again',
    text: 'This browser is no longer paired: it was removed from the list of devices, or pocketmux no longer knows it. Pair it again to go on.',
  },
};

/**
 * Lets this browser in. Opened from a scanned `#pair=` URL it only asks for a device name;
 * otherwise it takes the short code the agent prints, for an installed app that cannot
 * open the URL (iOS keeps a home-screen app's storage apart from Safari's).
 * Fires `pm-paired` with the granted access.
 */
@customElement('pm-pair-screen')
export class PairScreen extends LitElement {
  static override styles = [
    controls,
    fieldLabel,
    screenCard,
    css`
      form {
        display: flex;
        flex-direction: column;
        gap: 16px;
      }
      /* The page's border-box rule stops at the shadow root. */
      input {
        box-sizing: border-box;
        width: 100%;
        color: var(--pm-text);
        font-size: 17px;
      }
      /* Big and spaced like the printed code, so it is easy to compare character by character. */
      #code {
        font-family: var(--pm-mono);
        font-size: 30px;
        font-weight: 600;
        letter-spacing: 0.14em;
        text-align: center;
        min-height: 64px;
        padding: 0 8px;
      }
      /* Fainter than a typed code, still readable (large text, 3:1 at least). */
      #code::placeholder {
        color: var(--pm-muted);
        opacity: 0.75;
      }
      .hint {
        font-size: 13px;
      }
      .notice {
        padding: 12px 14px;
        border-radius: 10px;
        background: var(--pm-warn-bg);
        border: 1px solid var(--pm-warn-border);
        color: var(--pm-text);
      }
      button.primary {
        min-height: 50px;
        font-size: 17px;
      }
      .switch {
        align-self: center;
        color: var(--pm-muted);
        text-decoration: underline;
        text-underline-offset: 3px;
      }
      .help {
        font-size: 14px;
        line-height: 1.5;
      }
      .help code {
        white-space: normal;
      }
    `,
  ];

  /** The secret from a `#pair=` URL, or null to ask for a code. */
  @property({ attribute: false }) secret: string | null = null;
  /** Why this browser, paired before, was cut off; null for one never paired. */
  @property({ attribute: false }) lost: LostAccess | null = null;

  @state() private mode: 'link' | 'code' = 'code';
  @state() private busy = false;
  @state() private error = '';
  /** Something typed that a code never holds was dropped; say why it did not appear. */
  @state() private alphabetHint = false;
  @state() private codeComplete = false;
  /** Until when the agent refuses more attempts from here (ms since the epoch, local clock). */
  @state() private waitUntil = 0;
  @state() private now = Date.now();
  /** How long a code works, as the agent says; null until it said. */
  @state() private validForSeconds: number | null = null;

  @query('#code') private codeInput!: HTMLInputElement | null;
  @query('#name') private nameInput!: HTMLInputElement | null;
  private readonly defaultName = guessThisDevice();
  private ticker: ReturnType<typeof setInterval> | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.askTerms();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopTicker();
  }

  /** The agent's own pairing time, to say instead of a number it may not use. */
  private async askTerms(): Promise<void> {
    try {
      this.validForSeconds = (await api.pairingTerms()).validForSeconds;
    } catch {
      // Unsaid rather than wrong: the help reads well without it.
      this.validForSeconds = null;
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('secret')) {
      this.mode = this.secret ? 'link' : 'code';
      this.error = '';
    }
  }

  protected override updated(changed: PropertyValues): void {
    // A typed code is what this screen is for; on a link the name is already filled in.
    if (changed.has('mode') && this.mode === 'code') this.codeInput?.focus();
  }

  private get waiting(): number {
    return Math.max(0, Math.ceil((this.waitUntil - this.now) / 1000));
  }

  private startTicker(): void {
    this.stopTicker();
    this.ticker = setInterval(() => {
      this.now = Date.now();
      if (this.waiting === 0) this.stopTicker();
    }, 1000);
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  private onCodeInput(e: Event): void {
    const input = e.currentTarget as HTMLInputElement;
    const typed = input.value;
    const clean = cleanCode(typed);
    if (clean !== typed) {
      // Keep the caret where it was, less what was dropped before it.
      const caret = cleanCode(typed.slice(0, input.selectionStart ?? typed.length)).length;
      input.value = clean;
      input.setSelectionRange(caret, caret);
    }
    this.codeComplete = clean.replace(/-/g, '').length === PAIRING_CODE_LENGTH;
    if (NO_CODE_CHARACTER.test(typed)) this.alphabetHint = true;
    else if (clean === '' || this.codeComplete) this.alphabetHint = false;
    if (this.error) this.error = '';
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    if (this.busy || this.waiting > 0) return;
    const deviceName = this.nameInput?.value.trim() ?? '';
    let body: PairBody;
    if (this.mode === 'link' && this.secret) {
      body = { secret: this.secret };
    } else {
      const code = this.codeInput?.value.trim() ?? '';
      if (!this.codeComplete) {
        this.error = `A code has ${PAIRING_CODE_LENGTH} characters, like 7KQ2-M9XD.`;
        return;
      }
      body = { code };
    }
    if (deviceName) body.deviceName = deviceName;
    this.busy = true;
    this.error = '';
    try {
      const access = await pair(body);
      this.dispatchEvent(new CustomEvent<Access>('pm-paired', { detail: access, bubbles: true, composed: true }));
    } catch (err) {
      this.failed(err);
    } finally {
      this.busy = false;
    }
  }

  private failed(err: unknown): void {
    if (err instanceof ApiRequestError && err.status === 429) {
      this.now = Date.now();
      this.waitUntil = this.now + (err.retryAfter ?? DEFAULT_WAIT_S) * 1000;
      this.startTicker();
      return;
    }
    this.error = errorText(err);
    // A refused link is spent or expired; a code is the way left.
    if (err instanceof ApiRequestError && err.status === 401 && this.mode === 'link') this.mode = 'code';
  }

  override render() {
    const link = this.mode === 'link';
    const waiting = this.waiting;
    const lost = this.lost ? LOST_NOTICES[this.lost] : null;
    return html`<main class="card">
      <img class="logo" src="/icon.svg" alt="" />
      <h1>${lost?.title ?? 'Pair this device'}</h1>
      ${lost ? html`<div class="notice" role="status">${lost.text}</div>` : nothing}
      <form @submit=${this.submit} novalidate>
        ${link
          ? html`<p>You opened a pairing link from pocketmux. Give this device a name you will recognise in the list of devices.</p>`
          : html`<p>Enter the code pocketmux shows on your computer.</p>
              <label
                >Pairing code
                <input
                  id="code"
                  name="code"
                  placeholder="XXXX-XXXX"
                  maxlength=${PAIRING_CODE_LENGTH + 1}
                  inputmode="text"
                  autocapitalize="characters"
                  autocomplete="one-time-code"
                  autocorrect="off"
                  spellcheck="false"
                  enterkeyhint="next"
                  aria-describedby="code-hint"
                  @input=${this.onCodeInput}
                />
                <span id="code-hint" class="hint" aria-live="polite"
                  >${this.alphabetHint ? 'Codes hold only the digits 2–9 and letters other than I, L and O.' : ''}</span
                >
              </label>`}
        <label
          >Device name
          <input
            id="name"
            name="deviceName"
            .value=${this.defaultName}
            maxlength=${NAME_MAX}
            autocomplete="off"
            autocapitalize="words"
            enterkeyhint="go"
          />
        </label>
        <button class="primary" type="submit" ?disabled=${this.busy || waiting > 0}>${this.busy ? 'Pairing…' : 'Pair'}</button>
        ${waiting > 0
          ? html`<div class="problem" role="alert">Too many wrong tries from this network. Wait ${waiting} s, then try again.</div>`
          : this.error
            ? html`<div class="problem" role="alert">${agentText(this.error)}</div>`
            : nothing}
      </form>
      ${link
        ? html`<button type="button" class="ghost switch" @click=${() => {
            this.mode = 'code';
            this.error = '';
          }}>Type a code instead</button>`
        : html`<p class="help">
            No code? On your computer, run <code>pocketmux pair</code> (the command that started the agent, with <code>pair</code> in place
            of <code>start</code>), or open Settings on a browser that is already paired.
            ${this.validForSeconds === null ? 'A code works once.' : `A code works once, for ${durationText(this.validForSeconds)}.`}
          </p>`}
    </main>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-pair-screen': PairScreen;
  }
}
