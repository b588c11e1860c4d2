/**
 * A Claude tab of a running agent, seen and driven through its tmux pane as a person at the
 * terminal would: read the screen, type a prompt, answer a dialog.
 */
import type { TabView } from '../../protocol/api.js';
import { type AgentHandle, tmux } from './agent.js';
import { eventually } from './client.js';

/** The line the permission dialog asks in 2.1.332. */
export const PERMISSION_DIALOG = 'Do you want to proceed?';

/** A claude in a tmux pane: any server (`-L socket`), any target. */
export class ClaudePane {
  constructor(
    readonly socket: string,
    readonly target: string,
  ) {}

  /** The screen as text, no-break spaces read as spaces. */
  async screen(): Promise<string> {
    return (await tmux(this.socket, 'capture-pane', '-p', '-t', this.target)).replaceAll('\u00a0', ' ');
  }

  waitScreen(what: string, test: (s: string) => boolean, timeoutMs = 20_000): Promise<string> {
    return eventually(
      async () => {
        const s = await this.screen();
        return test(s) ? s : null;
      },
      timeoutMs,
      what,
    );
  }

  keys(...keys: string[]): Promise<string> {
    return tmux(this.socket, 'send-keys', '-t', this.target, ...keys);
  }

  /** Types a prompt, waits until the input line shows it (keys can be dropped), presses Enter. */
  async submit(input: string): Promise<void> {
    await this.keys('-l', input);
    await this.waitScreen(`"${input}" typed`, (s) => s.includes(`❯ ${input}`));
    await this.keys('Enter');
  }

  /** The dialog ignores keys in its first few hundred ms, so the answer is repeated until it closes. */
  async answerDialog(key: string, dialog = PERMISSION_DIALOG): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      await this.keys('-l', key);
      const closed = await this.waitScreen('the dialog to close', (s) => !s.includes(dialog), 1_500).catch(() => null);
      if (closed) return;
    }
    throw new Error(`the dialog ignored "${key}":\n${await this.screen()}`);
  }
}

/** A Claude tab of a running agent: its pane on the agent's tmux server. */
export class ClaudeTabPane extends ClaudePane {
  constructor(
    agent: Pick<AgentHandle, 'tmuxSocket'>,
    readonly tab: Pick<TabView, 'id' | 'workspaceId'>,
  ) {
    super(agent.tmuxSocket, `=pm_${tab.workspaceId}_${tab.id}:`);
  }
}
