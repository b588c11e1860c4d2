import { css, html, LitElement, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { DecisionBody } from '../../protocol/api.js';
import type { Approval, ApprovalQuestion } from '../../protocol/approvals.js';
import { DECISION_LIMITS } from '../../protocol/limits.js';
import { visibleLines, visibleText } from '../../protocol/safe-text.js';
import { agentText } from '../core/agent-text.js';
import { errorText } from '../core/api-request.js';
import { blockedIcon, questionIcon, shieldIcon, sparkIcon, terminalIcon } from '../ui/icons.js';
import { router, tabViewPath } from '../core/router.js';
import { controls } from '../ui/styles.js';
import { buildAnswers, emptyChoices, type QuestionChoice, sendsAtOnce, setOther, toggleChoice } from './answers.js';
import { cardStyles, optionStyles } from './card-styles.js';
import { paragraphs, withoutSharedIndent } from './dialog-text.js';
import { ClockController } from './clock-controller.js';
import { inboxActions } from './inbox-actions.js';
import { messageField } from './message-field.js';
import { agentName, type ApprovalEntry, ageText, awayNote, canOpenTerminal, diffLineKind, isOutsidePlace, OFFLINE_CARD_NOTE, placeNames } from '../core/inbox-items.js';
import { deadlineText } from '../core/guardrail.js';

let dialogAnswersAsked = false;

/** A dialog's answers are a chunk of their own, as most cards are no dialog: fetched when the first one shows. */
function loadDialogAnswers(): void {
  if (dialogAnswersAsked) return;
  dialogAnswersAsked = true;
  import('./dialog-answers.js').catch(() => {
    // Asked again by the next card drawn.
    dialogAnswersAsked = false;
  });
}

/** Which button started the decision in flight: it carries the spinner. */
type Pending = 'allow' | 'always' | 'deny' | 'answer' | `option-${string}` | null;

function kindWords(a: Approval, agent: string): { icon: unknown; text: string } {
  switch (a.kind) {
    case 'permission':
      return { icon: shieldIcon(), text: visibleText(a.tool ?? 'Permission') };
    case 'question':
      return { icon: questionIcon(), text: 'Question' };
    case 'plan':
      return { icon: sparkIcon(), text: 'Plan' };
    case 'dialog':
      // Read off the agent's screen, wherever that screen is: a tab, or a terminal on the machine.
      return { icon: terminalIcon(), text: `On ${agent}'s screen` };
    case 'block':
      return { icon: blockedIcon(), text: 'Blocked by auto mode' };
  }
}

/**
 * One thing Claude asks the person: a tool's permission, a question, a plan, or a dialog read
 * off the screen, with the answers it takes; or a call auto mode blocked, which Claude may be
 * let to retry. Deny and Approve stand large at opposite ends;
 * "Always allow" is a third choice of its own, worded as Claude suggested it.
 */
@customElement('pm-approval-card')
export class ApprovalCard extends LitElement {
  static override styles = [
    controls,
    cardStyles,
    optionStyles,
    css`
      /* Opened from a notification: a ring that fades, so the eye lands on this card. */
      :host([highlight]) .card {
        outline: 2px solid transparent;
        outline-offset: 2px;
        animation: linked 3s ease-out;
      }
      @keyframes linked {
        0%,
        50% {
          outline-color: var(--pm-accent);
          background: color-mix(in srgb, var(--pm-accent) 7%, var(--pm-surface));
        }
      }
      @media (prefers-reduced-motion: reduce) {
        :host([highlight]) .card {
          animation: none;
          outline-color: var(--pm-accent);
        }
      }
      .group {
        display: flex;
        flex-direction: column;
        gap: 8px;
        min-width: 0;
      }
      .group + .group {
        padding-top: 10px;
        border-top: 1px solid var(--pm-surface-2);
      }
      .question-text {
        font-weight: 650;
        overflow-wrap: anywhere;
        white-space: pre-wrap;
      }
      .qhead {
        display: inline-block;
        margin-right: 8px;
        padding: 1px 7px;
        border-radius: 6px;
        background: var(--pm-surface-3);
        color: var(--pm-muted);
        font-size: 12px;
        font-weight: 650;
        text-transform: uppercase;
        letter-spacing: 0.03em;
        vertical-align: 2px;
      }
      .hint {
        font-size: 13px;
        color: var(--pm-muted);
      }
      .option .tick {
        flex: none;
        width: 20px;
        height: 20px;
        border-radius: 6px;
        border: 2px solid var(--pm-field-border);
      }
      .option .tick.one {
        border-radius: 50%;
      }
      .option[aria-pressed='true'] .tick {
        border-color: var(--pm-accent);
        background: var(--pm-accent);
        box-shadow: inset 0 0 0 3px var(--pm-surface);
      }
      .paragraphs {
        display: flex;
        flex-direction: column;
        gap: 8px;
      }
      /* About eight lines folded: an offer's text shows whole, a notice's long one is a tap away. */
      .paragraphs.clamped {
        max-height: 12em;
        overflow: hidden;
      }
      /* Only text that goes on fades out where it is cut. */
      .paragraphs.clamped.cut {
        -webkit-mask-image: linear-gradient(to bottom, black 75%, transparent);
        mask-image: linear-gradient(to bottom, black 75%, transparent);
      }
      button.more {
        align-self: flex-start;
        min-height: var(--pm-tap);
        margin: -12px 0 -6px -8px;
        padding: 0 8px;
        border-color: transparent;
        background: transparent;
        color: var(--pm-accent);
        font-size: 14px;
      }
      /* An unread screen as Claude drew it: its columns kept, scrolled sideways on a phone. */
      pre.screen {
        white-space: pre;
        overflow-wrap: normal;
        font-size: 12px;
        line-height: 1.35;
      }
      .other {
        display: flex;
        gap: 8px;
      }
      .other input {
        flex: 1 1 auto;
        min-height: 48px;
      }
      .other button {
        min-height: 48px;
      }
      /* A guardrail's countdown: quiet, but before the answers, so it is read in time. */
      .deadline {
        display: flex;
        align-items: center;
        gap: 6px;
        color: var(--pm-muted);
        font-size: 14px;
      }
      .deadline svg {
        flex: none;
      }
      .kept {
        display: flex;
        align-items: center;
        gap: 8px;
      }
      .kept .note {
        flex: 1 1 auto;
        min-width: 0;
      }
      .kept button {
        flex: none;
      }
    `,
  ];

  @property({ attribute: false }) entry!: ApprovalEntry;
  /** Shown beside its own tab's terminal: no link to where the person already is. */
  @property({ type: Boolean }) here = false;
  /** The card a notification's link opened: ringed a moment, so the eye finds it. */
  @property({ type: Boolean, reflect: true }) highlight = false;
  /** Saved while the agent is out of reach: read, not answered (its controls are disabled, the terminal not offered). */
  @property({ type: Boolean }) offline = false;

  @state() private pending: Pending = null;
  @state() private error = '';
  @state() private denying = false;
  @state() private reason = '';
  @state() private choices: QuestionChoice[] = [];
  /** A dialog's text shown whole; and whether it is longer than the part shown folded. */
  @state() private expanded = false;
  @state() private overflows = false;
  @query('.paragraphs') private text!: HTMLElement | null;
  private readonly resize = new ResizeObserver(() => this.measure());
  private choicesFor = '';
  private readonly clock = new ClockController(this);

  private get approval(): Approval {
    return this.entry.approval;
  }

  /** Read, not answered: the agent is out of reach, or the machine whose Claude asks is. */
  private get readOnly(): boolean {
    return this.offline || this.entry.away !== undefined;
  }

  protected override willUpdate(): void {
    // A question's choices belong to that question: a card given another approval starts over.
    if (this.choicesFor !== this.approval.id) {
      this.choicesFor = this.approval.id;
      this.choices = emptyChoices(this.approval.questions);
      this.denying = false;
      this.reason = '';
      this.error = '';
      this.expanded = false;
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resize.disconnect();
  }

  protected override updated(): void {
    const el = this.text;
    if (el) this.resize.observe(el);
    this.measure();
  }

  private measure(): void {
    const el = this.text;
    if (!el || this.expanded) return;
    const overflows = el.scrollHeight > el.clientHeight + 1;
    if (overflows !== this.overflows) this.overflows = overflows;
  }

  private async send(pending: Exclude<Pending, null>, body: DecisionBody): Promise<void> {
    if (this.pending) return;
    this.pending = pending;
    this.error = '';
    try {
      await inboxActions.request(this, 'pm-approval-decide', { approval: this.approval, body });
    } catch (err) {
      this.error = errorText(err);
    } finally {
      this.pending = null;
    }
  }

  private deny(): void {
    const message = this.reason.trim();
    void this.send('deny', message ? { decision: 'deny', message } : { decision: 'deny' });
  }

  /** A tab's terminal; an outside session's only when it runs in tmux. */
  private get terminal(): boolean {
    return canOpenTerminal(this.entry.place, this.approval.tabId);
  }

  /** Where to answer what cannot be answered on the card: this session's terminal, here or on the machine. */
  private renderAnswerInTerminal(what: string, primary: boolean) {
    if (!this.terminal || this.readOnly) return html`<p class="description">${what} Answer it in its terminal on the machine.</p>`;
    return html`<p class="description">${what} Answer it in the terminal.</p>
      <button class="wide ${primary ? 'primary' : ''}" @click=${() => this.open('terminal')}>Open terminal</button>`;
  }

  private open(view: 'terminal' | 'timeline'): void {
    router.go(tabViewPath(this.approval.tabId, view));
  }

  override render() {
    const a = this.approval;
    const kind = kindWords(a, agentName(this.entry.place));
    const names = placeNames(this.entry.place, a.tabId);
    return html`<article class="card ${this.entry.note === null ? '' : 'settled'}" aria-label=${`${kind.text}: ${visibleText(a.summary.title)}`}>
      <div class="top">
        <span class="kind">${kind.icon}<span>${kind.text}</span></span>
        <span class="where">
          <span class="name"><bdi>${names.workspace}</bdi></span><span aria-hidden="true">·</span>
          <span class="name"><bdi>${names.tab}</bdi></span><span aria-hidden="true">·</span>
          <span class="age">${ageText(a.createdAt, this.clock.now)}</span>
        </span>
      </div>
      ${a.kind === 'question' && a.questions.length > 0 ? nothing : html`<h3 title=${visibleText(a.summary.title)}>${visibleText(a.summary.title)}</h3>`}
      ${this.entry.note === null ? this.renderBody() : this.renderNote(this.entry.note)}
    </article>`;
  }

  /** How it was settled; a card kept to say so (a guardrail decided) is put away by the person. */
  private renderNote(note: string) {
    if (!this.entry.kept) return html`<p class="note" role="status">${note}</p>`;
    return html`<div class="kept">
      <p class="note" role="status">${note}</p>
      <button @click=${() => void inboxActions.request(this, 'pm-settled-dismiss', { approvalId: this.approval.id })}>Dismiss</button>
    </div>`;
  }

  private renderReadOnlyNote() {
    if (this.offline) return html`<p class="offline">${OFFLINE_CARD_NOTE}</p>`;
    const away = this.entry.away;
    return away ? html`<p class="offline" role="status">${awayNote(away, 'answer it', new Date(this.clock.now))}</p>` : nothing;
  }

  /** When a guardrail denies this card if nobody answers it first, as the agent said when it opened. */
  private renderDeadline() {
    const deadline = this.readOnly ? null : deadlineText(this.approval, this.clock.now);
    return deadline === null ? nothing : html`<p class="deadline">${shieldIcon()}<span>${deadline}</span></p>`;
  }

  private renderBody() {
    const a = this.approval;
    return html`
      ${this.renderReadOnlyNote()}
      ${this.renderDeadline()}
      ${a.kind === 'dialog' ? this.renderDialogText() : a.summary.description ? html`<p class="description">${visibleLines(a.summary.description)}</p>` : nothing}
      ${a.kind === 'question' ? this.renderQuestions(a.questions) : a.kind === 'dialog' ? this.renderScreen() : this.renderSummary()}
      ${a.kind === 'permission' ? this.renderPermission() : nothing}
      ${a.kind === 'plan' || a.kind === 'dialog' ? this.renderDialogOptions() : nothing}
      ${a.kind === 'block' ? this.renderBlock() : nothing}
      ${this.error ? html`<div class="error" role="alert">${agentText(this.error)}</div>` : nothing}
      ${this.renderLinks()}
    `;
  }

  /** A dialog's paragraphs, folded to a few lines when long, with a way to read them all. */
  private renderDialogText() {
    const text = this.approval.summary.description;
    if (!text) return nothing;
    const folded = !this.expanded;
    return html`<div class="paragraphs description ${folded ? 'clamped' : ''} ${folded && this.overflows ? 'cut' : ''}" id="dialog-text">
        ${paragraphs(text).map((p) => html`<p>${visibleLines(p)}</p>`)}
      </div>
      ${this.overflows || this.expanded
        ? html`<button class="more" aria-expanded=${this.expanded} aria-controls="dialog-text" @click=${() => (this.expanded = !this.expanded)}>
            ${this.expanded ? 'Less' : 'Read all'}
          </button>`
        : nothing}`;
  }

  /** A screen the agent could not read, as the CLI drew it. */
  private renderScreen() {
    const body = this.approval.summary.body;
    return body ? html`<pre class="screen" tabindex="0" aria-label=${`${agentName(this.entry.place)}'s screen`}>${visibleLines(withoutSharedIndent(body))}</pre>` : nothing;
  }

  private renderSummary() {
    const s = this.approval.summary;
    return html`
      ${s.body ? html`<pre tabindex="0" aria-label="Details">${visibleLines(s.body)}</pre>` : nothing}
      ${s.diff && s.diff.length > 0
        ? html`<div class="diff" tabindex="0" role="group" aria-label="Changes">
            ${s.diff.map((line) => html`<div class=${diffLineKind(line)}>${visibleText(line)}</div>`)}
          </div>`
        : nothing}
      ${s.path && s.diff ? html`<div class="path"><bdi>${visibleText(s.path)}</bdi></div>` : nothing}
    `;
  }

  private spinner(which: Pending) {
    return this.pending === which ? html`<span class="spinner" aria-hidden="true"></span>` : nothing;
  }

  private renderPermission() {
    if (this.readOnly) return nothing;
    const busy = this.pending !== null;
    const always = this.approval.alwaysAllow;
    if (this.denying) {
      const agent = agentName(this.entry.place);
      return html`<form
        class="reason"
        @submit=${(e: Event) => {
          e.preventDefault();
          this.deny();
        }}
      >
        ${messageField({
          label: `Reason for ${agent} (optional)`,
          placeholder: `Tell ${agent} why (optional)`,
          maxLength: DECISION_LIMITS.message,
          value: this.reason,
          disabled: busy,
          onInput: (value) => {
            this.reason = value;
          },
        })}
        <div class="decide">
          <button type="submit" class="deny" ?disabled=${busy}>${this.spinner('deny')}Deny</button>
          <button type="button" ?disabled=${busy} @click=${() => (this.denying = false)}>Cancel</button>
        </div>
      </form>`;
    }
    return html`<div class="decide">
        <button class="deny" ?disabled=${busy} @click=${() => (this.denying = true)}>Deny</button>
        <button class="primary" ?disabled=${busy} @click=${() => this.send('allow', { decision: 'allow' })}>${this.spinner('allow')}Approve</button>
      </div>
      ${always
        ? html`<button class="wide quiet" ?disabled=${busy} @click=${() => this.send('always', { decision: 'allow-always' })}>
            ${this.spinner('always')}${visibleText(always)}
          </button>`
        : nothing}`;
  }

  private renderQuestions(questions: ApprovalQuestion[]) {
    const busy = this.pending !== null || this.readOnly;
    if (questions.length === 0) {
      return html`${this.renderSummary()} ${this.renderAnswerInTerminal('This question could not be read here.', false)}`;
    }
    const atOnce = sendsAtOnce(questions);
    const answers = buildAnswers(questions, this.choices);
    return html`
      ${questions.map((q, i) => this.renderQuestion(q, i, atOnce))}
      ${atOnce
        ? nothing
        : html`<button class="primary wide" ?disabled=${busy || answers === null} @click=${() => answers && this.send('answer', { decision: 'answer', answers })}>
            ${this.spinner('answer')}${questions.length === 1 ? 'Send answer' : 'Send answers'}
          </button>`}
      <button class="wide quiet" ?disabled=${busy} @click=${() => this.send('deny', { decision: 'deny' })}>
        ${this.spinner('deny')}Let Claude go without an answer
      </button>
    `;
  }

  private renderQuestion(q: ApprovalQuestion, index: number, atOnce: boolean) {
    const busy = this.pending !== null || this.readOnly;
    const choice = this.choices[index] ?? { chosen: [], other: '' };
    const text = visibleLines(q.question);
    const pick = (label: string) => {
      if (atOnce) {
        void this.send(`option-${label}`, { decision: 'answer', answers: { [q.question]: label } });
        return;
      }
      this.choices = toggleChoice(this.approval.questions, this.choices, index, label);
    };
    const sendOther = () => {
      const other = choice.other.trim();
      if (atOnce && other) void this.send('answer', { decision: 'answer', answers: { [q.question]: other } });
    };
    return html`<div class="group" role="group" aria-label=${text}>
      <div class="question-text">${q.header ? html`<span class="qhead"><bdi>${visibleText(q.header)}</bdi></span>` : nothing}${text}</div>
      ${q.multiSelect ? html`<span class="hint">Choose any that apply.</span>` : nothing}
      <div class="options">
        ${q.options.map(
          (o) => html`<button
            class="option"
            aria-pressed=${atOnce ? nothing : choice.chosen.includes(o.label) ? 'true' : 'false'}
            ?disabled=${busy}
            @click=${() => pick(o.label)}
          >
            ${atOnce ? nothing : html`<span class="tick ${q.multiSelect ? '' : 'one'}" aria-hidden="true"></span>`}
            <span class="texts">
              <span class="label">${visibleText(o.label)}</span>
              ${o.description ? html`<span class="desc">${visibleLines(o.description)}</span>` : nothing}
            </span>
            ${this.spinner(`option-${o.label}`)}
          </button>`,
        )}
      </div>
      <form
        class="other"
        @submit=${(e: Event) => {
          e.preventDefault();
          sendOther();
        }}
      >
        <input
          aria-label=${`Other answer: ${text}`}
          placeholder="Other…"
          maxlength=${DECISION_LIMITS.answer}
          autocomplete="off"
          enterkeyhint=${atOnce ? 'send' : 'done'}
          .value=${choice.other}
          ?disabled=${busy}
          @input=${(e: Event) => {
            this.choices = setOther(this.approval.questions, this.choices, index, (e.target as HTMLInputElement).value);
          }}
        />
        ${atOnce ? html`<button type="submit" ?disabled=${busy || choice.other.trim() === ''}>${this.spinner('answer')}Send</button>` : nothing}
      </form>
    </div>`;
  }

  private renderDialogOptions() {
    const a = this.approval;
    const busy = this.pending !== null || this.readOnly || this.entry.following === true;
    if (a.options.length === 0) {
      return this.renderAnswerInTerminal('Could not read this dialog from the screen.', true);
    }
    loadDialogAnswers();
    return html`<pm-dialog-answers
      .options=${a.options}
      .agent=${agentName(this.entry.place)}
      ?busy=${busy}
      .pending=${this.pending?.startsWith('option-') ? this.pending.slice('option-'.length) : null}
      @pm-dialog-press=${(e: CustomEvent<string>) => this.send(`option-${e.detail}`, { decision: 'answer', option: e.detail })}
    ></pm-dialog-answers>
    ${this.entry.following ? html`<p class="note" role="status">Sent. Waiting for ${agentName(this.entry.place)}'s next screen…</p>` : nothing}`;
  }

  /**
   * Claude went on without the call. Retry is Claude's own "r to retry": it is told it may run
   * this exact call again, and auto mode checks it again.
   */
  private renderBlock() {
    if (this.readOnly) return nothing;
    const busy = this.pending !== null;
    const press = (key: string) => this.send(`option-${key}`, { decision: 'answer', option: key });
    return html`<p class="description">Claude went on without it. Retry lets Claude run this exact call again; auto mode checks it again.</p>
      <div class="decide">
        <button ?disabled=${busy} @click=${() => press('dismiss')}>${this.spinner('option-dismiss')}Dismiss</button>
        <button class="primary" ?disabled=${busy} @click=${() => press('retry')}>${this.spinner('option-retry')}Retry</button>
      </div>`;
  }

  private renderLinks() {
    // A session the list does not show (yet) has nothing to open.
    const place = this.entry.place;
    if (!place) return nothing;
    const a = this.approval;
    // A machine that does not answer has no conversation to show either.
    const claude = (isOutsidePlace(place) || place.tab.kind !== 'shell') && this.entry.away === undefined;
    // An unreadable dialog or question already offers the terminal as its large button.
    const unread = a.kind === 'question' ? a.questions.length === 0 : a.kind !== 'permission' && a.options.length === 0;
    const terminal = this.terminal && !this.here && !unread && !this.readOnly;
    if (!terminal && !claude) return nothing;
    return html`<div class="links">
      ${!terminal ? nothing : html`<button @click=${() => this.open('terminal')}>Open terminal</button>`}
      ${claude ? html`<button @click=${() => this.open('timeline')}>Timeline</button>` : nothing}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-approval-card': ApprovalCard;
  }
}
