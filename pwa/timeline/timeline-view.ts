import { tabViewPath } from '../core/router.js';
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { TabView } from '../../protocol/api.js';
import { CloseCode } from '../../protocol/close-codes.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { parseSessionKey } from '../../protocol/session-key.js';
import type { TabStatus } from '../../protocol/status.js';
import type {
  TimelineEntry,
} from '../../protocol/timeline.js';
import { controls } from '../ui/styles.js';
import { copyCodeBlock } from './copy-code.js';
import { timelineEntry } from './timeline-entries.js';
import { timelineStyles } from './timeline-styles.js';
import type { ConnectionState } from '../core/reconnecting-socket.js';
import { TAB_MISSING_EVENT } from '../core/tab-missing.js';
import './composer.js';
import { agentOf, inputBlock } from './composer-target.js';
import { currentTool, turnOutputTokens } from './doing-now.js';
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

/**
 * A Claude tab's conversation: what the person asked, what Claude said (as Markdown), the
 * tools it ran and what they returned; and under it the composer, to write to Claude without a
 * terminal. Follows the end as entries arrive, unless the person scrolled up to read, in which
 * case a button offers the way back down.
 */
@customElement('pm-timeline-view')
export class TimelineView extends LitElement {
  static override styles = [controls, timelineStyles];

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

  private get gone(): boolean {
    return this.link.kind === 'closed-final' || this.link.kind === 'access-lost';
  }

  /** Where a file a tool wrote is reviewed: the session's Changes view, opened on it. */
  private readonly fileLink = (path: string): string => `${tabViewPath(this.tabId, 'changes')}?${new URLSearchParams({ file: path })}`;

  override render() {
    const t = this.timeline;
    const blocked = inputBlock({ key: this.tabId, tab: this.tab, outside: this.outside, status: this.status, gone: this.gone });
    return html`
      <div class="stage">
        ${this.renderBanner()}
        <div class="scroller" @scroll=${this.onScroll} @click=${copyCodeBlock}>
          ${t.entries.length > 0
            ? html`<ol class="entries" aria-label="Conversation">
                ${repeat(
                  t.entries,
                  (e) => e.id,
                  (e) => html`<li>${timelineEntry(e, this.fileLink, agentOf(this.tab))}</li>`,
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
            .agent=${agentOf(this.tab)}
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
    if (link.kind === 'closed-final') return html`<div class="banner error" role="alert">${closedText(link.code, parseSessionKey(this.tabId).kind === 'outside')}</div>`;
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
        ? `No ${agentOf(this.tab)} conversation in this tab yet. It shows here once ${agentOf(this.tab)} starts and you send a prompt.`
        : 'Nothing said yet. Send a prompt below and the conversation shows here.'}
    </div>`;
  }

}

declare global {
  interface HTMLElementTagNameMap {
    'pm-timeline-view': TimelineView;
  }
}
