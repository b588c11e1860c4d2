import { css, html, LitElement, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { MachineReach, MachineView } from '../../protocol/machines.js';
import * as api from './machines-api.js';
import { errorText } from '../core/api-request.js';
import { agentText } from '../core/agent-text.js';
import { relativeTime } from '../core/time.js';
import '../ui/confirm-bar.js';
import { plusIcon } from '../ui/icons.js';
import { controls, fieldLabel } from '../ui/styles.js';
import { settingsListStyles } from './settings-styles.js';

/** How each machine's answer reads, beside its name. */
const REACH_WORDS: Readonly<Record<MachineReach, string>> = {
  ok: 'Answers',
  unreachable: 'Unreachable',
  certificate: 'Certificate changed',
  revoked: 'Removed there',
  refused: 'Refused',
  unknown: 'Checking…',
};

const TRUST_WORDS: Readonly<Record<MachineView['trust'], string>> = {
  pinned: 'its own certificate, pinned',
  ca: 'HTTPS a CA vouches for',
  loopback: 'this computer',
};

/**
 * Settings: the other computers running pocketmux that this agent (the one this phone is
 * paired with) links to, whether each answers and why not, linking one with the code it
 * printed, and removing one (which also takes this agent off its devices).
 */
@customElement('pm-machines-section')
export class MachinesSection extends LitElement {
  static override styles = [
    controls,
    fieldLabel,
    settingsListStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        gap: 12px;
      }
      code {
        font-family: var(--pm-mono);
        font-size: 0.92em;
        user-select: all;
        -webkit-user-select: all;
      }
      .name bdi {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .reach {
        flex: none;
        font-size: 12px;
        font-weight: 600;
        padding: 1px 8px;
        border-radius: 999px;
        color: var(--pm-muted);
        border: 1px solid var(--pm-border);
      }
      .reach.ok {
        color: var(--pm-accent);
        border-color: color-mix(in srgb, var(--pm-accent) 45%, transparent);
      }
      .reach.bad {
        color: var(--pm-warn);
        border-color: var(--pm-warn-border);
      }
      .problem {
        font-size: 14px;
        overflow-wrap: anywhere;
      }
      .remove {
        flex: none;
        color: var(--pm-danger);
      }
      form {
        display: flex;
        flex-direction: column;
        gap: 10px;
        padding: 14px;
        background: var(--pm-surface);
        border: 1px solid var(--pm-border);
        border-radius: var(--pm-radius);
      }
      textarea,
      input {
        font: inherit;
        font-size: 16px;
        color: var(--pm-text);
        background: var(--pm-bg);
        border: 1px solid var(--pm-border);
        border-radius: 10px;
        padding: 10px 12px;
        min-height: 44px;
        box-sizing: border-box;
        width: 100%;
      }
      textarea {
        font-family: var(--pm-mono);
        font-size: 14px;
        min-height: 88px;
        resize: vertical;
        word-break: break-all;
      }
      .buttons {
        display: flex;
        justify-content: flex-end;
        gap: 8px;
      }
      .add {
        align-self: flex-start;
      }
      .placeholder {
        color: var(--pm-muted);
      }
    `,
  ];

  @state() private machines: MachineView[] | null = null;
  @state() private loadError = '';
  @state() private adding = false;
  @state() private busy = false;
  @state() private addError = '';
  @state() private done = '';
  @state() private confirming: string | null = null;
  @state() private removeError: { id: string; message: string } | null = null;
  @state() private now = Date.now();

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      // Listed at once as last known, then again once each machine was asked.
      if (this.machines === null) this.machines = (await api.machines(false)).machines;
      this.machines = (await api.machines(true)).machines;
      this.now = Date.now();
      this.loadError = '';
    } catch (err) {
      this.loadError = errorText(err);
    }
  }

  private async link(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const code = String(data.get('code') ?? '').trim();
    const name = String(data.get('name') ?? '').trim();
    if (!code) {
      this.addError = 'Paste the code `pocketmux machines link-code` printed on the other computer.';
      return;
    }
    this.busy = true;
    this.addError = '';
    try {
      const machine = await api.addMachine({ code, ...(name ? { name } : {}) });
      this.done = `“${machine.name}” is linked.`;
      this.adding = false;
      void this.load();
    } catch (err) {
      this.addError = errorText(err);
    } finally {
      this.busy = false;
    }
  }

  private async unlink(machine: MachineView): Promise<void> {
    this.busy = true;
    this.removeError = null;
    try {
      const result = await api.removeMachine(machine.id);
      this.confirming = null;
      this.machines = (this.machines ?? []).filter((m) => m.id !== machine.id);
      this.done = result.told
        ? `“${machine.name}” is unlinked, and no longer lists this computer among its devices.`
        : `“${machine.name}” is unlinked here, but could not be told (${result.problem ?? 'no answer'}): revoke this computer in its Settings there.`;
    } catch (err) {
      this.removeError = { id: machine.id, message: errorText(err) };
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`
      <h2 id="machines-heading">Machines</h2>
      <p class="intro">Other computers running pocketmux, linked to this one over HTTPS so this phone reaches them too.</p>
      ${this.done ? html`<div class="note" role="status">${this.done}</div>` : nothing}
      ${this.renderList()}
      ${this.adding
        ? html`<form @submit=${(e: SubmitEvent) => this.link(e)} aria-label="Link a machine">
            <label
              >On the other computer, run <code>pocketmux machines link-code</code>, then paste its code here
              <textarea name="code" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="pmlink1.…"></textarea>
            </label>
            <label>Name (optional)<input name="name" autocomplete="off" maxlength="80" placeholder="The name it suggests" /></label>
            ${this.addError ? html`<div class="error" role="alert">${agentText(this.addError)}</div>` : nothing}
            <div class="buttons">
              <button type="button" class="ghost" @click=${() => {
                this.adding = false;
                this.addError = '';
              }}>Cancel</button>
              <button type="submit" class="primary" ?disabled=${this.busy}>${this.busy ? 'Linking…' : 'Link'}</button>
            </div>
          </form>`
        : html`<button class="add" @click=${() => {
            this.adding = true;
            this.done = '';
          }}>${plusIcon()} Link a machine</button>`}
    `;
  }

  private renderList() {
    if (this.machines === null) {
      return this.loadError
        ? html`<div class="placeholder" role="alert">${agentText(this.loadError)}</div>`
        : html`<div class="placeholder" role="status">Loading machines…</div>`;
    }
    if (this.machines.length === 0) return nothing;
    return html`<ul aria-labelledby="machines-heading">
      ${repeat(
        this.machines,
        (m) => m.id,
        (m) => this.renderMachine(m),
      )}
    </ul>`;
  }

  private renderMachine(m: MachineView) {
    const seen = m.lastSeenAt ? `answered ${relativeTime(m.lastSeenAt, this.now)}` : 'never answered';
    const meta = [new URL(m.url).host, TRUST_WORDS[m.trust], seen].join(' · ');
    const reachClass = m.reach === 'ok' ? 'ok' : m.reach === 'unknown' ? '' : 'bad';
    return html`<li data-machine-id=${m.id}>
      <div class="row">
        <div class="info">
          <div class="name"><bdi>${m.name}</bdi><span class="reach ${reachClass}">${REACH_WORDS[m.reach]}</span></div>
          <div class="meta">${meta}</div>
          ${m.problem ? html`<div class="problem">${agentText(m.problem)}</div>` : nothing}
        </div>
        ${this.confirming === m.id
          ? nothing
          : html`<button class="ghost remove" aria-label=${`Unlink ${m.name}`} @click=${() => {
              this.confirming = m.id;
              this.removeError = null;
            }}>Unlink</button>`}
      </div>
      ${this.confirming === m.id
        ? html`<pm-confirm-bar
            message=${`Unlink “${m.name}”? Its sessions leave this phone, and it forgets this computer.`}
            action="Unlink"
            ?busy=${this.busy}
            @pm-confirm=${() => this.unlink(m)}
            @pm-cancel=${() => {
              this.confirming = null;
            }}
          ></pm-confirm-bar>`
        : nothing}
      ${this.removeError?.id === m.id ? html`<div class="error" role="alert">${agentText(this.removeError.message)}</div>` : nothing}
    </li>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-machines-section': MachinesSection;
  }
}
