import { css, html, nothing, type ReactiveControllerHost } from 'lit';
import { CLAUDE_MODE_TEXT, type ClaudeMode } from '../../protocol/claude-mode.js';
import { PendingActionController } from '../core/pending-action-controller.js';
import { modeMark } from '../core/permission-mode.js';
import { sessionRoutes } from '../core/session-routes.js';
import '../ui/confirm-bar.js';
import { caretIcon, checkIcon } from '../ui/icons.js';
import { BYPASS_QUESTION, MODE_HINT, modeChoices, type SwitchAnswer, shownMode, switchingText } from './mode-choices.js';

/** The agent's words as a sentence: they come without a full stop. */
function sentence(text: string): string {
  return /[.?!…]$/.test(text) ? text : `${text}.`;
}

/** What the switch needs to know of the session on screen, asked when it is needed. */
export interface ModeSession {
  /** The tab's id or the outside session's key. */
  key: string;
  /** The mode the status reports now. */
  statusMode: ClaudeMode | null;
}

/**
 * The tab screen's permission mode switch: a header button naming the mode, opening a menu of
 * the modes under the header; bypass asks first. While the agent presses Shift+Tab (a second
 * or two) the choice shows its progress; its refusal (a dialog is up, the session has no such
 * mode) stays in the menu, in the agent's words.
 */
export class ModeSwitchController extends PendingActionController {
  open = false;
  /** Bypass was chosen and waits on its confirmation. */
  confirmingBypass = false;
  /** The mode the agent is switching to. */
  target: ClaudeMode | null = null;
  /** The mode a refused switch started from: the agent may have pressed on past it before refusing. */
  private refusedFrom: ClaudeMode | null = null;
  private answer: SwitchAnswer | null = null;

  constructor(
    host: ReactiveControllerHost,
    private readonly session: () => ModeSession,
  ) {
    super(host);
  }

  /** The mode to show for what the status says now; an answer the status moved past is let go. */
  modeOf(statusMode: ClaudeMode | null): ClaudeMode | null {
    if (this.answer !== null && statusMode !== this.answer.statusModeThen) this.answer = null;
    return shownMode(statusMode, this.answer);
  }

  toggle(): void {
    this.open = !this.open;
    this.confirmingBypass = false;
    this.refusedFrom = null;
    this.clearError();
  }

  /** Another session on screen: nothing of this one's switch carries over. */
  reset(): void {
    this.open = false;
    this.confirmingBypass = false;
    this.answer = null;
    this.refusedFrom = null;
    this.clearError();
  }

  private choose(mode: ClaudeMode, current: ClaudeMode): void {
    if (mode === current) {
      this.toggle();
      return;
    }
    if (mode === 'bypass') {
      this.confirmingBypass = true;
      this.clearError();
      return;
    }
    void this.switchTo(mode, false);
  }

  private async switchTo(mode: ClaudeMode, confirm: boolean): Promise<void> {
    const { key, statusMode: from } = this.session();
    this.target = mode;
    this.confirmingBypass = false;
    this.refusedFrom = null;
    const done = await this.run(async () => {
      try {
        return await sessionRoutes(key).mode(confirm ? { mode, confirm } : { mode });
      } finally {
        this.target = null;
      }
    });
    const now = this.session();
    if (now.key !== key) return;
    if (!done) {
      this.refusedFrom = from;
      this.host.requestUpdate();
      return;
    }
    this.answer = { mode: done.value.mode, statusModeThen: now.statusMode };
    this.open = false;
    this.host.requestUpdate();
  }

  /** The header's button: the mode in its colour, quiet for manual. */
  renderButton(mode: ClaudeMode) {
    const mark = modeMark(mode);
    return html`<button
      type="button"
      class="ghost mode-button"
      aria-label=${`Permission mode: ${mark.text}`}
      title="Permission mode"
      aria-haspopup="true"
      aria-expanded=${this.open}
      @click=${() => this.toggle()}
    >
      <span class="chip ${mark.tone}">${mark.text.split(' ').map((word) => html`<span>${word}</span>`)}</span><span class="caret">${caretIcon()}</span>
    </button>`;
  }

  /** The mode alone, where no keys can reach Claude (an outside session started outside tmux). */
  renderMark(mode: ClaudeMode) {
    const mark = modeMark(mode);
    return html`<span class="mode-mark"><span class="chip ${mark.tone}" title="Permission mode">${mark.text}</span></span>`;
  }

  /** The menu under the header, with what became of the last choice; nothing while closed. */
  renderPanel(current: ClaudeMode) {
    if (!this.open) return nothing;
    // A refused switch may have left Claude elsewhere on its cycle than where it was: say where.
    const movedTo = this.error && this.refusedFrom !== null && this.refusedFrom !== current ? ` Claude is in ${CLAUDE_MODE_TEXT[current]} now.` : '';
    return html`<div class="mode-anchor"><div class="mode-panel" @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && !this.busy && this.toggle()}>
      <p class="mode-title" id="mode-title">Permission mode</p>
      <div class="mode-list" role="group" aria-labelledby="mode-title">
        ${modeChoices(current).map((mode) => this.renderChoice(mode, current))}
      </div>
      ${this.confirmingBypass
        ? html`<pm-confirm-bar
            message=${BYPASS_QUESTION}
            action="Switch to bypass"
            @pm-confirm=${() => void this.switchTo('bypass', true)}
            @pm-cancel=${() => {
              this.confirmingBypass = false;
              this.host.requestUpdate();
            }}
          ></pm-confirm-bar>`
        : nothing}
      ${this.target ? html`<p class="mode-note" role="status">${switchingText(CLAUDE_MODE_TEXT[this.target])}</p>` : nothing}
      ${this.error ? html`<p class="error" role="alert">${sentence(this.error)}${movedTo}</p>` : nothing}
    </div></div>`;
  }

