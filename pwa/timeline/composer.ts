import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import type { SlashCommandView } from '../../protocol/api.js';
import { DIALOG_SHOWN_ERROR } from '../../protocol/approvals.js';
import { INPUT_TEXT_MAX } from '../../protocol/limits.js';
import type { TabStatus } from '../../protocol/status.js';
import type { ToolCallEntry } from '../../protocol/timeline.js';
import { agentText } from '../core/agent-text.js';
import { errorText } from '../core/api-request.js';
import { isDialogShown, showDialogCard } from '../core/dialog-shown.js';
import { MediaQueryController } from '../core/media-query-controller.js';
import { controls } from '../ui/styles.js';
import { doingLine, historyMenu } from './composer-parts.js';
import { composerStyles } from './composer-styles.js';
import { SlashMenuController } from './slash-menu-controller.js';
import { type ComposerNote, UploadController } from './upload-controller.js';
import { ComposerHistory, HistoryCursor } from './composer-history.js';
import { inTurn, PromptQueue, promptText } from './composer-queue.js';
import { doingNow, nextTurnStart } from './doing-now.js';
import { insertAt, pressEscape, sendPrompt, } from './session-input.js';
import { insertCommand, slashQuery, } from './slash-commands.js';
import { closeSmallIcon, historyIcon, paperclipIcon, queueIcon, sendArrowIcon, } from './timeline-icons.js';
import { deviceStorage } from '../core/device-storage.js';
import { draftOf, setDraft } from '../core/composer-drafts.js';


/**
 * The phone's way to talk to Claude without a terminal: a field for the next prompt under the
 * timeline, with what Claude is doing now above it while it works (and Stop). A prompt written
 * while Claude works waits, queued, and goes when the turn ends. `/` offers Claude's slash
 * commands; the paperclip (or an image pasted) puts a file in the session's directory and
 * `@its/path` in the prompt. What was sent from this device comes back with ↑ (or the history
 * button on a touch screen).
 */
@customElement('pm-composer')
export class Composer extends LitElement {
  static override styles = [controls, composerStyles];

  /** A tab's id, or an outside session's key. */
  @property() sessionKey = '';
  /** Who the prompts go to: "Claude", or "Codex" in a Codex tab. */
  @property() agent = 'Claude';
  @property({ attribute: false }) status: TabStatus | undefined;
  /** Why nothing can be typed into the session (said in the field's place), or null. */
  @property({ attribute: false }) blocked: string | null = null;
  /** The tool call Claude runs now, from the timeline. */
  @property({ attribute: false }) tool: ToolCallEntry | null = null;
  /** The tokens Claude wrote this turn, from the timeline; null before any message reported them. */
  @property({ attribute: false }) tokens: number | null = null;

  @state() private value = '';
  @state() private pending: 'send' | 'stop' | null = null;
  @state() private note: ComposerNote | null = null;
  @state() private queued: string | null = null;
  @state() private menu: 'slash' | 'history' | null = null;
  @state() private active = 0;
  @state() private announcement = '';
  @state() private now = Date.now();
  @query('textarea') private field!: HTMLTextAreaElement | null;
  @query('input[type=file]') private picker!: HTMLInputElement | null;

