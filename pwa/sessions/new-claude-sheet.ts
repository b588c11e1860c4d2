import { css, html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { ClaudeSessionSummary, CreateTabBody, PermissionMode } from '../../protocol/api.js';
import { ApiRequestError, errorText } from '../core/api-request.js';
import { PendingActionController } from '../core/pending-action-controller.js';
import { router, terminalPath } from '../core/router.js';
import { sessionActions } from '../core/session-actions.js';
import { byteSize, relativeTime } from '../core/time.js';
import { controls, fieldLabel } from '../ui/styles.js';

/** Claude Code's permission modes, in words; the empty value leaves the choice to the agent. */
const MODES: [PermissionMode | '', string][] = [
  ['', 'As configured (no flag)'],
  ['default', 'Ask before acting (default)'],
  ['acceptEdits', 'Accept file edits (acceptEdits)'],
  ['plan', 'Plan only, no changes (plan)'],
  ['auto', 'Auto (auto)'],
  ['dontAsk', 'Deny unless allowed (dontAsk)'],
  ['bypassPermissions', 'Never ask (bypassPermissions)'],
];

/** How many past sessions show before "Show all". */
const FIRST_SESSIONS = 8;

type SessionsState =
  | { kind: 'loading' }
  | { kind: 'ready'; sessions: ClaudeSessionSummary[] }
  | { kind: 'unavailable' }
  | { kind: 'error'; message: string };

/**
 * Starting Claude with choices: a permission mode, and optionally a past session of this
 * workspace to resume. Opens the new tab's terminal, as "New tab" does; fires `pm-cancel`.
 */
@customElement('pm-new-claude-sheet')
export class NewClaudeSheet extends LitElement {
  static override styles = [
    controls,
    fieldLabel,
    css`
      :host {
        display: block;
      }
      .sheet {
        display: flex;
        flex-direction: column;
        gap: 12px;
        padding: 12px;
        border-radius: 10px;
        background: var(--pm-bg);
        border: 1px solid var(--pm-border);
      }
      .head {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 8px;
      }
      h3 {
        margin: 0;
        font-size: 16px;
      }
      select {
        font: inherit;
        color: var(--pm-text);
        min-height: var(--pm-tap);
        padding: 0 10px;
        border-radius: 10px;
        border: 1px solid var(--pm-field-border);
        background: var(--pm-surface-2);
      }
      select:focus-visible {
        outline: 2px solid var(--pm-accent);
        outline-offset: 1px;
      }
      .start {
        align-self: stretch;
      }
      h4 {
        margin: 4px 0 0;
        font-size: 14px;
        font-weight: 600;
        color: var(--pm-muted);
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-direction: column;
        gap: 6px;
      }
      .session {
        width: 100%;
        min-height: 56px;
        padding: 8px 12px;
        flex-direction: column;
        align-items: flex-start;
        gap: 2px;
        text-align: left;
        white-space: normal;
      }
      .prompt {
        width: 100%;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .prompt.none {
        color: var(--pm-muted);
        font-style: italic;
      }
      .meta {
        color: var(--pm-muted);
        font-size: 13px;
      }
      .note {
        margin: 0;
        color: var(--pm-muted);
        font-size: 14px;
      }
      .more {
        align-self: flex-start;
      }
    `,
  ];

  @property() workspaceId = '';
  @state() private sessions: SessionsState = { kind: 'loading' };
  @state() private mode: PermissionMode | '' = '';
  @state() private showAll = false;
  private readonly creation = new PendingActionController(this);

  override connectedCallback(): void {
    super.connectedCallback();
    // After the first update: the sheet's code loads when it is first opened, so its
    // workspace may be applied only by that update.
    void this.updateComplete.then(() => {
      if (this.isConnected) void this.load();
    });
  }

  override firstUpdated(): void {
    this.renderRoot.querySelector<HTMLButtonElement>('.start')?.focus();
  }

  private async load(): Promise<void> {
    this.sessions = { kind: 'loading' };
    try {
      const res = await sessionActions.request(this, 'pm-claude-sessions', { workspaceId: this.workspaceId });
      this.sessions = { kind: 'ready', sessions: Array.isArray(res?.sessions) ? res.sessions : [] };
    } catch (err) {
      // An agent without the route answers 404; starting a new session still works.
      this.sessions = err instanceof ApiRequestError && err.status === 404 ? { kind: 'unavailable' } : { kind: 'error', message: errorText(err) };
    }
  }

  private async create(resume?: string): Promise<void> {
    const claude: NonNullable<CreateTabBody['claude']> = {};
    if (resume) claude.resume = resume;
    if (this.mode) claude.permissionMode = this.mode;
    const created = await this.creation.run(() =>
      sessionActions.request(this, 'pm-tab-create', { workspaceId: this.workspaceId, kind: 'claude', claude }),
    );
    if (!created) return;
    router.go(terminalPath(created.value.id));
    this.dispatchEvent(new CustomEvent('pm-cancel'));
  }

  override render() {
    return html`<div
      class="sheet"
      role="group"
      aria-labelledby="title"
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === 'Escape') this.dispatchEvent(new CustomEvent('pm-cancel'));
      }}
    >
      <div class="head">
        <h3 id="title">Start Claude</h3>
        <button class="ghost" @click=${() => this.dispatchEvent(new CustomEvent('pm-cancel'))}>Cancel</button>
      </div>
      <label>
        Permission mode
        <select
          .value=${this.mode}
          ?disabled=${this.creation.busy}
          @change=${(e: Event) => {
            this.mode = (e.target as HTMLSelectElement).value as PermissionMode | '';
          }}
        >
          ${MODES.map(([value, text]) => html`<option value=${value} ?selected=${value === this.mode}>${text}</option>`)}
        </select>
      </label>
      <button class="primary start" ?disabled=${this.creation.busy} @click=${() => this.create()}>Start a new session</button>
      ${this.creation.error ? html`<div class="error" role="alert">${this.creation.error}</div>` : nothing}
      <h4>Or resume a past session</h4>
      ${this.renderSessions()}
    </div>`;
  }

  private renderSessions() {
    const s = this.sessions;
    switch (s.kind) {
      case 'loading':
        return html`<p class="note" role="status">Looking for past sessions…</p>`;
      case 'unavailable':
        return html`<p class="note">This agent cannot list past sessions yet.</p>`;
      case 'error':
        return html`<p class="note">Could not list past sessions: ${s.message}</p>
          <button class="more" @click=${this.load}>Try again</button>`;
      case 'ready': {
        if (s.sessions.length === 0) return html`<p class="note">No past sessions in this workspace's directory.</p>`;
        const shown = this.showAll ? s.sessions : s.sessions.slice(0, FIRST_SESSIONS);
        return html`<ul>
            ${shown.map((session) => this.renderSession(session))}
          </ul>
          ${shown.length < s.sessions.length
            ? html`<button class="more" @click=${() => (this.showAll = true)}>Show all ${s.sessions.length}</button>`
            : nothing}`;
      }
    }
  }

  private renderSession(session: ClaudeSessionSummary) {
    const when = relativeTime(session.modifiedAt);
    const prompt = session.firstPrompt?.trim();
    return html`<li>
      <button
        class="session"
        ?disabled=${this.creation.busy}
        aria-label=${`Resume “${prompt || 'a session with no prompt'}”, ${when}`}
        @click=${() => this.create(session.id)}
      >
        <span class="prompt ${prompt ? '' : 'none'}">${prompt || 'No prompt'}</span>
        <span class="meta">${when} · ${byteSize(session.sizeBytes)}</span>
      </button>
    </li>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-new-claude-sheet': NewClaudeSheet;
  }
}
