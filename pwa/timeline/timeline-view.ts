import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { TabView } from '../../protocol/api.js';
import { CloseCode } from '../../protocol/close-codes.js';
import { isOutsideKey } from '../../protocol/hook-contract.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import type { TabStatus } from '../../protocol/status.js';
import type {
  AssistantTextEntry,
  InterruptEntry,
  NoticeEntry,
  PromptEntry,
  ThinkingEntry,
  TimelineEntry,
  ToolCallEntry,
} from '../../protocol/timeline.js';
import { controls } from '../ui/styles.js';
import type { ConnectionState } from '../core/reconnecting-socket.js';
import { TAB_MISSING_EVENT } from '../core/tab-missing.js';
import { shortTime } from '../core/time.js';
import './composer.js';
import { inputBlock } from './composer-target.js';
import { currentTool, turnOutputTokens } from './doing-now.js';
import { renderMarkdown } from './markdown.js';
import { TimelineConnection } from './timeline-connection.js';
import { applyTimelineMessage, EMPTY_TIMELINE, type TimelineState } from './timeline-store.js';
import { rememberTimeline } from '../core/timeline-saver.js';

/** Within this many pixels of the end counts as "at the end": new entries keep it in view. */
const PINNED_SLACK_PX = 64;

/** Failed attempts in a row before saying the timeline may not exist on this agent. */
const UNAVAILABLE_AFTER = 3;

/** Why the agent closed the timeline for good. */
function closedText(code: number, outside: boolean): string {
  switch (code) {
    case CloseCode.TabNotFound:
    case CloseCode.SessionEnded:
      return outside ? 'pocketmux no longer knows this Claude session: it ended, or stopped reporting here.' : 'This tab no longer exists.';
    case CloseCode.ConnectionLimit:
      return 'Too many live connections were open on the agent, so it closed this one. Reload to see the timeline again.';
    default:
      return 'The agent closed the timeline.';
  }
}

function inputText(entry: ToolCallEntry): string {
  const input = entry.input as Record<string, unknown> | null;
  // A shell command reads best as itself; anything else as its fields.
  if (entry.name === 'Bash' && input && typeof input.command === 'string') return input.command;
  if (input === undefined || input === null) return '';
  return JSON.stringify(input, null, 2);
}

/** Each answer's Markdown, made once: entries are replaced, never changed, when they change. */
const rendered = new WeakMap<AssistantTextEntry, ReturnType<typeof unsafeHTML>>();

function markdownOf(e: AssistantTextEntry) {
  let html = rendered.get(e);
  if (!html) {
    html = unsafeHTML(renderMarkdown(e.text));
    rendered.set(e, html);
  }
  return html;
}

/** How long "Copied" stands on a code block's button. */
const COPIED_MS = 1_500;

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (plain HTTP on a LAN is not a secure context): the old way.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