  private renderChoice(mode: ClaudeMode, current: ClaudeMode) {
    const mark = modeMark(mode);
    const now = mode === current;
    return html`<button
      type="button"
      class="mode-choice"
      aria-current=${now ? 'true' : 'false'}
      ?disabled=${this.busy}
      @click=${() => {
        this.choose(mode, current);
        this.host.requestUpdate();
      }}
    >
      <span class="choice-name">
        <span class="chip ${mark.tone}">${mark.text}</span>
        ${now ? html`<span class="now">${checkIcon()}Current</span>` : nothing}
        ${this.target === mode ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}
      </span>
      <span class="hint">${MODE_HINT[mode]}</span>
    </button>`;
  }
}

/** The switch's button and menu, for the tab screen's styles. */
export const modeSwitchStyles = css`
  .mode-button {
    flex: none;
    gap: 2px;
    padding: 0 4px 0 6px;
    color: var(--pm-muted);
  }
  /* Word by word: on a phone each word takes a line of its own. */
  .mode-button .chip {
    gap: 0.3em;
  }
  .mode-mark {
    flex: none;
    display: inline-flex;
    padding: 0 4px;
  }
  .mode-button[aria-expanded='true'] {
    background: var(--pm-surface-2);
  }
  .mode-button .caret {
    display: inline-flex;
  }
  /*
   * Where the header ends: the menu hangs from here over the view, never pushing it down (a
   * terminal made shorter would have Claude redraw its screen while the agent reads its footer).
   * On a wide screen it sits under the header's right end; on a phone it takes the width.
   */
  .mode-anchor {
    position: relative;
    z-index: 3;
    height: 0;
  }
  .mode-panel {
    position: absolute;
    top: 4px;
    right: calc(8px + var(--pm-safe-right));
    width: min(360px, calc(100% - 16px));
    max-height: calc(var(--pm-viewport-height, 100dvh) - 64px);
    overflow-y: auto;
    box-sizing: border-box;
    display: flex;
    flex-direction: column;
    gap: 8px;
    padding: 10px;
    border-radius: var(--pm-radius);
    background: var(--pm-surface);
    border: 1px solid var(--pm-border);
    box-shadow: 0 6px 20px var(--pm-shadow);
  }
  .mode-title {
    margin: 0;
    padding: 0 4px;
    color: var(--pm-muted);
    font-size: 13px;
    font-weight: 600;
  }
  .mode-list {
    display: grid;
    gap: 6px;
  }
  .mode-choice {
    flex-direction: column;
    align-items: flex-start;
    justify-content: center;
    gap: 4px;
    padding: 8px 10px;
    white-space: normal;
    text-align: left;
    background: transparent;
  }
  .mode-choice[aria-current='true'] {
    background: var(--pm-surface-2);
    border-color: var(--pm-field-border);
  }
  .choice-name {
    display: flex;
    align-items: center;
    gap: 8px;
    --pm-spinner-size: 14px;
  }
  .now {
    display: inline-flex;
    align-items: center;
    gap: 2px;
    color: var(--pm-muted);
    font-size: 13px;
  }
  .now svg {
    width: 16px;
    height: 16px;
  }
  .hint {
    color: var(--pm-muted);
    font-size: 13px;
    line-height: 1.3;
  }
  .mode-note,
  .mode-panel .error {
    margin: 0;
    padding: 0 4px;
    font-size: 14px;
  }
  .mode-note {
    color: var(--pm-muted);
  }
  /* On a phone the header is narrow: a mode of two words takes two short lines, and the caret goes. */
  @container (max-width: 560px) {
    .mode-button {
      padding: 0 2px;
    }
    .mode-button .caret {
      display: none;
    }
    .mode-button .chip {
      flex-direction: column;
      gap: 0;
      line-height: 1.1;
      padding: 2px 6px;
      font-size: 11px;
    }
    /* Manual, the common case, is a quiet word there: the name beside it keeps its room. */
    .mode-button .chip.quiet {
      padding: 0;
      border-color: transparent;
      font-size: 12px;
    }
    .mode-panel {
      top: 0;
      left: 0;
      right: 0;
      width: auto;
      padding: 8px calc(8px + var(--pm-safe-right)) 10px calc(8px + var(--pm-safe-left));
      border-radius: 0;
      border-width: 0 0 1px;
    }
  }
  /* A quarter of a laptop's split: the view switch and the pane's own actions keep the room; the row in the list still marks the mode. */
  @container (max-width: 280px) {
    .mode-button,
    .mode-mark {
      display: none;
    }
  }
`;
