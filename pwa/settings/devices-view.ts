import { css, html, LitElement, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { DeviceBinding, DeviceView, PairingResponse } from '../../protocol/api.js';
import { agentText } from '../core/agent-text.js';
import '../ui/confirm-bar.js';
import { backIcon, plusIcon } from '../ui/icons.js';
import '../pairing/pairing-panel.js';
import './notifications-section.js';
import './theme-setting.js';
import './phone-context-setting.js';
import './local-echo-setting.js';
import './user-hooks-section.js';
import './machines-section.js';
import { controls, pageBar } from '../ui/styles.js';
import { settingsListStyles } from './settings-styles.js';
import * as api from '../core/api.js';
import { errorText } from '../core/api-request.js';
import { router } from '../core/router.js';
import { relativeTime } from '../core/time.js';

/** How often the list is asked again while a pairing is shown, to see the new device arrive. */
const PAIRING_POLL_MS = 3_000;

interface ShownPairing {
  response: PairingResponse;
  /** Expiry on this browser's clock. */
  deadline: number;
  /**
   * Devices that existed when it was made; any other that shows up paired with it. Null while
   * the list was not loaded yet: the next list read is taken as that, never as a device joining.
   */
  before: ReadonlySet<string> | null;
}

/**
 * When a pairing expires on this browser's clock. The phone's clock may be minutes off the
 * agent's, so the time left is measured against the agent's own `Date` header.
 */
function localDeadline(pairing: PairingResponse, agentDate: string | null): number {
  const expires = Date.parse(pairing.expiresAt);
  const agentNow = agentDate ? Date.parse(agentDate) : Number.NaN;
  const left = Number.isNaN(agentNow) ? expires - Date.now() : expires - agentNow;
  // Never longer than the agent's own limit: a deadline further away comes from a skewed clock.
  return Date.now() + Math.min(Math.max(left, 0), pairing.validForSeconds * 1000);
}

function pairedDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** What a device's binding means for the person, where it is not the usual key. */
const BINDING_NOTES: Record<DeviceBinding, string> = {
  key: '',
  cookie: 'Paired over plain HTTP: its cookie alone signs it in. Pair it over HTTPS to bind it to its browser.',
  'pair-again': 'Paired by an older version: pair it again to use it.',
};

/**
 * Settings: the devices that may use this agent (pair a new one, see when each was last seen,
 * revoke one), then notifications, the theme and Claude's hooks.
 */
@customElement('pm-devices-view')
export class DevicesView extends LitElement {
  static override styles = [
    controls,
    settingsListStyles,
    pageBar,
    css`
      .bar-inner {
        gap: 4px;
        /* The back arrow's drawing, not its tap area, lines up with the content. */
        padding-left: calc(6px + var(--pm-safe-left));
      }
      .pair {
        align-self: flex-start;
      }
      .name span:first-child {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .badge {
        flex: none;
        font-size: 12px;
        font-weight: 600;
        padding: 1px 8px;
        border-radius: 999px;
        color: var(--pm-accent);
        border: 1px solid color-mix(in srgb, var(--pm-accent) 45%, transparent);
      }
      .revoke {
        flex: none;
        color: var(--pm-danger);
      }
      .placeholder {
        padding: 32px 8px;
        text-align: center;
        color: var(--pm-muted);
      }
      code {
        font-family: var(--pm-mono);
        font-size: 0.92em;
      }
    `,
  ];

  @state() private devices: DeviceView[] | null = null;
  @state() private loadError = '';
  @state() private pairing: ShownPairing | null = null;
  @state() private pairingBusy = false;
  @state() private pairingError = '';
  /** The name of a device that just paired with the pairing shown here. */
  @state() private joined = '';
  @state() private confirming: string | null = null;
  @state() private revoking: string | null = null;
  @state() private revokeError: { id: string; message: string } | null = null;
  @state() private now = Date.now();

  private clock: ReturnType<typeof setInterval> | null = null;
  private poll: ReturnType<typeof setInterval> | null = null;
  private readonly onVisibility = () => {
    if (document.visibilityState === 'visible') void this.load();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('visibilitychange', this.onVisibility);
    // Relative "last seen" times move on while the page stays open.
    this.clock = setInterval(() => {
      this.now = Date.now();
    }, 1_000);
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('visibilitychange', this.onVisibility);
    if (this.clock) clearInterval(this.clock);
    this.clock = null;
    this.stopPolling();
  }

  private async load(): Promise<void> {
    try {
      const { devices } = await api.devices();
      this.devices = devices;
      this.loadError = '';
      this.noticeJoined(devices);
    } catch (err) {
      this.loadError = errorText(err);
    }
  }

  /** A device the shown pairing let in: the pairing is spent, so it goes away. */
  private noticeJoined(devices: DeviceView[]): void {
    const shown = this.pairing;
    if (!shown) return;
    if (shown.before === null) {
      shown.before = new Set(devices.map((d) => d.id));
      return;
    }
    const before = shown.before;
    const added = devices.find((d) => !before.has(d.id));
    if (!added) return;
    this.joined = added.name;
    this.closePairing();
  }

  private async newPairing(): Promise<void> {
    this.pairingBusy = true;
    this.pairingError = '';
    this.joined = '';
    try {
      // Not loaded yet (Settings just opened): every device listed then would read as one joining.
      const before = this.devices === null ? null : new Set(this.devices.map((d) => d.id));
      const { body, headers } = await api.newPairing();
      this.pairing = { response: body, deadline: localDeadline(body, headers.get('date')), before };
      // The clock ticks once a second; a countdown started from an older tick would show 10:01.
      this.now = Date.now();
      this.startPolling();
    } catch (err) {
      this.pairingError = errorText(err);
    } finally {
      this.pairingBusy = false;
    }
  }

  private closePairing(): void {
    this.pairing = null;
    this.stopPolling();
  }

  private startPolling(): void {
    this.stopPolling();
    this.poll = setInterval(() => {
      if (this.pairing && Date.now() >= this.pairing.deadline) this.stopPolling();
      else if (document.visibilityState === 'visible') void this.load();
    }, PAIRING_POLL_MS);
  }

  private stopPolling(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
  }

  private async revoke(device: DeviceView): Promise<void> {
    this.revoking = device.id;
    this.revokeError = null;
    try {
      await api.revokeDevice(device.id);
      this.confirming = null;
      this.devices = (this.devices ?? []).filter((d) => d.id !== device.id);
      // Revoking this very browser ends here: its sockets close and the pair screen follows.
      if (!device.current) void this.load();
    } catch (err) {
      this.revokeError = { id: device.id, message: errorText(err) };
    } finally {
      this.revoking = null;
    }
  }

  override render() {
    return html`
      <header class="bar">
        <div class="bar-inner">
          <button class="ghost icon" aria-label="Back to sessions" @click=${() => router.toList()}>${backIcon()}</button>
          <h1>Settings</h1>
        </div>
      </header>
      <main>
        <h2 id="devices-heading">Devices</h2>
        <p class="intro">Browsers, phones and linked computers that can open your sessions. Revoking one signs it out at once.</p>
        ${this.joined ? html`<div class="note" role="status">“${this.joined}” is paired.</div>` : nothing}
        ${this.pairing
          ? html`<pm-pairing-panel
              .pairing=${this.pairing.response}
              .deadline=${this.pairing.deadline}
              .now=${this.now}
              ?busy=${this.pairingBusy}
              @pm-new-code=${() => this.newPairing()}
              @pm-close=${() => this.closePairing()}
            ></pm-pairing-panel>`
          : html`<button class="primary pair" ?disabled=${this.pairingBusy} @click=${() => this.newPairing()}>
              ${plusIcon()} ${this.pairingBusy ? 'Getting a code…' : 'Pair a new device'}
            </button>`}
        ${this.pairingError ? html`<div class="error" role="alert">${agentText(this.pairingError)}</div>` : nothing}
        ${this.renderDevices()}
        <pm-machines-section></pm-machines-section>
        <pm-notifications-settings></pm-notifications-settings>
        <pm-theme-setting></pm-theme-setting>
        <pm-phone-context-setting></pm-phone-context-setting>
        <pm-local-echo-setting></pm-local-echo-setting>
        <pm-user-hooks-status></pm-user-hooks-status>
      </main>
    `;
  }

  private renderDevices() {
    if (this.devices === null) {
      return this.loadError
        ? html`<div class="placeholder" role="alert">${agentText(this.loadError)}</div>`
        : html`<div class="placeholder" role="status">Loading devices…</div>`;
    }
    // This browser first: it is the one the person is holding.
    const sorted = [...this.devices].sort((a, b) => Number(b.current) - Number(a.current));
    return html`<ul aria-labelledby="devices-heading">
      ${repeat(
        sorted,
        (d) => d.id,
        (d) => this.renderDevice(d),
      )}
    </ul>`;
  }

  private renderDevice(d: DeviceView) {
    const seen = d.current ? 'active now' : d.lastSeenAt ? `seen ${relativeTime(d.lastSeenAt, this.now)}` : 'not seen since pairing';
    const meta = [d.platform, `paired ${pairedDate(d.pairedAt)}`, seen].filter(Boolean).join(' · ');
    return html`<li data-device-id=${d.id}>
      <div class="row">
        <div class="info">
          <div class="name">
            <span><bdi>${d.name}</bdi></span>${d.current ? html`<span class="badge">This device</span>` : nothing}${d.kind === 'machine'
              ? html`<span class="badge">Linked machine</span>`
              : nothing}
          </div>
          <div class="meta">${meta}</div>
          ${BINDING_NOTES[d.binding] ? html`<div class="meta binding">${BINDING_NOTES[d.binding]}</div>` : nothing}
        </div>
        ${this.confirming === d.id
          ? nothing
          : html`<button class="ghost revoke" aria-label=${`Revoke ${d.name}`} @click=${() => {
              this.confirming = d.id;
              this.revokeError = null;
            }}>Revoke</button>`}
      </div>
      ${this.confirming === d.id
        ? html`<pm-confirm-bar
            message=${d.current
              ? 'Revoke this device? This browser is signed out at once and must be paired again.'
              : d.kind === 'machine'
                ? `Revoke “${d.name}”? That computer stops following this one's sessions until it is linked again.`
                : `Revoke “${d.name}”? It is signed out at once and must be paired again.`}
            action="Revoke"
            ?busy=${this.revoking === d.id}
            @pm-confirm=${() => this.revoke(d)}
            @pm-cancel=${() => {
              this.confirming = null;
            }}
          ></pm-confirm-bar>`
        : nothing}
      ${this.revokeError?.id === d.id ? html`<div class="error" role="alert">${agentText(this.revokeError.message)}</div>` : nothing}
    </li>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-devices-view': DevicesView;
  }
}
