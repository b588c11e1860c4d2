import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { DIALOG_SHOWN_ERROR } from '../../protocol/approvals.js';
import { changesSummary } from '../../protocol/changes-summary.js';
import { visibleLines } from '../../protocol/safe-text.js';
import { agentText } from '../core/agent-text.js';
import { errorText } from '../core/api-request.js';
import { isDialogShown, showDialogCard } from '../core/dialog-shown.js';
import { checkIcon, sendIcon } from '../ui/icons.js';
import { router, tabViewPath } from '../core/router.js';
import { controls } from '../ui/styles.js';
import { cardStyles } from './card-styles.js';
import { ClockController } from './clock-controller.js';
import { inboxActions } from './inbox-actions.js';
import { messageField } from './message-field.js';
import { ageText, agentName, awayNote, canOpenTerminal, OFFLINE_CARD_NOTE, placeHasTimeline, placeNames, replyTarget, type TabEntry } from '../core/inbox-items.js';

/** Said instead of the reply field for a Claude started outside tmux. */
export const NO_TERMINAL_REPLY = 'No terminal to type into: this Claude was started outside tmux. Answer it in its terminal on the machine.';

/**
 * What was written in each session's reply, while the page lives: a reply refused because
 * Claude shows a dialog is still there when the card comes back after it.
 */
const replyDrafts = new Map<string, string>();

/**
 * A session whose Claude finished its turn (a tab, or a Claude started outside pocketmux):
 * Claude's last answer, a field for the next prompt where there is a terminal to type it
 * into, and "Done" for a result seen here that needs nothing more.
 */
@customElement('pm-review-card')
export class ReviewCard extends LitElement {
  static override styles = [
    controls,
    cardStyles,
    css`
      .message {
        margin: 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        line-height: 1.45;
        display: -webkit-box;
        -webkit-box-orient: vertical;
        -webkit-line-clamp: 4;
        line-clamp: 4;
        overflow: hidden;
      }
      .message.open {
        display: block;
        max-height: 60vh;
        overflow-y: auto;
        overscroll-behavior: contain;
      }
      .message.none {
        color: var(--pm-muted);
      }
      button.more {
        align-self: flex-start;
        min-height: 36px;
        margin: -6px 0 0 -8px;
        padding: 0 8px;
        border-color: transparent;
        background: transparent;
        color: var(--pm-accent);
        font-size: 14px;
      }
      form {
        display: flex;
        gap: 8px;
      }
      .changes {
        font-family: var(--pm-mono);
      }
      form input {
        flex: 1 1 auto;
        min-height: 48px;
      }
      form button {
        min-height: 48px;
        padding: 0 16px;
      }
      .sent {
        font-size: 14px;
        color: var(--pm-muted);
      }
    `,
  ];

  @property({ attribute: false }) entry!: TabEntry;
  /** Saved while the agent is out of reach: read, with no reply, no Done and no terminal. */
  @property({ type: Boolean }) offline = false;