  private readonly touch = new MediaQueryController(this, '(pointer: coarse)');
  private readonly queue = new PromptQueue();
  private history = new ComposerHistory(deviceStorage(), '');
  private cursor = new HistoryCursor([]);
  private turnStart: number | null = null;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private readonly uploads = new UploadController(this, {
    sessionKey: () => this.sessionKey,
    mention: (text) => {
      const el = this.field;
      const next = insertAt(this.value, el ? el.selectionEnd : this.value.length, text);
      this.setValue(next.value, next.caret);
    },
    note: (note) => {
      this.note = note;
    },
    say: (text) => this.say(text),
  });
  private readonly slash = new SlashMenuController(this, () => this.sessionKey, () => this.agent);
  /** The field's caret where the slash menu was computed. */
  private caret = 0;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopTicker();
    this.keepQueued(this.sessionKey);
  }

  /** A prompt still queued when the view goes is not lost: it waits in the field for the next visit. */
  private keepQueued(key: string): void {
    const held = this.queue.take();
    if (held === null) return;
    const draft = draftOf(key);
    setDraft(key, draft.trim() ? `${held}\n${draft}` : held);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('sessionKey')) this.openSession(changed.get('sessionKey'));
    if (changed.has('status')) this.turnStart = nextTurnStart(this.turnStart, changed.get('status'), this.status);
    if (this.status?.state === 'busy') this.startTicker();
    else this.stopTicker();
  }

  // Untyped: `value` is private, which the typed map cannot name.
  protected override updated(changed: PropertyValues): void {
    if (changed.has('value')) this.fit();
    if (changed.has('status')) {
      const due = this.queue.due(this.status?.state, this.status?.claudeRunning ?? false);
      if (due !== null) {
        this.queued = null;
        void this.send(due, 'queue');
      }
    }
  }

  private openSession(before: string | undefined): void {
    if (before !== undefined) this.keepQueued(before);
    this.value = draftOf(this.sessionKey);
    this.queued = null;
    this.note = null;
    this.menu = null;
    this.slash.reset();
    this.history = new ComposerHistory(deviceStorage(), this.sessionKey);
    this.cursor = new HistoryCursor(this.history.entries());
    this.turnStart = null;
  }

  private startTicker(): void {
    if (this.ticker !== null) return;
    this.now = Date.now();
    this.ticker = setInterval(() => {
      this.now = Date.now();
    }, 1000);
  }

  private stopTicker(): void {
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
  }

  /** The field grows with what is written, up to its max-height, then scrolls. */
  private fit(): void {
    const el = this.field;
    if (!el) return;
    // Empty, it is one line high, whatever its placeholder would wrap to.
    if (el.value === '') {
      el.style.height = '';
      return;
    }
    el.style.height = 'auto';
    const borders = el.offsetHeight - el.clientHeight;
    el.style.height = `${el.scrollHeight + borders}px`;
  }

  private setValue(value: string, caret: number | 'start' | 'end' = 'end'): void {
    this.value = value;
    setDraft(this.sessionKey, value);
    void this.updateComplete.then(() => {
      const el = this.field;
      if (!el) return;
      const at = caret === 'start' ? 0 : caret === 'end' ? value.length : caret;
      el.setSelectionRange(at, at);
    });
  }

  private say(text: string): void {
    // The same words twice in a row are announced again only if the region changes first.
    this.announcement = '';
    void this.updateComplete.then(() => {
      this.announcement = text;
    });
  }

  // Sending

  private submit(): void {
    if (this.blocked || this.pending === 'send') return;
    const text = promptText(this.value);
    if (!text) return;
    if (text.length > INPUT_TEXT_MAX) {
      this.note = { kind: 'error', text: `The prompt is too long to send: at most ${INPUT_TEXT_MAX / 1024} KB.` };
      return;
    }
    this.menu = null;
    if (inTurn(this.status?.state)) {
      const outcome = this.queue.offer(text);
      if (outcome.kind === 'refused') {
        this.note = { kind: 'error', text: outcome.reason };
        return;
      }
      this.queued = text;
      this.note = null;
      this.setValue('');
      this.say(`Queued: it is sent when ${this.agent} finishes this turn.`);
      return;
    }
    void this.send(text, 'field');
  }

  private async send(text: string, from: 'field' | 'queue'): Promise<void> {
    this.pending = 'send';
    this.note = null;
    try {
      await sendPrompt(this.sessionKey, text);
      this.cursor.reset(this.history.add(text));
      if (from === 'field' && promptText(this.value) === text) this.setValue('');
      this.say(from === 'queue' ? 'Queued prompt sent.' : 'Sent.');
      this.dispatchEvent(new Event('pm-prompt-sent', { bubbles: true, composed: true }));
    } catch (err) {
      if (isDialogShown(err)) this.heldByDialog(text, from);
      else {
        this.note = { kind: 'error', text: `Not sent: ${errorText(err)}` };
        if (from === 'queue') this.restore(text);
      }
    } finally {
      this.pending = null;
    }
  }

  /**
   * Claude shows a dialog the prompt would have been typed into. Written just now, it stays in
   * the field and the dialog's card is shown, since that is what to answer first; queued, it
   * waits in the queue again, for the dialog to go and the turn to end.
   */
  private heldByDialog(text: string, from: 'field' | 'queue'): void {
    if (from === 'queue' && this.queue.offer(text).kind === 'queued') {
      this.queued = text;
      this.note = { kind: 'info', text: `${DIALOG_SHOWN_ERROR}. The queued prompt goes once it is answered.` };
      return;
    }
    if (from === 'queue') this.restore(text);
    this.note = { kind: 'error', text: `Not sent: ${DIALOG_SHOWN_ERROR}. Your prompt stays here.` };
    this.say(`Not sent: ${DIALOG_SHOWN_ERROR}.`);
    showDialogCard(this, this.sessionKey);
  }

  /** Puts a prompt that was held back into the field, before what is there. */
  private restore(text: string): void {
    const current = this.value;
    this.setValue(current.trim() ? `${text}\n${current}` : text);
  }

  private cancelQueued(): void {
    const text = this.queue.take();
    this.queued = null;
    if (text !== null && !this.value.trim()) this.setValue(text);
    this.say('Queued prompt cancelled.');
  }

  private async stop(): Promise<void> {
    if (this.pending === 'stop') return;
    this.pending = 'stop';
    // An interrupted turn sends nothing by itself, as in the terminal: the queued prompt waits in the field.
    const held = this.queue.take();
    this.queued = null;
    try {
      await pressEscape(this.sessionKey);
      if (held !== null) {
        this.restore(held);
        this.note = { kind: 'info', text: 'Stopped. The queued prompt is back in the field, not sent.' };
      }
      this.say(`Stop sent to ${this.agent}.`);
    } catch (err) {
      if (held !== null) {
        this.queue.offer(held);
        this.queued = held;
      }
      this.note = { kind: 'error', text: `Could not stop ${this.agent}: ${errorText(err)}` };
    } finally {
      this.pending = null;
    }
  }

  // The field

  private onInput(e: Event): void {
    const el = e.target as HTMLTextAreaElement;
    this.value = el.value;
    setDraft(this.sessionKey, el.value);
    if (this.note?.kind === 'info') this.note = null;
    this.updateSlash(el);
  }

  private updateSlash(el: HTMLTextAreaElement): void {
    const query = slashQuery(el.value, el.selectionStart ?? el.value.length);
    if (query === null) {
      if (this.menu === 'slash') this.menu = null;
      return;
    }
    this.caret = el.selectionStart ?? 0;
    if (this.menu !== 'slash') this.active = 0;
    this.menu = 'slash';
    void this.slash.load();
  }

  private slashOptions(): SlashCommandView[] {
    return this.slash.options(this.value, this.caret);
  }

  private pick(command: SlashCommandView): void {
    const next = insertCommand(this.value, command.name);
    this.menu = null;
    this.setValue(next.value, next.caret);
    this.field?.focus();
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (e.isComposing) return;
    const plain = !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey;
    if (this.menu === 'slash') {
      const options = this.slashOptions();
      if (e.key === 'Escape') {
        e.preventDefault();
        this.menu = null;
        return;
      }
      if (options.length > 0 && plain && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        this.active = (this.active + step + options.length) % options.length;
        void this.updateComplete.then(() => this.renderRoot.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' }));
        return;
      }
      const chosen = options[Math.min(this.active, options.length - 1)];
      if (chosen && plain && (e.key === 'Enter' || e.key === 'Tab')) {
        e.preventDefault();
        this.pick(chosen);
        return;
      }
      // A half-typed command is not sent while the list that would complete it loads.
      if (this.slash.loading && e.key === 'Enter') {
        e.preventDefault();
        return;
      }
    }
    if (this.menu === 'history' && e.key === 'Escape') {
      e.preventDefault();
      this.menu = null;
      return;
    }
    if (e.key === 'Enter') {
      // On a phone Enter is a new line and the button sends; Ctrl or ⌘ with Enter sends anywhere.
      const sends = (plain && !this.touch.matches) || (!e.shiftKey && !e.altKey && (e.ctrlKey || e.metaKey));
      if (sends) {
        e.preventDefault();
        this.submit();
      }
      return;
    }
    const el = e.target as HTMLTextAreaElement;
    if (plain && e.key === 'ArrowUp' && el.selectionStart === 0 && el.selectionEnd === 0) {
      const older = this.cursor.up(this.value);
      if (older !== null) {
        e.preventDefault();
        this.setValue(older, 'start');
      }
      return;
    }
    if (plain && e.key === 'ArrowDown' && el.selectionStart === el.value.length && el.selectionEnd === el.value.length) {
      const newer = this.cursor.down();
      if (newer !== null) {
        e.preventDefault();
        this.setValue(newer, 'end');
      }
    }
  }

  private onPaste(e: ClipboardEvent): void {
    const files = Array.from(e.clipboardData?.files ?? []).filter((f) => f.type.startsWith('image/'));
    if (files.length === 0 || this.blocked) return;
    e.preventDefault();
    void this.uploads.attach(files);
  }

  private onPicked(e: Event): void {
    const input = e.target as HTMLInputElement;
    const files = Array.from(input.files ?? []);
    input.value = '';
    if (files.length > 0) void this.uploads.attach(files);
  }

  private toggleHistory(): void {
    this.menu = this.menu === 'history' ? null : 'history';
  }

  private recall(text: string): void {
    this.menu = null;
    this.setValue(text);
    this.field?.focus();
  }

  // Drawing

  override render() {
    const blocked = this.blocked;
    const busy = this.status?.state === 'busy';
    const turn = inTurn(this.status?.state);
    return html`
      ${busy
        ? doingLine(doingNow(this.status, this.tool, this.turnStart, this.now, this.tokens), {
            shown: blocked === null,
            pending: this.pending === 'stop',
            press: () => void this.stop(),
          }, this.agent)
        : nothing}
      ${this.menu === 'slash' && !blocked ? this.slash.render(this.slashOptions(), this.active, (command) => this.pick(command)) : nothing}
      ${this.menu === 'history' && !blocked
        ? historyMenu(
            this.history.entries(),
            (text) => this.recall(text),
            () => {
              this.menu = null;
            },
          )
        : nothing}
      <div class="inner">
        ${this.queued !== null
          ? html`<div class="line queued">
              <span class="label">Queued:</span>
              <span class="text" title=${this.queued}>${this.queued}</span>
              <button class="icon" aria-label="Cancel the queued prompt" title="Cancel" @click=${() => this.cancelQueued()}>${closeSmallIcon()}</button>
            </div>`
          : nothing}
        ${this.uploads.render()}
        ${this.note ? html`<div class="note ${this.note.kind}" role=${this.note.kind === 'error' ? 'alert' : 'status'}>${agentText(this.note.text)}</div>` : nothing}
        <div class="row">
          ${blocked === null
            ? html`<button class="icon ghost" aria-label="Attach a file or image" title="Attach a file or image" ?disabled=${this.uploads.upload !== null} @click=${() => this.picker?.click()}>
                  ${paperclipIcon()}
                </button>
                <input type="file" multiple hidden @change=${this.onPicked} />
                <textarea
                  rows="1"
                  aria-label=${`Prompt for ${this.agent}`}
                  placeholder=${turn ? 'Queue a prompt…' : `Message ${this.agent}…`}
                  enterkeyhint=${this.touch.matches ? 'enter' : 'send'}
                  autocomplete="off"
                  spellcheck="true"
                  maxlength=${INPUT_TEXT_MAX}
                  aria-autocomplete="list"
                  aria-controls=${this.menu === 'slash' ? 'slash-menu' : nothing}
                  aria-activedescendant=${this.menu === 'slash' && this.slashOptions().length > 0 ? `command-${this.active}` : nothing}
                  .value=${live(this.value)}
                  @input=${this.onInput}
                  @keydown=${this.onKeyDown}
                  @paste=${this.onPaste}
                  @click=${(e: Event) => this.updateSlash(e.target as HTMLTextAreaElement)}
                ></textarea>
                ${this.touch.matches
                  ? html`<button
                      class="icon ghost"
                      aria-label="Sent from this device"
                      title="Sent from this device"
                      aria-expanded=${this.menu === 'history'}
                      aria-controls="history-menu"
                      @click=${() => this.toggleHistory()}
                    >
                      ${historyIcon()}
                    </button>`
                  : nothing}
                <button
                  class="icon primary send"
                  aria-label=${turn ? 'Queue' : 'Send'}
                  title=${turn ? `Queue: sent when ${this.agent} finishes this turn` : 'Send'}
                  ?disabled=${this.pending === 'send' || promptText(this.value) === ''}
                  @click=${() => this.submit()}
                >
                  ${this.pending === 'send' ? html`<span class="spinner" aria-hidden="true"></span>` : turn ? queueIcon() : sendArrowIcon()}
                </button>`
            : html`<div class="blocked" role="note">${blocked}</div>
                <button class="icon primary send" aria-label="Send" disabled>${sendArrowIcon()}</button>`}
        </div>
      </div>
      <div class="visually-hidden" role="status">${this.announcement}</div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-composer': Composer;
  }
  interface HTMLElementEventMap {
    /** A prompt left for Claude: the timeline follows the conversation to where it will show. */
    'pm-prompt-sent': Event;
  }
}
