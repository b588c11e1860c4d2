/**
 * Claudes started outside pocketmux, for the browser tests that need cards and rows of every
 * kind: each posts through the agent's installed hook script as the `--global` hooks do, from
 * a claude stand-in in a pane of the person's own tmux, or from no tmux at all.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import type { Approval } from '../../protocol/approvals.js';
import { type AgentHandle, agentEnv, tmux } from './agent.js';
import { api, type Session } from './client.js';
import { eventually } from './eventually.js';
import { type OutsideFixture, outsidePayload, runHookScript } from './hook-script.js';
import { claudeStandIn } from './claude-stand-in.js';
import type { TmuxServer } from './tmux-server.js';

export class OutsideClaudes {
  /** Permission hooks left waiting for their answer, stopped by `stop()`. */
  private readonly held: ChildProcess[] = [];
  private readonly claude: string;
  private readonly paneEnv: Record<string, string>;

  constructor(
    private readonly agent: AgentHandle,
    private readonly session: Session,
    private readonly own: TmuxServer,
  ) {
    this.claude = claudeStandIn(agent.root);
    this.paneEnv = Object.fromEntries(Object.entries(agentEnv(agent)).filter((e): e is [string, string] => e[1] !== undefined));
  }

  /** One hook event from `who`, with the environment of where it runs (`{}`: no tmux). */
  async hook(who: OutsideFixture, event: string, env: Record<string, string> = {}, fields: Record<string, unknown> = {}): Promise<void> {
    const run = await runHookScript(this.agent.dataDir, `--global ${event}`, outsidePayload(who, event, fields), env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
  }

  /** A claude stand-in in a pane of the person's own tmux, in `who`'s folder: the hook environment there. */
  async standIn(who: OutsideFixture): Promise<Record<string, string>> {
    const pane = await this.own.open(who.cwd, `exec '${this.claude}'`, this.paneEnv);
    await eventually(async () => (await tmux(this.own.socket, 'display', '-p', '-t', pane, '#{pane_current_command}')).trim() === 'claude', 10_000, 'the claude stand-in');
    return { TMUX: await this.own.tmuxEnv(), TMUX_PANE: pane };
  }

  /** A permission request from `who` in no tmux, left waiting for its answer: an approval card. */
  async askApproval(who: OutsideFixture, command: string): Promise<void> {
    await this.hook(who, 'SessionStart');
    await this.hook(who, 'UserPromptSubmit');
    const request = outsidePayload(who, 'PermissionRequest', { tool_input: { command, description: 'Run the checks' } });
    void runHookScript(this.agent.dataDir, '--global PermissionRequest', request, {}, (child) => {
      this.held.push(child);
    });
    await eventually(async () => {
      const r = await api<{ approvals: Approval[] }>(this.session, 'GET', '/api/approvals');
      return r.body.approvals.some((a) => a.tabId === who.key);
    }, 10_000, 'the approval');
  }

  stop(): void {
    for (const child of this.held) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}