function characters(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k characters` : `${n} characters`;
}

/**
 * A Claude tab's conversation: what the person asked, what Claude said (as Markdown), the
 * tools it ran and what they returned; and under it the composer, to write to Claude without a
 * terminal. Follows the end as entries arrive, unless the person scrolled up to read, in which
 * case a button offers the way back down.
 */
@customElement('pm-timeline-view')
export class TimelineView extends LitElement {
  static override styles = [
    controls,
    css`
      *,
      *::before,
      *::after {
        box-sizing: border-box;
      }
      :host {
        flex: 1 1 auto;
        min-width: 0;
        min-height: 0;
        display: flex;
        flex-direction: column;
        position: relative;
      }
      .stage {
        flex: 1 1 auto;
        min-height: 0;
        display: flex;
        flex-direction: column;
        position: relative;
      }
      .scroller {
        flex: 1 1 auto;
        min-height: 0;
        overflow-y: auto;
        overscroll-behavior: contain;
        -webkit-overflow-scrolling: touch;
      }
      .entries {
        list-style: none;
        margin: 0 auto;
        max-width: 820px;
        /* The end keeps room for the "what Claude is doing" line, so its coming moves nothing. */
        padding: 16px calc(14px + var(--pm-safe-right)) 72px calc(14px + var(--pm-safe-left));
        display: flex;
        flex-direction: column;
        gap: 12px;
      }
      .entries > li {
        min-width: 0;
      }
      .text {
        margin: 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        line-height: 1.5;
      }
      .prompt {
        display: flex;
        flex-direction: column;
        align-items: flex-end;
        gap: 3px;
        margin-top: 8px;
      }
      .prompt .text {
        max-width: min(88%, 640px);
        padding: 9px 13px;
        border-radius: 14px 14px 4px 14px;
        background: color-mix(in srgb, var(--pm-accent) 16%, var(--pm-surface));
        border: 1px solid color-mix(in srgb, var(--pm-accent) 30%, var(--pm-border));
      }
      time,
      .meta {
        color: var(--pm-muted);
        font-size: 12px;
      }
      .assistant {
        padding: 0 2px;
        min-width: 0;
      }
      .cut {
        color: var(--pm-muted);
        font-size: 13px;
        font-style: italic;
      }
      /* Claude's Markdown. */
      .md {
        line-height: 1.55;
        overflow-wrap: anywhere;
      }
      .md > :first-child {
        margin-top: 0;
      }
      .md > :last-child {
        margin-bottom: 0;
      }
      .md p,
      .md ul,
      .md ol,
      .md blockquote,
      .md .code,
      .md .table {
        margin: 0 0 10px;
      }
      .md ul,
      .md ol {
        padding-left: 1.4em;
      }
      .md ul {
        list-style: disc;
      }
      .md ol {
        list-style: decimal;
      }
      .md ul ul {
        list-style: circle;
      }
      .md li {
        margin: 3px 0;
      }
      .md li > p {
        margin: 0;
      }
      .md h1,
      .md h2,
      .md h3,
      .md h4,
      .md h5,
      .md h6 {
        margin: 16px 0 8px;
        line-height: 1.3;
      }
      .md h1 {
        font-size: 1.3em;
      }
      .md h2 {
        font-size: 1.18em;
      }
      .md h3,
      .md h4,
      .md h5,
      .md h6 {
        font-size: 1.05em;
      }
      .md a {
        color: var(--pm-accent);
      }
      .md a:not([href]) {
        color: inherit;
        text-decoration: underline dotted;
      }
      .md blockquote {
        padding: 2px 12px;
        border-left: 3px solid var(--pm-border);
        color: var(--pm-muted);
      }
      .md hr {
        border: none;
        border-top: 1px solid var(--pm-border);
        margin: 14px 0;
      }
      .md :not(pre) > code {
        font-family: var(--pm-mono);
        font-size: 0.88em;
        padding: 1px 5px;
        border-radius: 5px;
        background: var(--pm-surface-2);
        border: 1px solid var(--pm-border);
      }
      .md .code {
        border: 1px solid var(--pm-border);
        border-radius: 10px;
        background: var(--pm-bg);
        overflow: hidden;
      }
      .md .code-bar {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 8px;
        padding-left: 12px;
        border-bottom: 1px solid var(--pm-border);
        background: var(--pm-surface);
        color: var(--pm-muted);
        font-size: 12px;
        font-family: var(--pm-mono);
      }
      .md .code-bar button {
        min-width: var(--pm-tap);
        padding: 0 12px;
        border: none;
        border-radius: 0;
        background: transparent;
        color: var(--pm-muted);
        font-family: var(--pm-font);
        font-size: 13px;
      }
      .md .code-bar button.copied {
        color: var(--pm-accent);
      }
      .md .code pre {
        max-height: none;
        border-radius: 0;
        padding: 10px 12px;
        white-space: pre;
        overflow-wrap: normal;
        overflow-x: auto;
      }
      .md .table {
        overflow-x: auto;
      }
      .md table {
        border-collapse: collapse;
        font-size: 14px;
      }
      .md th,
      .md td {
        border: 1px solid var(--pm-border);
        padding: 6px 10px;
        text-align: left;
        vertical-align: top;
        overflow-wrap: normal;
      }
      .md th {
        background: var(--pm-surface-2);
      }
      details {
        border: 1px solid var(--pm-border);
        border-radius: 10px;
        background: var(--pm-surface);
        min-width: 0;
      }
      summary {
        display: flex;
        align-items: center;
        gap: 8px;
        min-height: var(--pm-tap);
        padding: 6px 12px;
        cursor: pointer;
        list-style: none;
        border-radius: 10px;
        touch-action: manipulation;
      }
      summary::-webkit-details-marker {
        display: none;
      }
      summary:focus-visible {
        outline: 2px solid var(--pm-accent);
        outline-offset: 1px;
      }
      summary::after {
        content: '';
        flex: none;
        margin-left: auto;
        width: 7px;
        height: 7px;
        border-right: 2px solid var(--pm-muted);
        border-bottom: 2px solid var(--pm-muted);
        transform: rotate(45deg) translate(-2px, -2px);
      }
      details[open] > summary::after {
        transform: rotate(-135deg) translate(-2px, -2px);
      }
      .tool-name {
        flex: none;
        font-weight: 650;
        font-size: 14px;
      }
      .tool-summary {
        flex: 0 1 auto;
        min-width: 0;
        font-family: var(--pm-mono);
        font-size: 13px;
        color: var(--pm-muted);
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .mark {
        flex: none;
        display: inline-grid;
        place-items: center;
        width: 20px;
        height: 20px;
        border-radius: 50%;
        font-size: 12px;
        font-weight: 700;
      }
      .mark.ok {
        background: color-mix(in srgb, var(--pm-accent) 15%, transparent);
        color: var(--pm-accent);
      }
      .mark.error {
        background: var(--pm-danger-bg);
        color: var(--pm-danger);
      }
      .mark.running {
        border: 2px solid color-mix(in srgb, var(--pm-busy) 28%, transparent);
        border-top-color: var(--pm-busy);
        animation: spin 0.9s linear infinite;
        width: 16px;
        height: 16px;
        margin: 2px;
      }
      @keyframes spin {
        to {
          transform: rotate(1turn);
        }
      }
      @media (prefers-reduced-motion: reduce) {
        .mark.running {
          animation: none;
        }
      }
      .body {
        display: flex;
        flex-direction: column;
        gap: 8px;
        padding: 0 12px 12px;
      }
      .label {
        font-size: 12px;
        color: var(--pm-muted);
        text-transform: uppercase;
        letter-spacing: 0.04em;
      }
      pre {
        margin: 0;
        padding: 8px 10px;
        max-height: 320px;
        overflow: auto;
        border-radius: 8px;
        background: var(--pm-bg);
        font-family: var(--pm-mono);
        font-size: 12.5px;
        line-height: 1.45;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      pre.error {
        color: var(--pm-danger);
      }
      .thinking {
        background: transparent;
        border-style: dashed;
      }
      .thinking summary {
        color: var(--pm-muted);
        font-size: 14px;
        font-style: italic;
      }
      .thinking .body {
        color: var(--pm-muted);
        font-size: 14px;
      }
      .marker {
        display: flex;
        align-items: center;
        gap: 10px;
        color: var(--pm-warn);
        font-size: 13px;
      }
      .marker::before,
      .marker::after {
        content: '';
        flex: 1 1 auto;
        border-top: 1px solid color-mix(in srgb, var(--pm-warn) 35%, transparent);
      }
      .notice {
        font-size: 13px;
        color: var(--pm-muted);
        padding: 6px 10px;
        border-left: 3px solid var(--pm-border);
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .notice.warning {
        border-left-color: var(--pm-warn);
        color: var(--pm-warn);
      }
      .notice.error {
        border-left-color: var(--pm-danger);
        color: var(--pm-danger);
      }
      .placeholder {
        margin: auto;
        padding: 32px 24px;
        max-width: 420px;
        text-align: center;
        color: var(--pm-muted);
      }
      .banner {
        position: absolute;
        top: 8px;
        left: 50%;
        transform: translateX(-50%);
        z-index: 1;
        display: flex;
        align-items: center;
        gap: 10px;
        padding: 3px 3px 3px 14px;
        max-width: calc(100% - 16px);
        border-radius: 12px;
        background: color-mix(in srgb, var(--pm-warn) 12%, var(--pm-surface));
        border: 1px solid color-mix(in srgb, var(--pm-warn) 35%, transparent);
        color: var(--pm-warn);
        font-size: 14px;
      }
      .banner.error {
        background: var(--pm-danger-bg);
        border-color: color-mix(in srgb, var(--pm-danger) 35%, transparent);
        color: var(--pm-danger);
        padding: 8px 14px;
      }
      .banner button {
        font-size: 14px;
        border-color: color-mix(in srgb, var(--pm-warn) 35%, transparent);
        background: transparent;
      }
      .latest {
        position: absolute;
        /* Above the "what Claude is doing" line when it shows. */
        bottom: 64px;
        left: 50%;
        transform: translateX(-50%);
        border-radius: 999px;
        background: var(--pm-surface-3);
        z-index: 1;
      }
    `,
  ];

  @property() tabId = '';
  /** The session's Claude status, for the composer (Stop, the queue, what Claude is doing). */
  @property({ attribute: false }) status: TabStatus | undefined;
  /** The tab, as the sync channel describes it (a shell tab without Claude takes no prompt). */
  @property({ attribute: false }) tab: TabView | undefined;
  /** For an outside session's key: the session as listed (one outside tmux takes no prompt). */
  @property({ attribute: false }) outside: OutsideSessionView | undefined;
  /**
   * Entries this device saved, shown read-only instead of the live conversation: no
   * connection and no composer (the offline view, while the agent is out of reach).
   */
  @property({ attribute: false }) saved: readonly TimelineEntry[] | null = null;
  @state() private timeline: TimelineState = EMPTY_TIMELINE;
  @state() private link: ConnectionState = { kind: 'connecting' };
  /** Entries arrived below while the person was reading further up. */
  @state() private unseen = false;
  @query('.scroller') private scroller!: HTMLElement | null;

  private connection: TimelineConnection | null = null;
  private pinned = true;
  /** The composer growing, or the keyboard opening, shrinks the scroller: the end stays in view. */
  private readonly resize = new ResizeObserver(() => {
    if (this.pinned) this.toEnd();
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.open();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resize.disconnect();
    this.connection?.dispose();
    this.connection = null;
  }

  protected override firstUpdated(): void {
    if (this.scroller) this.resize.observe(this.scroller);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('tabId') && changed.get('tabId') !== undefined && this.isConnected) this.open();
  }

  private open(): void {
    this.connection?.dispose();
    this.timeline = EMPTY_TIMELINE;
    this.pinned = true;
    this.unseen = false;
    if (this.saved) {
      this.timeline = { ...EMPTY_TIMELINE, entries: this.saved, loaded: true };
      return;
    }
    if (!this.tabId) return;
    const key = this.tabId;
    this.connection = new TimelineConnection(
      key,
      (msg) => {
        const before = this.timeline.entries.length;
        this.timeline = applyTimelineMessage(this.timeline, msg);
        // What the person sees is what the offline view shows of this session later.
        rememberTimeline(key, this.timeline);
        if (msg.type === 'timeline:page' || msg.type === 'timeline:reset') this.pinned = true;
        else if (!this.pinned && this.timeline.entries.length > before) this.unseen = true;
      },
      (link) => {
        this.link = link;
        if (link.kind === 'closed-final' && link.code === CloseCode.TabNotFound) {
          this.dispatchEvent(new CustomEvent(TAB_MISSING_EVENT, { bubbles: true, composed: true }));
        }
      },
    );
  }

  // Untyped: `timeline` is private, which the typed map cannot name.
  protected override updated(changed: PropertyValues): void {
    if (changed.has('timeline') && this.pinned) this.toEnd();
  }

  private toEnd(): void {
    const el = this.scroller;
    if (el) el.scrollTop = el.scrollHeight;
    this.unseen = false;
  }

  private onScroll(): void {
    const el = this.scroller;
    if (!el) return;
    this.pinned = el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_SLACK_PX;
    if (this.pinned) this.unseen = false;
  }

  /** A prompt went from the composer: follow the conversation to where it will show. */
  private onPromptSent(): void {
    this.pinned = true;
    this.toEnd();
  }

  /** The copy buttons are part of each answer's HTML; one listener serves them all. */
  private async onClick(e: Event): Promise<void> {
    const button = (e.target as Element | null)?.closest?.('button.copy');
    const code = button?.closest('.code')?.querySelector('pre');
    if (!button || !code) return;
    const ok = await copyText(code.textContent ?? '');
    button.textContent = ok ? 'Copied' : 'Copy failed';
    button.classList.toggle('copied', ok);
    setTimeout(() => {
      button.textContent = 'Copy';
      button.classList.remove('copied');
    }, COPIED_MS);
  }

  private get gone(): boolean {
    return this.link.kind === 'closed-final' || this.link.kind === 'access-lost';
  }

  override render() {
    const t = this.timeline;
    const blocked = inputBlock({ key: this.tabId, tab: this.tab, outside: this.outside, status: this.status, gone: this.gone });
    return html`
      <div class="stage">
        ${this.renderBanner()}
        <div class="scroller" @scroll=${this.onScroll} @click=${this.onClick}>
          ${t.entries.length > 0
            ? html`<ol class="entries" aria-label="Conversation">
                ${repeat(
                  t.entries,
                  (e) => e.id,
                  (e) => html`<li>${this.renderEntry(e)}</li>`,
                )}
              </ol>`
            : this.renderEmpty()}
        </div>
        ${this.unseen ? html`<button class="latest" @click=${() => this.toEnd()}>Jump to latest ↓</button>` : nothing}
      </div>
      ${this.saved
        ? nothing
        : html`<pm-composer
            .sessionKey=${this.tabId}
            .status=${this.status}
            .blocked=${blocked}
            .tool=${currentTool(t.entries)}
            .tokens=${turnOutputTokens(t.entries)}
            @pm-prompt-sent=${this.onPromptSent}
          ></pm-composer>`}
    `;
  }

  private renderBanner() {
    const link = this.link;
    if (link.kind === 'closed-final') return html`<div class="banner error" role="alert">${closedText(link.code, isOutsideKey(this.tabId))}</div>`;
    if (link.kind === 'access-lost') return html`<div class="banner error" role="alert">This device is no longer paired.</div>`;
    if (link.kind === 'reconnecting') {
      const text = link.failures >= UNAVAILABLE_AFTER ? 'The timeline is not available from the agent. Retrying…' : 'Reconnecting…';
      return html`<div class="banner" role="status">
        ${text}
        <button type="button" @click=${() => this.connection?.reconnectNow()}>Retry now</button>
      </div>`;
    }
    if (this.timeline.error) return html`<div class="banner error" role="alert">${this.timeline.error}</div>`;
    return nothing;
  }

  private renderEmpty() {
    if (!this.timeline.loaded) {
      return html`<div class="placeholder" role="status">${this.link.kind === 'open' ? 'Reading the conversation…' : 'Connecting…'}</div>`;
    }
    return html`<div class="placeholder">
      ${this.timeline.sessionId === null
        ? 'No Claude conversation in this tab yet. It shows here once Claude starts and you send a prompt.'
        : 'Nothing said yet. Send a prompt below and the conversation shows here.'}
    </div>`;
  }

  private renderEntry(e: TimelineEntry) {
    switch (e.kind) {
      case 'prompt':
        return this.renderPrompt(e);
      case 'assistant-text':
        return this.renderAssistant(e);
      case 'tool-call':
        return this.renderTool(e);
      case 'thinking':
        return this.renderThinking(e);
      case 'interrupt':
        return this.renderInterrupt(e);
      case 'notice':
        return this.renderNotice(e);
    }
  }

  private renderPrompt(e: PromptEntry) {
    return html`<div class="prompt">
      <p class="text"><span class="visually-hidden">You: </span>${e.text}${e.truncated ? html`<span class="cut"> … (shortened)</span>` : nothing}</p>
      <time datetime=${e.at}>${shortTime(e.at)}</time>
    </div>`;
  }

  private renderAssistant(e: AssistantTextEntry) {
    return html`<div class="assistant">
      <span class="visually-hidden">Claude: </span>
      <div class="md">${markdownOf(e)}</div>
      ${e.truncated ? html`<div class="cut">… (shortened; the terminal has it all)</div>` : nothing}
      ${e.aborted ? html`<div class="cut">Stopped while writing.</div>` : nothing}
    </div>`;
  }

  private renderTool(e: ToolCallEntry) {
    const r = e.result;
    const mark = !r
      ? html`<span class="mark running" role="img" aria-label="running"></span>`
      : r.status === 'ok'
        ? html`<span class="mark ok" role="img" aria-label="done">✓</span>`
        : html`<span class="mark error" role="img" aria-label="failed">!</span>`;
    const input = inputText(e);
    return html`<details class="tool">
      <summary>
        ${mark}
        <span class="tool-name">${e.name}</span>
        <span class="tool-summary">${e.summary}</span>
      </summary>
      <div class="body">
        ${input ? html`<span class="label">${e.name === 'Bash' ? 'Command' : 'Input'}</span><pre>${input}</pre>` : nothing}
        ${r
          ? html`<span class="label">${r.status === 'ok' ? 'Result' : 'Error'}</span>
              <pre class=${r.status === 'error' ? 'error' : ''}>${r.text || '(no output)'}${r.truncated ? '\n…' : ''}</pre>
              ${r.truncated ? html`<span class="cut">Only the start of the result is shown; the terminal has it all.</span>` : nothing}`
          : html`<span class="meta">Running, or waiting for your answer in the terminal.</span>`}
      </div>
    </details>`;
  }

  private renderThinking(e: ThinkingEntry) {
    if (e.redacted || e.length === 0) return html`<div class="meta">Claude thought (not shown by the API).</div>`;
    return html`<details class="thinking">
      <summary>Thinking · ${characters(e.length)}</summary>
      <div class="body"><p class="text">${e.firstLine}</p></div>
    </details>`;
  }

  private renderInterrupt(e: InterruptEntry) {
    return html`<div class="marker" role="note">${e.forToolUse ? 'Tool call stopped by you' : 'Interrupted by you'}</div>`;
  }

  private renderNotice(e: NoticeEntry) {
    return html`<div class="notice ${e.level}" role="note">${e.text}</div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-timeline-view': TimelineView;
  }
}
