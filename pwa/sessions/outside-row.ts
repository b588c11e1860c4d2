import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { AGENT_NAMES } from '../../protocol/agents.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import type { TabStatus } from '../../protocol/status.js';
import { adoptIcon, chevronIcon, sparkIcon, terminalIcon } from '../ui/icons.js';
import { router, tabViewPath } from '../core/router.js';
import { chip, controls } from '../ui/styles.js';
import { AdoptController } from '../core/adopt-controller.js';
import { outsideLabel } from '../core/labels.js';
import { rowStyles } from './row-styles.js';
import { canAdopt, describeStatus } from '../core/tab-status.js';
import { rowModeMark } from '../core/permission-mode.js';
import '../ui/status-dot.js';

/** Said in the row of a Claude started outside tmux, where the terminal button would be. */
export const NO_TERMINAL_LINE = 'No terminal: started outside tmux';

/**
 * A Claude started outside pocketmux: named by its project, with its status; opens its
 * timeline, and its terminal beside when it runs in tmux. It is the person's own session,
 * so there is nothing to rename or close here; between turns it can be adopted (its
 * conversation moved into a Claude tab), after a confirmation below the row.
 */
@customElement('pm-outside-row')
export class OutsideRow extends LitElement {
  static override styles = [
    controls,
    chip,
    rowStyles,
    css`
      /* Said whole, on a second line if the row is narrow: it is why there is no terminal button. */
      .no-terminal {
        color: var(--pm-muted);
        font-size: 13px;
        line-height: 1.3;
        white-space: normal;
      }
      .terminal,
      .adopt {
        align-self: center;
        color: var(--pm-muted);
      }
      /* Holds the adopt button's place while a turn runs, so the buttons beside it stay put. */
      .adopt-slot {
        flex: none;
        width: var(--pm-tap);
      }
      .adopt[aria-expanded='true'] {
        background: var(--pm-surface-2);
        color: var(--pm-text);
      }
      .panel {
        padding: 4px 4px 10px 56px;
        display: flex;
        flex-direction: column;
        gap: 8px;
      }
      /* On a phone the confirmation takes the row's width: its words are what matter. */
      @media (max-width: 560px) {
        .panel {
          padding-left: 4px;
        }
      }
    `,
  ];

  @property({ attribute: false }) session!: OutsideSessionView;
  /** Its Claude status, as the status channel last reported it under its key. */
  @property({ attribute: false }) status: TabStatus | undefined;
  /** Read-only, while the agent is out of reach: its saved timeline opens, nothing else is offered. */
  @property({ type: Boolean }) offline = false;
  /** Shown in a pane of the desktop split, beside the list. */
  @property({ type: Boolean, reflect: true }) shown = false;
  private readonly adoption = new AdoptController(this, (path) => router.go(path));

  override render() {
    const s = this.session;
    const label = outsideLabel(s.cwd);
    // An outside session is a Claude's or a Codex's: no status yet reads "No status yet".
    const agent = s.agent ?? 'claude';
    const status = describeStatus({ kind: agent }, this.status);
    const tmux = s.terminal === 'tmux';
    const mode = rowModeMark(this.status);
    // The words the row shows, in their order, after what a tap does (WCAG's label in name).
    const name = `Open the timeline of ${label.primary}${agent === 'claude' ? '' : ` (${AGENT_NAMES[agent]})`}${status ? `, ${status.text}` : ''}${mode ? `, ${mode.text} mode` : ''}${label.path ? `, ${label.path}` : ''}${tmux ? '' : `. ${NO_TERMINAL_LINE}`}`;
    // Offered between turns only; a confirmation already open stays, and the agent says why it refuses.
    const adoptable = !this.offline && (canAdopt(this.status, agent) || this.adoption.confirming);
    return html`
      <div class="row ${status?.attention ? status.state : ''}">
        <button class="open" aria-label=${name} aria-current=${this.shown ? 'true' : 'false'} @click=${() => router.go(tabViewPath(s.key, 'timeline'))}>
          <span class="glyph">
            ${sparkIcon()} ${status ? html`<pm-status-dot state=${status.state} label=${status.text}></pm-status-dot>` : nothing}
          </span>
          <span class="text">
            <span class="primary-line">
              <span class="primary-text"><bdi>${label.primary}</bdi></span>
              ${agent === 'claude' ? nothing : html`<span class="chip" aria-hidden="true">${AGENT_NAMES[agent]}</span>`}
              ${mode ? html`<span class="chip ${mode.tone}" aria-hidden="true">${mode.text}</span>` : nothing}
            </span>
            <span class="secondary-text">
              ${status ? html`<span class="state ${status.state}">${status.text}</span>` : nothing}
              ${status && label.path ? html`<span aria-hidden="true">·</span>` : nothing}
              ${label.path ? html`<span class="path"><bdi>${label.path}</bdi></span>` : nothing}
            </span>
            ${tmux ? nothing : html`<span class="no-terminal">${NO_TERMINAL_LINE}</span>`}
          </span>
          <span class="chevron">${chevronIcon()}</span>
        </button>
        ${tmux && !this.offline
          ? html`<button
              class="icon ghost terminal"
              aria-label=${`Open the terminal of ${label.primary}`}
              title="Open terminal"
              @click=${() => router.go(tabViewPath(s.key, 'terminal'))}
            >
              ${terminalIcon()}
            </button>`
          : nothing}
        ${adoptable
          ? this.adoption.renderButton(label.primary, adoptIcon())
          : this.offline
            ? nothing
            : html`<span class="adopt-slot"></span>`}
      </div>
      ${this.adoption.confirming ? html`<div class="panel">${this.adoption.renderPanel(s)}</div>` : nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-outside-row': OutsideRow;
  }
}