  @state() private reply = '';
  @state() private pending: 'reply' | 'done' | null = null;
  @state() private error = '';
  @state() private sent = false;
  @state() private expanded = false;
  /** Whether the answer is longer than the lines it is clamped to. */
  @state() private clamped = false;
  @query('.message') private message!: HTMLElement | null;
  private readonly clock = new ClockController(this);
  private readonly resize = new ResizeObserver(() => this.measure());
  /** The turn this card was made for: a new answer starts it over. */
  private shownSince = 0;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resize.disconnect();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('entry') && changed.get('entry')?.key !== this.entry.key) this.reply = replyDrafts.get(this.entry.key) ?? '';
    if (changed.has('entry') && this.entry.status.since !== this.shownSince) {
      this.shownSince = this.entry.status.since;
      this.sent = false;
      this.expanded = false;
      this.error = '';
    }
  }

  protected override updated(): void {
    const el = this.message;
    if (el) this.resize.observe(el);
    this.measure();
  }

  private measure(): void {
    const el = this.message;
    if (!el || this.expanded) return;
    const clamped = el.scrollHeight > el.clientHeight + 1;
    if (clamped !== this.clamped) this.clamped = clamped;
  }

  /** Read, with no reply: the agent is out of reach, or the machine the session is on is. */
  private get readOnly(): boolean {
    return this.offline || this.entry.away !== undefined;
  }

  private async send(): Promise<void> {
    const text = this.reply.trim();
    if (!text || this.pending) return;
    this.pending = 'reply';
    this.error = '';
    // Put away before it is sent: the turn it starts can end, and its new card be drawn from
    // the drafts, before this request has its answer.
    const key = this.entry.key;
    const draft = replyDrafts.get(key);
    replyDrafts.delete(key);
    try {
      await inboxActions.request(this, 'pm-tab-reply', { tabId: key, text });
      // The tab turns busy on the status channel and the card leaves by itself.
      this.reply = '';
      this.sent = true;
    } catch (err) {
      if (draft !== undefined && !replyDrafts.has(key)) replyDrafts.set(key, draft);
      // The reply stays in its field; what to answer first is the dialog's card.
      this.error = isDialogShown(err) ? `Not sent: ${DIALOG_SHOWN_ERROR}. Your reply stays here.` : errorText(err);
      if (isDialogShown(err)) showDialogCard(this, this.entry.key);
    } finally {
      this.pending = null;
    }
  }

  private async done(): Promise<void> {
    if (this.pending) return;
    this.pending = 'done';
    this.error = '';
    try {
      await inboxActions.request(this, 'pm-tab-dismiss', { tabId: this.entry.key });
    } catch (err) {
      this.error = errorText(err);
    } finally {
      this.pending = null;
    }
  }

  override render() {
    const { key, place, status } = this.entry;
    const names = placeNames(place, key);
    const agent = agentName(place);
    const busy = this.pending !== null;
    const message = status.lastMessage;
    return html`<article class="card review" aria-label=${`Ready for review: ${names.tab} in ${names.workspace}`}>
      <div class="top">
        <span class="kind">${checkIcon()}<span><bdi>${names.tab}</bdi></span></span>
        <span class="where">
          <span class="name"><bdi>${names.workspace}</bdi></span><span aria-hidden="true">·</span>
          <span class="age">${ageText(status.since, this.clock.now)}</span>
        </span>
      </div>
      ${message
        ? html`<p class="message ${this.expanded ? 'open' : ''}" id="answer"><span class="visually-hidden">${agent}: </span>${visibleLines(message)}</p>
            ${this.clamped || this.expanded
              ? html`<button class="more" aria-expanded=${this.expanded} aria-controls="answer" @click=${() => (this.expanded = !this.expanded)}>
                  ${this.expanded ? 'less' : 'more'}
                </button>`
              : nothing}`
        : html`<p class="message none">${agent} finished its turn.</p>`}
      ${this.renderChanges()}
      ${this.renderReply()}
      ${this.error ? html`<div class="error" role="alert">${agentText(this.error)}</div>` : nothing}
      <div class="links">
        ${canOpenTerminal(place, key) && !this.readOnly ? html`<button @click=${() => router.go(tabViewPath(key, 'terminal'))}>Open terminal</button>` : nothing}
        ${placeHasTimeline(place, status) && !this.entry.away ? html`<button @click=${() => router.go(tabViewPath(key, 'timeline'))}>Timeline</button>` : nothing}
        ${this.readOnly
          ? nothing
          : html`<button class="end" ?disabled=${busy} @click=${() => this.done()}>${this.pending === 'done' ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}Done</button>`}
      </div>
    </article>`;
  }

  /** What the turn changed, when the agent compared it: a way into its review. */
  private renderChanges() {
    const total = this.entry.status.turnChanges;
    if (!total || total.files === 0) return nothing;
    const words = changesSummary(total);
    // Looks as "more" does: a quiet line of the card that opens what it names.
    if (this.readOnly) return html`<p class="changes muted">${words}</p>`;
    return html`<button class="more changes" @click=${() => router.go(tabViewPath(this.entry.key, 'changes'))}>${words}<span class="visually-hidden">: review them</span></button>`;
  }

  private renderReply() {
    if (this.offline) return html`<p class="offline">${OFFLINE_CARD_NOTE}</p>`;
    if (this.entry.away) return html`<p class="offline" role="status">${awayNote(this.entry.away, 'reply', new Date(this.clock.now))}</p>`;
    const target = replyTarget(this.entry.place);
    if (target === 'none') return html`<p class="sent no-terminal">${NO_TERMINAL_REPLY}</p>`;
    // Without Claude the pane is a shell: a reply typed there would run as a command.
    const agent = agentName(this.entry.place);
    if (!this.entry.status.claudeRunning) return html`<p class="sent">${agent} is no longer running ${target === 'tab' ? 'in this tab' : 'in its pane'}.</p>`;
    if (this.sent) return html`<p class="sent" role="status">Sent. ${agent} is on it.</p>`;
    const busy = this.pending !== null;
    return html`<form
      @submit=${(e: Event) => {
        e.preventDefault();
        void this.send();
      }}
    >
      ${messageField({
        label: `Reply to ${agent}`,
        placeholder: `Reply to ${agent}…`,
        maxLength: 8000,
        value: this.reply,
        disabled: busy,
        onInput: (value) => {
          this.reply = value;
          if (value) replyDrafts.set(this.entry.key, value);
          else replyDrafts.delete(this.entry.key);
        },
      })}
      <button type="submit" class="primary" ?disabled=${busy || this.reply.trim() === ''}>
        ${this.pending === 'reply' ? html`<span class="spinner" aria-hidden="true"></span>` : sendIcon()}Send
      </button>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-review-card': ReviewCard;
  }
}
