import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import type { SlashCommandView } from '../../protocol/api.js';
import { INPUT_TEXT_MAX, UPLOAD_MAX_BYTES } from '../../protocol/limits.js';
import type { TabStatus } from '../../protocol/status.js';
import type { ToolCallEntry } from '../../protocol/timeline.js';
import { agentText } from '../shared/agent-text.js';
import { errorText } from '../shared/api-request.js';
import { MediaQueryController } from '../shared/media-query-controller.js';
import { controls } from '../shared/shared-styles.js';
import { ComposerHistory, HistoryCursor } from './composer-history.js';
import { inTurn, PromptQueue, promptText } from './composer-queue.js';
import { doingNow, doingNowText, nextTurnStart } from './doing-now.js';
import { fileMention, fileSize, insertAt, pressEscape, sendPrompt, slashCommands, type UploadHandle, uploadFile } from './session-input.js';
import { filterCommands, insertCommand, slashQuery, sourceLabel } from './slash-commands.js';
import { closeSmallIcon, historyIcon, paperclipIcon, queueIcon, sendArrowIcon, stopIcon } from './timeline-icons.js';
import { deviceStorage } from '../shared/device-storage.js';

/** What was being written in each session's composer, kept while the page lives (terminal and back). */
const drafts = new Map<string, string>();

type Commands =
  | { kind: 'not-asked' }
  | { kind: 'loading' }
  | { kind: 'ready'; list: SlashCommandView[] }
  | { kind: 'failed'; message: string };

interface Note {
  kind: 'error' | 'info';
  text: string;
}

interface Upload {
  name: string;
  bytes: number;
  sent: number;
}


