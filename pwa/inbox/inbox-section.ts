import { css, html, LitElement, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { chevronIcon, closeIcon, terminalIcon } from '../ui/icons.js';
import { router, terminalPath } from '../core/router.js';
import { controls } from '../ui/styles.js';
import './approval-card.js';
import { ClockController } from './clock-controller.js';
import { ageText, canOpenTerminal, EMPTY_INBOX, type Inbox, placeNames, type TabEntry } from '../core/inbox-items.js';
import './review-card.js';

/** The inbox's note was tapped away. */
export const DISMISS_NOTE_EVENT = 'pm-inbox-note-dismiss';

/**
 * The top of the home screen: what Claude asks, the tabs where it waits in the terminal, and
 * the finished turns to review, in that order. Nothing at all when nothing waits.
 */
@customElement('pm-inbox')
export class InboxSection extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      section {
        display: flex;
        flex-direction: column;
        gap: 12px;
      }
      h2 {
        margin: 4px 2px -2px;
        font-size: 13px;
        font-weight: 650;
        letter-spacing: 0.05em;
        text-transform: uppercase;
        color: var(--pm-muted);
      }
      button.waiting {
        justify-content: flex-start;
        text-align: left;
        gap: 12px;
        min-height: 60px;
        padding: 8px 12px 8px 14px;
        border-radius: var(--pm-radius);
        background: var(--pm-surface);
        box-shadow: inset 3px 0 0 var(--pm-attention);
        white-space: normal;
      }
      .waiting .glyph {
        flex: none;
        display: grid;
        place-items: center;
        width: 34px;
        height: 34px;
        border-radius: 8px;
        background: color-mix(in srgb, var(--pm-attention) 12%, transparent);
        color: var(--pm-attention);
      }
      .waiting .texts {
        flex: 1 1 auto;
        min-width: 0;
        display: flex;
        flex-direction: column;
      }
      .waiting .what {
        font-weight: 600;
      }
      .waiting .where {
        display: flex;
        gap: 0.5ch;
        min-width: 0;
        color: var(--pm-muted);
        font-size: 14px;
        white-space: nowrap;
      }
      .waiting .where .name {
        min-width: 1.5em;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .waiting .where .age {
        flex: none;
      }
      .waiting .chevron {
        flex: none;
        color: var(--pm-muted);
      }
      button.link-note {
        justify-content: space-between;
        gap: 12px;
        min-height: 48px;
        padding: 8px 6px 8px 14px;
        border-radius: var(--pm-radius);
        background: color-mix(in srgb, var(--pm-review) 12%, var(--pm-surface));
        border-color: color-mix(in srgb, var(--pm-review) 35%, transparent);
        color: var(--pm-text);
        text-align: left;
        white-space: normal;
        animation: note-in 0.2s ease-out;
      }
      .link-note svg {
        flex: none;
        color: var(--pm-muted);
      }
      @keyframes note-in {
        from {
          opacity: 0;
          transform: translateY(-4px);
        }
      }
      @media (prefers-reduced-motion: reduce) {
        button.link-note {
          animation: none;
        }
      }
    `,
  ];

  @property({ attribute: false }) inbox: Inbox = EMPTY_INBOX;
  /** The approval a notification's link opened, highlighted a moment. */
  @property({ attribute: false }) highlight: string | null = null;
  /** A short word at the top (the linked request was already answered); a tap takes it away. */
  @property({ attribute: false }) note = '';
  /** The tabs on screen beside the inbox (the desktop split): their cards offer no way to where the person is. */
  @property({ attribute: false }) shown: ReadonlySet<string> = new Set();
  /** The last-known inbox, while the agent is out of reach: cards to read, not to answer. */
  @property({ type: Boolean }) offline = false;
  private readonly clock = new ClockController(this);

  protected override willUpdate(): void {
    const { approvals, waiting, review } = this.inbox;
    // An empty inbox takes no room at all: the sessions start at the top.
    this.hidden = approvals.length + waiting.length + review.length === 0 && !this.note;
  }

  /** Brings the card of approval `id` into view, once the inbox has drawn it. */
  async scrollToApproval(id: string): Promise<void> {
    await this.updateComplete;
    const card = this.renderRoot.querySelector(`pm-approval-card[data-approval-id="${CSS.escape(id)}"]`);
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    card?.scrollIntoView({ block: 'center', behavior: still ? 'auto' : 'smooth' });
  }

  override render() {
    const { approvals, waiting, review } = this.inbox;
    if (this.hidden) return nothing;
    const asking = approvals.length + waiting.length > 0;
    return html`<section aria-label="Inbox">
      ${this.note
        ? html`<button class="link-note" role="status" aria-label=${`${this.note}. Tap to dismiss.`} @click=${this.dismissNote}>
            <span>${this.note}</span>${closeIcon()}
          </button>`
        : nothing}
      ${asking ? html`<h2>Waiting for you</h2>` : nothing}
      ${repeat(
        approvals,
        (e) => e.approval.id,
        (e) =>
          html`<pm-approval-card
            data-approval-id=${e.approval.id}
            .entry=${e}
            ?highlight=${e.approval.id === this.highlight}
            ?here=${this.shown.has(e.approval.tabId)}
            ?offline=${this.offline}
          ></pm-approval-card>`,
      )}
      ${repeat(
        waiting,
        (e) => e.key,
        (e) => this.renderWaiting(e),
      )}
      ${review.length > 0 ? html`<h2>Ready for review</h2>` : nothing}
      ${repeat(
        review,
        (e) => e.key,
        (e) => html`<pm-review-card data-tab-id=${e.key} .entry=${e} ?offline=${this.offline}></pm-review-card>`,
      )}
    </section>`;
  }

  private readonly dismissNote = () => {
    this.dispatchEvent(new CustomEvent(DISMISS_NOTE_EVENT, { bubbles: true, composed: true }));
  };

  private renderWaiting(e: TabEntry) {
    const names = placeNames(e.place, e.key);
    // Without a terminal here, the tab view says where to answer it.
    const what = canOpenTerminal(e.place, e.key) ? 'Claude is waiting in the terminal' : 'Claude is waiting in its terminal on the machine';
    return html`<button
      class="waiting"
      data-tab-id=${e.key}
      aria-label=${`${what}: open ${names.tab} in ${names.workspace}`}
      @click=${() => router.go(terminalPath(e.key))}
    >
      <span class="glyph">${terminalIcon()}</span>
      <span class="texts">
        <span class="what">${what}</span>
        <span class="where">
          <span class="name"><bdi>${names.workspace}</bdi></span><span aria-hidden="true">·</span>
          <span class="name"><bdi>${names.tab}</bdi></span><span aria-hidden="true">·</span>
          <span class="age">${ageText(e.status.since, this.clock.now)}</span>
        </span>
      </span>
      <span class="chevron">${chevronIcon()}</span>
    </button>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-inbox': InboxSection;
  }
}
