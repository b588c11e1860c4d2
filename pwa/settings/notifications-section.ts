import { css, html, LitElement, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import type { PushSubscriptionBody } from '../../protocol/api.js';
import type { PushSettings } from '../../protocol/push.js';
import { browserError, browserFacts, currentSubscription, workerRegistration } from '../push/browser-push.js';
import {
  type AgentView,
  type BrowserFacts,
  blockedText,
  blockerOf,
  type NotificationsState,
  notificationsState,
  PUSH_CHOICES,
  sameKey,
  urlBase64ToUint8Array,
} from '../push/push-state.js';
import { agentText } from '../core/agent-text.js';
import * as api from '../core/api.js';
import { ApiRequestError, errorText } from '../core/api-request.js';
import { bellIcon } from '../ui/icons.js';
import { controls } from '../ui/styles.js';
import { settingsChoice, settingsGlyph, settingsSection } from './section-styles.js';

type Busy = 'enable' | 'disable' | 'test' | null;

/** What the agent knows about this device, with its key for checking the browser's subscription. */
type AgentState = (AgentView & { publicKey: string }) | { error: string } | null;

/** Subscribes this browser to the agent's key, or throws the browser's own error. */
async function subscribe(registration: ServiceWorkerRegistration, publicKey: string): Promise<PushSubscription> {
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToUint8Array(publicKey) });
}

/**
 * Notifications for this browser only: whether it can be pushed at all (and, when not, what
 * to do about it), turning them on and off, what is pushed, and a test notification.
 */
@customElement('pm-notifications-settings')
export class NotificationsSettings extends LitElement {
  static override styles = [
    controls,
    settingsSection,
    settingsGlyph,
    settingsChoice,
    css`
      .card {
        flex-direction: column;
        gap: 14px;
      }
      .head {
        display: flex;
        align-items: flex-start;
        gap: 12px;
      }
      .blocked .glyph {
        background: color-mix(in srgb, var(--pm-warn) 14%, transparent);
        color: var(--pm-warn);
      }
      .title {
        font-weight: 650;
      }
      p {
        margin: 0;
        color: var(--pm-muted);
        font-size: 15px;
        overflow-wrap: anywhere;
      }
      p.todo {
        color: var(--pm-text);
      }
      .blocked .texts {
        gap: 8px;
      }
      .choices {
        display: flex;
        flex-direction: column;
        margin: 0 -16px;
        border-top: 1px solid var(--pm-surface-2);
        border-bottom: 1px solid var(--pm-surface-2);
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 8px;
      }
      .actions .off {
        margin-left: auto;
        color: var(--pm-danger);
      }
      .note {
        padding: 10px 12px;
        border-radius: 10px;
        font-size: 15px;
        background: color-mix(in srgb, var(--pm-accent) 12%, var(--pm-surface));
        border: 1px solid color-mix(in srgb, var(--pm-accent) 35%, transparent);
      }
      .error {
        font-size: 15px;
      }
      code {
        font-family: var(--pm-mono);
        font-size: 0.92em;
      }
    `,
  ];

  @state() private facts: BrowserFacts = browserFacts();
  @state() private agent: AgentState = null;
  /** Whether this browser holds a subscription: null when it could not be asked. */
  @state() private browserSubscribed: boolean | null = null;
  @state() private busy: Busy = null;
  @state() private saving: keyof PushSettings | null = null;
  @state() private error = '';
  @state() private note = '';
  private loading: Promise<void> | null = null;
  /** Back from the system's settings (where a blocked permission is allowed again): look again. */
  private readonly onVisibility = () => {
    if (document.visibilityState === 'visible' && this.busy === null) this.reload();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('visibilitychange', this.onVisibility);
    this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('visibilitychange', this.onVisibility);
  }

  private reload(): void {
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
  }