/** A pasted image has no name of its own. */
function nameOf(file: File): string {
  if (file.name) return file.name;
  const ext = /^image\/([a-z0-9]+)/.exec(file.type)?.[1] ?? 'bin';
  return `pasted.${ext === 'jpeg' ? 'jpg' : ext}`;
}

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
  static override styles = [
    controls,
    css`
      *,
      *::before,
      *::after {
        box-sizing: border-box;
      }
      :host {
        display: block;
        position: relative;
        flex: none;
        background: var(--pm-surface);
        border-top: 1px solid var(--pm-border);
        padding: 8px calc(8px + var(--pm-safe-right)) calc(8px + var(--pm-safe-bottom)) calc(8px + var(--pm-safe-left));
      }
      .inner {
        max-width: 820px;
        margin: 0 auto;
        display: flex;
        flex-direction: column;
        gap: 6px;
      }
      .row {
        display: flex;
        align-items: flex-end;
        gap: 6px;
      }
      textarea {
        flex: 1 1 auto;
        min-width: 0;
        min-height: var(--pm-tap);
        max-height: min(40vh, 320px);
        resize: none;
        font: inherit;
        font-size: 16px;
        line-height: 1.4;
        color: inherit;
        padding: 10px 12px;
        border-radius: 12px;
        border: 1px solid var(--pm-field-border, var(--pm-border));
        background: var(--pm-bg);
        overflow-y: auto;
        display: block;
      }
      textarea::placeholder {
        color: var(--pm-muted);
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      textarea:focus-visible {
        outline: 2px solid var(--pm-accent);
        outline-offset: 1px;
      }
      .blocked {
        flex: 1 1 auto;
        min-height: var(--pm-tap);
        display: flex;
        align-items: center;
        padding: 8px 12px;
        border-radius: 12px;
        border: 1px dashed var(--pm-border);
        color: var(--pm-muted);
        font-size: 14px;
        line-height: 1.35;
      }
      button.icon {
        flex: none;
        border-radius: 12px;
      }
      button.send {
        border-radius: 50%;
      }
      .line {
        display: flex;
        align-items: center;
        gap: 8px;
        min-height: var(--pm-tap);
        padding: 0 0 0 12px;
        border-radius: 12px;
        background: var(--pm-surface-2);
        border: 1px solid var(--pm-border);
        font-size: 14px;
      }
      .line .text {
        flex: 1 1 auto;
        min-width: 0;
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .line .label {
        flex: none;
        color: var(--pm-muted);
        font-weight: 600;
      }
      .line button {
        flex: none;
        border: none;
        background: transparent;
      }
      .line.queued {
        border-color: color-mix(in srgb, var(--pm-busy) 45%, var(--pm-border));
      }
      .line.queued .label {
        color: var(--pm-busy);
      }
      progress {
        flex: 0 0 72px;
        height: 6px;
        accent-color: var(--pm-accent);
      }
      .note {
        font-size: 14px;
        padding: 0 4px;
        overflow-wrap: anywhere;
      }
      .note.info {
        color: var(--pm-muted);
      }
      .note.error {
        color: var(--pm-danger);
      }
      /* Above the composer, over the conversation's reserved end: appearing moves nothing. */
      .doing {
        position: absolute;
        left: calc(8px + var(--pm-safe-left));
        right: calc(8px + var(--pm-safe-right));
        bottom: calc(100% + 6px);
        max-width: 820px;
        margin: 0 auto;
        display: flex;
        align-items: center;
        gap: 10px;
        min-height: 48px;
        padding: 1px 1px 1px 12px;
        border-radius: 14px;
        background: var(--pm-surface-2);
        border: 1px solid color-mix(in srgb, var(--pm-busy) 40%, var(--pm-border));
        font-size: 14px;
        z-index: 1;
      }
      .doing .what {
        flex: 1 1 auto;
        min-width: 0;
        display: flex;
        flex-direction: column;
        line-height: 1.25;
      }
      .doing .now {
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
        font-weight: 600;
      }
      .doing .now.tool {
        font-family: var(--pm-mono);
        font-size: 13px;
      }
      /*
       * Time, tokens, context and cost take more than a phone's line once the counts grow:
       * they wrap between parts, never inside one. Each part's dot hangs in the gap before it,
       * so the one starting a line falls outside the box and is clipped away.
       */
      .doing .meta {
        display: flex;
        flex-wrap: wrap;
        column-gap: 1.1em;
        overflow: hidden;
        color: var(--pm-muted);
        font-size: 12px;
        font-variant-numeric: tabular-nums;
      }
      .doing .meta > span {
        white-space: nowrap;
      }
      .doing .meta > span::before {
        content: '·';
        display: inline-block;
        width: 1.1em;
        margin-left: -1.1em;
        text-align: center;
      }
      .spinner {
        width: 18px;
        height: 18px;
        border-radius: 50%;
        border: 2px solid currentColor;
        border-right-color: transparent;
        animation: spin 0.8s linear infinite;
      }
      .spin {
        flex: none;
        width: 16px;
        height: 16px;
        border-radius: 50%;
        border: 2px solid color-mix(in srgb, var(--pm-busy) 28%, transparent);
        border-top-color: var(--pm-busy);
        animation: spin 0.9s linear infinite;
      }
      @keyframes spin {
        to {
          transform: rotate(1turn);
        }
      }
      @media (prefers-reduced-motion: reduce) {
        .spin,
        .spinner {
          animation: none;
        }
      }
      button.stop {
        flex: none;
        border-radius: 12px;
        background: var(--pm-danger-bg);
        border-color: color-mix(in srgb, var(--pm-danger) 35%, transparent);
        color: var(--pm-danger);
        font-weight: 600;
      }
      .menu {
        position: absolute;
        left: calc(8px + var(--pm-safe-left));
        right: calc(8px + var(--pm-safe-right));
        bottom: calc(100% + 6px);
        max-width: 820px;
        margin: 0 auto;
        max-height: min(50vh, 340px);
        overflow-y: auto;
        overscroll-behavior: contain;
        border-radius: 14px;
        background: var(--pm-surface);
        border: 1px solid var(--pm-border);
        z-index: 2;
      }
      .menu-head {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 8px;
        padding: 0 0 0 12px;
        color: var(--pm-muted);
        font-size: 13px;
        border-bottom: 1px solid var(--pm-border);
      }
      .menu-head button {
        border: none;
        background: transparent;
      }
      .menu ul {
        list-style: none;
        margin: 0;
        padding: 4px;
      }
      .menu li[role='option'] {
        display: grid;
        grid-template-columns: 1fr auto;
        column-gap: 10px;
        align-items: baseline;
        min-height: var(--pm-tap);
        padding: 7px 10px;
        border-radius: 10px;
        cursor: pointer;
      }
      .menu li[aria-selected='true'] {
        background: var(--pm-surface-3);
      }
      @media (hover: hover) {
        .menu li[role='option']:hover {
          background: var(--pm-surface-2);
        }
        .menu li[aria-selected='true']:hover {
          background: var(--pm-surface-3);
        }
      }
      .cmd-name {
        font-family: var(--pm-mono);
        font-size: 14px;
        overflow-wrap: anywhere;
      }
      .cmd-source {
        font-size: 11px;
        color: var(--pm-muted);
        border: 1px solid var(--pm-border);
        border-radius: 999px;
        padding: 1px 7px;
        white-space: nowrap;
      }
      .cmd-desc {
        grid-column: 1 / -1;
        font-size: 13px;
        color: var(--pm-muted);
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .menu-note {
        padding: 12px;
        color: var(--pm-muted);
        font-size: 14px;
      }
      .menu-note.error {
        color: var(--pm-danger);
      }
      .menu .recall {
        display: block;
        width: 100%;
        text-align: left;
        white-space: normal;
        border: none;
        background: transparent;
        padding: 8px 10px;
        font-size: 14px;
        line-height: 1.35;
      }
      .recall span {
        display: -webkit-box;
        -webkit-box-orient: vertical;
        -webkit-line-clamp: 2;
        line-clamp: 2;
        overflow: hidden;
        overflow-wrap: anywhere;
      }
    `,
  ];

  /** A tab's id, or an outside session's key. */
  @property() sessionKey = '';
  @property({ attribute: false }) status: TabStatus | undefined;
  /** Why nothing can be typed into the session (said in the field's place), or null. */
  @property({ attribute: false }) blocked: string | null = null;
  /** The tool call Claude runs now, from the timeline. */
  @property({ attribute: false }) tool: ToolCallEntry | null = null;
  /** The tokens Claude wrote this turn, from the timeline; null before any message reported them. */
  @property({ attribute: false }) tokens: number | null = null;

  @state() private value = '';
  @state() private pending: 'send' | 'stop' | null = null;
  @state() private note: Note | null = null;
  @state() private queued: string | null = null;
  @state() private commands: Commands = { kind: 'not-asked' };
  @state() private menu: 'slash' | 'history' | null = null;
  @state() private active = 0;
  @state() private upload: Upload | null = null;
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
  private uploading: UploadHandle | null = null;
  /** The field's caret where the slash menu was computed. */
  private caret = 0;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopTicker();
    this.uploading?.abort();
    this.keepQueued(this.sessionKey);
  }

  /** A prompt still queued when the view goes is not lost: it waits in the field for the next visit. */
  private keepQueued(key: string): void {
    const held = this.queue.take();
    if (held === null) return;
    const draft = drafts.get(key) ?? '';
    drafts.set(key, draft.trim() ? `${held}\n${draft}` : held);
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
    this.value = drafts.get(this.sessionKey) ?? '';
    this.queued = null;
    this.note = null;
    this.menu = null;
    this.commands = { kind: 'not-asked' };
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
    drafts.set(this.sessionKey, value);
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
      this.say('Queued: it is sent when Claude finishes this turn.');
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
      this.note = { kind: 'error', text: `Not sent: ${errorText(err)}` };
      if (from === 'queue') this.restore(text);
    } finally {
      this.pending = null;
    }
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
      this.say('Stop sent to Claude.');
    } catch (err) {
      if (held !== null) {
        this.queue.offer(held);
        this.queued = held;
      }
      this.note = { kind: 'error', text: `Could not stop Claude: ${errorText(err)}` };
    } finally {
      this.pending = null;
    }
  }

  // The field

  private onInput(e: Event): void {
    const el = e.target as HTMLTextAreaElement;
    this.value = el.value;
    drafts.set(this.sessionKey, el.value);
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
    void this.loadCommands();
  }

  /** Asked once per view; a failure is said in the menu and asked again on the next `/`. */
  private async loadCommands(): Promise<void> {
    if (this.commands.kind === 'loading' || this.commands.kind === 'ready') return;
    const key = this.sessionKey;
    this.commands = { kind: 'loading' };
    try {
      const list = await slashCommands(key);
      if (key === this.sessionKey) this.commands = { kind: 'ready', list };
    } catch (err) {
      if (key === this.sessionKey) this.commands = { kind: 'failed', message: errorText(err) };
    }
  }

  private slashOptions(): SlashCommandView[] {
    if (this.commands.kind !== 'ready') return [];
    const query = slashQuery(this.value, this.caret);
    return query === null ? [] : filterCommands(this.commands.list, query);
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
      if (this.commands.kind === 'loading' && e.key === 'Enter') {
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
    void this.attach(files);
  }

  private toggleHistory(): void {
    this.menu = this.menu === 'history' ? null : 'history';
  }

  private recall(text: string): void {
    this.menu = null;
    this.setValue(text);
    this.field?.focus();
  }

  // Files

  private async attach(files: readonly File[]): Promise<void> {
    for (const file of files) {
      const name = nameOf(file);
      if (file.size > UPLOAD_MAX_BYTES) {
        this.note = { kind: 'error', text: `${name} (${fileSize(file.size)}) is too large: files up to ${fileSize(UPLOAD_MAX_BYTES)} can be attached.` };
        continue;
      }
      this.note = null;
      this.upload = { name, bytes: file.size, sent: 0 };
      const handle = uploadFile(this.sessionKey, file, name, (sent) => {
        if (this.upload) this.upload = { ...this.upload, sent };
      });
      this.uploading = handle;
      try {
        const saved = await handle.done;
        const el = this.field;
        const next = insertAt(this.value, el ? el.selectionEnd : this.value.length, fileMention(saved.relativePath));
        this.setValue(next.value, next.caret);
        this.note = { kind: 'info', text: `Attached ${name} (${fileSize(saved.bytes)}).` };
        this.say(`Attached ${name}.`);
      } catch (err) {
        this.note = { kind: 'error', text: `Could not attach ${name}: ${errorText(err)}` };
      } finally {
        this.uploading = null;
        this.upload = null;
      }
    }
  }

  private onPicked(e: Event): void {
    const input = e.target as HTMLInputElement;
    const files = Array.from(input.files ?? []);
    input.value = '';
    if (files.length > 0) void this.attach(files);
  }

  // Drawing

  override render() {
    const blocked = this.blocked;
    const busy = this.status?.state === 'busy';
    const turn = inTurn(this.status?.state);
    return html`
      ${busy ? this.renderDoing(blocked === null) : nothing}
      ${this.menu === 'slash' && !blocked ? this.renderSlashMenu() : nothing}
      ${this.menu === 'history' && !blocked ? this.renderHistoryMenu() : nothing}
      <div class="inner">
        ${this.queued !== null
          ? html`<div class="line queued">
              <span class="label">Queued:</span>
              <span class="text" title=${this.queued}>${this.queued}</span>
              <button class="icon" aria-label="Cancel the queued prompt" title="Cancel" @click=${() => this.cancelQueued()}>${closeSmallIcon()}</button>
            </div>`
          : nothing}
        ${this.upload ? this.renderUpload(this.upload) : nothing}
        ${this.note ? html`<div class="note ${this.note.kind}" role=${this.note.kind === 'error' ? 'alert' : 'status'}>${agentText(this.note.text)}</div>` : nothing}
        <div class="row">
          ${blocked === null
            ? html`<button class="icon ghost" aria-label="Attach a file or image" title="Attach a file or image" ?disabled=${this.upload !== null} @click=${() => this.picker?.click()}>
                  ${paperclipIcon()}
                </button>
                <input type="file" multiple hidden @change=${this.onPicked} />
                <textarea
                  rows="1"
                  aria-label="Prompt for Claude"
                  placeholder=${turn ? 'Queue a prompt…' : 'Message Claude…'}
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
                  title=${turn ? 'Queue: sent when Claude finishes this turn' : 'Send'}
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

  private renderDoing(canStop: boolean) {
    const d = doingNow(this.status, this.tool, this.turnStart, this.now, this.tokens);
    if (!d) return nothing;
    return html`<div class="doing" role="group" aria-label=${`Claude is working: ${doingNowText(d)}`}>
      <span class="spin" aria-hidden="true"></span>
      <span class="what" aria-hidden="true">
        <span class=${d.tool ? 'now tool' : 'now'}>${d.what}</span>
        <span class="meta">${[d.elapsed, d.tokens && `↓ ${d.tokens}`, ...d.usage].filter(Boolean).map((part) => html`<span>${part}</span>`)}</span>
      </span>
      ${canStop
        ? html`<button class="stop" aria-label="Stop Claude" ?disabled=${this.pending === 'stop'} @click=${() => this.stop()}>${stopIcon()}Stop</button>`
        : nothing}
    </div>`;
  }

  private renderUpload(u: Upload) {
    const percent = u.bytes > 0 ? Math.round((u.sent / u.bytes) * 100) : 0;
    return html`<div class="line upload" role="status">
      <span class="label">Uploading</span>
      <span class="text" title=${u.name}>${u.name} · ${fileSize(u.bytes)}</span>
      <progress max="100" .value=${percent} aria-label=${`Uploading ${u.name}: ${percent}%`}></progress>
      <button class="icon" aria-label="Cancel the upload" title="Cancel the upload" @click=${() => this.uploading?.abort()}>${closeSmallIcon()}</button>
    </div>`;
  }

  private renderSlashMenu() {
    const c = this.commands;
    const options = this.slashOptions();
    const active = Math.min(this.active, options.length - 1);
    // The prompt field keeps the keyboard and points at the chosen command (aria-activedescendant),
    // scrolled into view as ↑ and ↓ move. The list can take the focus too (Shift+Tab from the
    // field), to be scrolled and read with the keys like any scrolling region; a tap never moves
    // the focus there (mousedown).
    return html`<div class="menu" tabindex="0" @mousedown=${(e: Event) => e.preventDefault()}>
      ${c.kind === 'loading' || c.kind === 'not-asked' ? html`<div class="menu-note" role="status">Loading Claude's commands…</div>` : nothing}
      ${c.kind === 'failed' ? html`<div class="menu-note error" role="alert">Claude's commands could not be listed: ${agentText(c.message)}</div>` : nothing}
      ${c.kind === 'ready' && options.length === 0 ? html`<div class="menu-note" role="status">No command matches.</div>` : nothing}
      <ul id="slash-menu" role="listbox" aria-label="Slash commands" ?hidden=${options.length === 0}>
        ${options.map(
          (cmd, i) => html`<li id=${`command-${i}`} role="option" aria-selected=${i === active} @click=${() => this.pick(cmd)}>
            <span class="cmd-name">/${cmd.name}</span>
            <span class="cmd-source">${sourceLabel(cmd.source)}</span>
            ${cmd.description ? html`<span class="cmd-desc">${cmd.description}</span>` : nothing}
          </li>`,
        )}
      </ul>
    </div>`;
  }

  private renderHistoryMenu() {
    const entries = this.history.entries().slice().reverse();
    return html`<div class="menu" id="history-menu" role="region" aria-label="Sent from this device">
      <div class="menu-head">
        <span>Sent from this device</span>
        <button class="icon" aria-label="Close" @click=${() => (this.menu = null)}>${closeSmallIcon()}</button>
      </div>
      ${entries.length === 0
        ? html`<div class="menu-note">Nothing sent from this device yet.</div>`
        : html`<ul>
            ${entries.map((text) => html`<li><button class="recall" @click=${() => this.recall(text)}><span>${text}</span></button></li>`)}
          </ul>`}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-composer': Composer;
  }
}
