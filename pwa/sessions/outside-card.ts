import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import type { TabStatus } from '../../protocol/status.js';
import { awayMachine, OUTSIDE_GROUP, startedElsewhere } from '../core/labels.js';
import { outsideAttentionCount, outsideGroupState, STATE_LABEL } from '../core/tab-status.js';
import '../ui/status-dot.js';
import { groupCard } from './group-card-styles.js';
import './outside-row.js';

/**
 * The Claude sessions started outside pocketmux (in the person's own tmux, an editor's
 * terminal, a terminal window) that report here through the user hooks: one group after the
 * workspaces, with no actions of its own.
 */
@customElement('pm-outside-card')
export class OutsideCard extends LitElement {
  static override styles = [
    groupCard,
    css`
    :host {
      display: block;
      font-family: var(--pm-font);
      color: var(--pm-text);
    }
    header {
      display: flex;
      flex-direction: column;
      padding: 12px 16px 10px;
      border-bottom: 1px solid var(--pm-border);
    }
    .about {
      color: var(--pm-muted);
      font-size: 14px;
    }
  `,
  ];

  @property({ attribute: false }) sessions: readonly OutsideSessionView[] = [];
  /** Claude statuses by key, as the status channel last reported them. */
  @property({ attribute: false }) statuses: Readonly<Record<string, TabStatus>> = {};
  /** Read-only, while the agent is out of reach. */
  @property({ type: Boolean }) offline = false;
  /** The sessions the desktop split shows. */
  @property({ attribute: false }) onScreen: ReadonlySet<string> = new Set();

  override render() {
    const keys = this.sessions.map((s) => s.key);
    const state = outsideGroupState(keys, this.statuses);
    const waiting = outsideAttentionCount(keys, this.statuses);
    return html`<section aria-label=${OUTSIDE_GROUP}>
      <header>
        <div class="name">
          ${state ? html`<pm-status-dot state=${state} label=${`${OUTSIDE_GROUP}: ${STATE_LABEL[state].toLowerCase()}`}></pm-status-dot>` : nothing}
          <h2>${OUTSIDE_GROUP}</h2>
          ${waiting > 0 ? html`<span class="waiting ${state ?? ''}">${waiting} waiting</span>` : nothing}
        </div>
        <div class="about">${startedElsewhere(this.sessions)}</div>
      </header>
      <ul>
        ${repeat(
          this.sessions,
          (s) => s.key,
          (s) => html`<li><pm-outside-row data-key=${s.key} .session=${s} .status=${this.statuses[s.key]} ?offline=${this.offline || !!awayMachine(s.machine)} ?shown=${this.onScreen.has(s.key)}></pm-outside-row></li>`,
        )}
      </ul>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-outside-card': OutsideCard;
  }
}