  /** Reads both ends, and quietly hands the agent a subscription this browser has and it lacks. */
  private async load(): Promise<void> {
    this.facts = browserFacts();
    if (blockerOf(this.facts)) return;
    let agent: AgentState;
    try {
      const state = await api.pushState();
      agent = { subscribed: state.subscribed, settings: state.settings, publicKey: state.publicKey };
    } catch (err) {
      this.agent = { error: errorText(err) };
      return;
    }
    const registration = await workerRegistration();
    let subscription = await currentSubscription(registration);
    if (registration && subscription && !sameKey(subscription.options?.applicationServerKey, agent.publicKey)) {
      // Made for another key (the agent's data was reset): pushes signed now would be refused.
      await subscription.unsubscribe().catch(() => false);
      subscription = await subscribe(registration, agent.publicKey).catch(() => null);
      if (subscription) agent.subscribed = false;
    }
    if (subscription && !agent.subscribed) {
      try {
        await api.pushSubscribe(subscription.toJSON() as PushSubscriptionBody);
        agent.subscribed = true;
      } catch (err) {
        this.error = `The agent did not take this browser's subscription: ${errorText(err)}`;
      }
    }
    this.agent = agent;
    this.browserSubscribed = subscription === undefined ? null : subscription !== null;
  }

  private get shown(): NotificationsState {
    return notificationsState(this.facts, this.agent, this.browserSubscribed);
  }

  private async enable(): Promise<void> {
    if (this.busy) return;
    this.busy = 'enable';
    this.error = '';
    this.note = '';
    try {
      // Asked first, within the tap: Safari only asks from a person's gesture.
      const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
      this.facts = browserFacts();
      if (permission === 'denied') return;
      if (permission !== 'granted') {
        this.error = 'The browser did not allow notifications: its question was closed without an answer. Tap “Enable notifications” to be asked again.';
        return;
      }
      const registration = await workerRegistration();
      if (!registration) {
        this.error = "The app's service worker is not running, and it is what receives notifications. Reload the page and try again.";
        return;
      }
      const { publicKey } = await api.pushKey();
      let subscription = await registration.pushManager.getSubscription();
      if (subscription && !sameKey(subscription.options?.applicationServerKey, publicKey)) {
        await subscription.unsubscribe().catch(() => false);
        subscription = null;
      }
      try {
        subscription ??= await subscribe(registration, publicKey);
      } catch (err) {
        this.error = `The browser could not subscribe to notifications: ${browserError(err)}`;
        return;
      }
      try {
        await api.pushSubscribe(subscription.toJSON() as PushSubscriptionBody);
      } catch (err) {
        // Refused for good: keep no subscription the agent will never push to.
        if (err instanceof ApiRequestError && err.status >= 400 && err.status < 500) await subscription.unsubscribe().catch(() => false);
        this.error = `The agent did not take this browser's subscription: ${errorText(err)}`;
        return;
      }
      const state = await api.pushState();
      this.agent = { subscribed: state.subscribed, settings: state.settings, publicKey: state.publicKey };
      this.browserSubscribed = true;
    } catch (err) {
      this.error = errorText(err);
    } finally {
      this.busy = null;
    }
  }

  private async disable(): Promise<void> {
    if (this.busy) return;
    this.busy = 'disable';
    this.error = '';
    this.note = '';
    try {
      const subscription = await currentSubscription(await workerRegistration(2_000));
      await subscription?.unsubscribe().catch(() => false);
      this.browserSubscribed = subscription === undefined ? null : false;
      await api.pushUnsubscribe();
      const agent = this.agent;
      if (agent && !('error' in agent)) this.agent = { ...agent, subscribed: false };
    } catch (err) {
      this.error = `The agent still holds this browser's subscription: ${errorText(err)}`;
    } finally {
      this.busy = null;
    }
  }

  private async choose(key: keyof PushSettings, on: boolean): Promise<void> {
    const agent = this.agent;
    if (!agent || 'error' in agent) return;
    const before = agent.settings;
    this.agent = { ...agent, settings: { ...before, [key]: on } };
    this.saving = key;
    this.error = '';
    try {
      const settings = await api.pushSettings({ [key]: on });
      const now = this.agent;
      if (now && !('error' in now)) this.agent = { ...now, settings };
    } catch (err) {
      const now = this.agent;
      if (now && !('error' in now)) this.agent = { ...now, settings: { ...now.settings, [key]: before[key] } };
      this.error = `Not saved: ${errorText(err)}`;
    } finally {
      this.saving = null;
    }
  }

