import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { SlashCommandView } from '../../protocol/api.js';
import { agentText } from '../core/agent-text.js';
import { errorText } from '../core/api-request.js';
import { slashCommands } from './session-input.js';
import { filterCommands, slashQuery, sourceLabel } from './slash-commands.js';

type Commands =
  | { kind: 'not-asked' }
  | { kind: 'loading' }
  | { kind: 'ready'; list: SlashCommandView[] }
  | { kind: 'failed'; message: string };

/**
 * Claude's slash commands for the composer's `/` menu: asked of the agent once per session
 * shown, filtered by what follows the `/`, and drawn as a list the field points into.
 */
export class SlashMenuController implements ReactiveController {
  private commands: Commands = { kind: 'not-asked' };

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly sessionKey: () => string,
    /** Whose commands they are, by name ("Claude", "Codex"). */
    private readonly agent: () => string = () => 'Claude',
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  /** Another session: its commands are its own. */
  reset(): void {
    this.commands = { kind: 'not-asked' };
  }

  /** A half-typed command is not sent while the list that would complete it loads. */
  get loading(): boolean {
    return this.commands.kind === 'loading';
  }

  private set(commands: Commands): void {
    this.commands = commands;
    this.host.requestUpdate();
  }

  /** Asked once per view; a failure is said in the menu and asked again on the next `/`. */
  async load(): Promise<void> {
    if (this.commands.kind === 'loading' || this.commands.kind === 'ready') return;
    const key = this.sessionKey();
    this.set({ kind: 'loading' });
    try {
      const list = await slashCommands(key);
      if (key === this.sessionKey()) this.set({ kind: 'ready', list });
    } catch (err) {
      if (key === this.sessionKey()) this.set({ kind: 'failed', message: errorText(err) });
    }
  }

  /** The commands matching the `/word` that ends at `caret` in `value`. */
  options(value: string, caret: number): SlashCommandView[] {
    if (this.commands.kind !== 'ready') return [];
    const query = slashQuery(value, caret);
    return query === null ? [] : filterCommands(this.commands.list, query);
  }

  render(options: readonly SlashCommandView[], chosen: number, pick: (command: SlashCommandView) => void) {
    const c = this.commands;
    const agent = this.agent();
    const active = Math.min(chosen, options.length - 1);
    // The prompt field keeps the keyboard and points at the chosen command (aria-activedescendant),
    // scrolled into view as ↑ and ↓ move. The list can take the focus too (Shift+Tab from the
    // field), to be scrolled and read with the keys like any scrolling region; a tap never moves
    // the focus there (mousedown).
    return html`<div class="menu" tabindex="0" @mousedown=${(e: Event) => e.preventDefault()}>
      ${c.kind === 'loading' || c.kind === 'not-asked' ? html`<div class="menu-note" role="status">Loading ${agent}'s commands…</div>` : nothing}
      ${c.kind === 'failed' ? html`<div class="menu-note error" role="alert">${agent}'s commands could not be listed: ${agentText(c.message)}</div>` : nothing}
      ${
        c.kind === 'ready' && options.length === 0
          ? html`<div class="menu-note" role="status">${c.list.length === 0 ? `${agent}'s commands are not listed here: type one and send it.` : 'No command matches.'}</div>`
          : nothing
      }
      <ul id="slash-menu" role="listbox" aria-label="Slash commands" ?hidden=${options.length === 0}>
        ${options.map(
          (cmd, i) => html`<li id=${`command-${i}`} role="option" aria-selected=${i === active} @click=${() => pick(cmd)}>
            <span class="cmd-name">/${cmd.name}</span>
            <span class="cmd-source">${sourceLabel(cmd.source)}</span>
            ${cmd.description ? html`<span class="cmd-desc">${cmd.description}</span>` : nothing}
          </li>`,
        )}
      </ul>
    </div>`;
  }
}