  private async test(): Promise<void> {
    if (this.busy) return;
    this.busy = 'test';
    this.error = '';
    this.note = '';
    try {
      await api.pushTest();
      this.note = 'Sent. It should arrive within a few seconds; if it does not, check that the system lets this browser show notifications.';
    } catch (err) {
      this.error = errorText(err);
      // The agent dropped the subscription (the push service said it is gone): show that.
      if (err instanceof ApiRequestError && err.status === 409) this.reload();
    } finally {
      this.busy = null;
    }
  }

  private retry(): void {
    this.agent = null;
    this.error = '';
    this.reload();
  }

  override render() {
    return html`<section aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Notifications on this device</h2>
      ${this.renderCard(this.shown)}
    </section>`;
  }

  private renderCard(state: NotificationsState) {
    switch (state.kind) {
      case 'blocked': {
        const text = blockedText(state.blocker, this.facts.platform);
        return html`<div class="card blocked" data-state=${`blocked-${state.blocker}`}>
          <div class="head">
            <span class="glyph">${bellIcon()}</span>
            <div class="texts" role="status">
              <span class="title">${text.title}</span>
              <p>${text.why}</p>
              <p class="todo">${text.todo}</p>
              ${text.note ? html`<p>${text.note}</p>` : nothing}
            </div>
          </div>
        </div>`;
      }
      case 'loading':
        return html`<div class="card" data-state="loading"><p role="status">Checking notifications…</p></div>`;
      case 'load-failed':
        return html`<div class="card" data-state="load-failed">
          <div class="error" role="alert">${agentText(state.message)}</div>
          <div class="actions"><button @click=${() => this.retry()}>Try again</button></div>
        </div>`;
      case 'off':
        return html`<div class="card off" data-state="off">
          <div class="head">
            <span class="glyph">${bellIcon()}</span>
            <div class="texts">
              <span class="title">Off on this browser</span>
              <p>Get a notification here when Claude asks for approval, waits for you, or finishes, even while pocketmux is closed. Each device chooses for itself.</p>
            </div>
          </div>
          ${this.renderMessages()}
          <div class="actions">
            <button class="primary" ?disabled=${this.busy !== null} @click=${() => this.enable()}>
              ${this.busy === 'enable' ? 'Enabling…' : 'Enable notifications'}
            </button>
          </div>
        </div>`;
      case 'on':
        return html`<div class="card on" data-state="on">
          <div class="head">
            <span class="glyph">${bellIcon()}</span>
            <div class="texts">
              <span class="title">On for this browser</span>
              <p>Choose what is pushed here. A tab you have open in front of you is never pushed about.</p>
            </div>
          </div>
          <div class="choices">${PUSH_CHOICES.map((c) => this.renderChoice(c, state.settings))}</div>
          ${this.renderMessages()}
          <div class="actions">
            <button ?disabled=${this.busy !== null} @click=${() => this.test()}>${this.busy === 'test' ? 'Sending…' : 'Send a test notification'}</button>
            <button class="ghost off" ?disabled=${this.busy !== null} @click=${() => this.disable()}>
              ${this.busy === 'disable' ? 'Turning off…' : 'Turn off'}
            </button>
          </div>
        </div>`;
    }
  }

  private renderChoice(choice: (typeof PUSH_CHOICES)[number], settings: PushSettings) {
    const id = `choice-${choice.key}`;
    return html`<label class="choice">
      <span class="texts">
        <span class="label" id=${`${id}-label`}>${choice.label}</span>
        <span class="detail" id=${`${id}-detail`}>${choice.detail}</span>
      </span>
      <input
        type="checkbox"
        role="switch"
        aria-labelledby=${`${id}-label`}
        aria-describedby=${`${id}-detail`}
        .checked=${settings[choice.key]}
        ?disabled=${this.saving === choice.key}
        @change=${(e: Event) => this.choose(choice.key, (e.target as HTMLInputElement).checked)}
      />
    </label>`;
  }

  private renderMessages() {
    return html`${this.note ? html`<div class="note" role="status">${this.note}</div>` : nothing}
    ${this.error ? html`<div class="error" role="alert">${agentText(this.error)}</div>` : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-notifications-settings': NotificationsSettings;
  }
}
