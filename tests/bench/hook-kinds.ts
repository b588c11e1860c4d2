/**
 * HTTP hooks against command hooks, as Claude runs them. Two real CLIs run in tabs of one
 * agent, each started with one of the settings files the agent generates: `settings.json`,
 * where Claude POSTs every event itself, and `settings-command.json`, where every event runs
 * hook.sh (sh and curl). Each round presses Enter on a typed prompt and times until the
 * `status:update` saying `busy` (UserPromptSubmit) reaches a client on `/api/status`.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { hookSettingsPaths } from '../../agent/claude/hook-files.js';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { ClaudeState, StatusServerMessage } from '../../protocol/status.js';
import { cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { CLAUDE_BIN, prepareClaudeEnv, shellQuote } from '../support/claude-env.js';
import { ClaudePane, EMPTY_INPUT } from '../support/claude-pane.js';
import { api, claim, createTab, type Session, deviceSocket } from '../support/client.js';
import { FakeAnthropic, text } from '../support/fake-anthropic.js';
import { AttachedTerminal, within } from './claude-cli.js';
import { quantile } from '../support/stats.js';

export const HOOK_KINDS_ROUNDS = 25;

export interface HookKindsResult {
  rounds: number;
  /** Enter → `busy` on the status client, with HTTP hooks (`settings.json`). */
  httpP50: number;
  httpP99: number;
  /** The same with command hooks (`settings-command.json`). */
  commandP50: number;
  commandP99: number;
  /** commandP50 − httpP50: what HTTP hooks save. */
  saved: number;
}

type Kind = 'http' | 'command';

const COLS = 120;
const ROWS = 40;
/** Left between a turn's end and the next Enter in any pane, so no turn is still closing. */
const SETTLE_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client on `/api/status` that times states as they arrive: the moment is taken in the
 * message handler, before anything else runs.
 */
class StatusTimer {
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  private readonly running = new Set<string>();
  private readonly watches = new Map<string, { states: ClaudeState[]; times: number[]; resolve: (times: number[]) => void }>();
  private readonly runningWaiters = new Map<string, () => void>();

  constructor(session: Session) {
    this.ws = deviceSocket(session, '/api/status');
    this.opened = new Promise((resolve) => this.ws.once('open', () => resolve()));
    this.ws.on('message', (data) => {
      const at = performance.now();
      const msg = JSON.parse(String(data)) as StatusServerMessage;
      if (msg.type !== 'status:update') return;
      if (msg.status.claudeRunning) {
        this.running.add(msg.tabId);
        this.runningWaiters.get(msg.tabId)?.();
        this.runningWaiters.delete(msg.tabId);
      }
      const watch = this.watches.get(msg.tabId);
      if (!watch || msg.status.state !== watch.states[watch.times.length]) return;
      watch.times.push(at);
      if (watch.times.length === watch.states.length) {
        this.watches.delete(msg.tabId);
        watch.resolve(watch.times);
      }
    });
  }

  /**
   * Resolves with the arrival time of each of `states` for the tab, in that order, counting only
   * updates from now on. A statusLine report sends the state the tab is in again: a watch for
   * the next state is armed only once the one before it arrived.
   */
  sequence(tabId: string, states: ClaudeState[]): Promise<number[]> {
    return new Promise((resolve) => this.watches.set(tabId, { states, times: [], resolve }));
  }

  /** Resolves once a hook said claude runs in the tab (SessionStart). */
  claudeRunning(tabId: string): Promise<void> {
    if (this.running.has(tabId)) return Promise.resolve();
    return new Promise((resolve) => this.runningWaiters.set(tabId, resolve));
  }
}

interface Contender {
  kind: Kind;
  tab: TabView;
  term: AttachedTerminal;
  times: number[];
}

export async function hookKindsBench(rounds = HOOK_KINDS_ROUNDS, progress: (line: string) => void = () => undefined): Promise<HookKindsResult> {
  const fake = await FakeAnthropic.start();
  // Every prompt is answered with plain text, which ends the turn: UserPromptSubmit, then Stop.
  fake.fallback(text('Noted.'));
  const env = newTestEnvironment();
  mkdirSync(join(env.home, 'project'), { recursive: true });
  const project = realpathSync(join(env.home, 'project'));
  const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  const terms: AttachedTerminal[] = [];
  let status: StatusTimer | undefined;
  try {
    // The agent's tmux server carries the CLI's environment (HOME, the stand-in API), as in
    // the Claude tabs bench.
    const agent = await startAgent({ reuse: env, env: claude.env });
    const session = await claim(agent, 'bench');
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    status = new StatusTimer(session);
    await status.opened;
    const timer = status;
    const settings = hookSettingsPaths(agent.dataDir);

    // A tab of the agent whose shell starts claude with the settings file given: the agent
    // knows the pane, so its hooks count for the tab, whichever way they arrive.
    const start = async (kind: Kind): Promise<Contender> => {
      const tab = await createTab(session, ws.body.id);
      const name = `pm_${tab.workspaceId}_${tab.id}`;
      const command = `${shellQuote(CLAUDE_BIN)} --settings ${shellQuote(kind === 'http' ? settings.http : settings.command)}`;
      await tmux(agent.tmuxSocket, 'send-keys', '-t', `=${name}:`, '-l', command);
      await tmux(agent.tmuxSocket, 'send-keys', '-t', `=${name}:`, 'Enter');
      const pane = new ClaudePane(agent.tmuxSocket, name);
      // Attached before the CLI draws its prompt: the window takes this terminal's size.
      const term = new AttachedTerminal(pane, COLS, ROWS);
      terms.push(term);
      await pane.waitScreen('the idle prompt', (s) => s.includes('Claude Code v') && EMPTY_INPUT.test(s), 30_000);
      await within(timer.claudeRunning(tab.id), 20_000, `SessionStart from the ${kind} tab`, pane);
      return { kind, tab, term, times: [] };
    };
    const http = await start('http');
    const command = await start('command');

    /** Types a prompt, presses Enter, times until `busy` arrives, then waits for the turn to end. */
    const round = async (c: Contender, prompt: string): Promise<number> => {
      const pane = c.term.pane;
      await pane.type(prompt);
      const states = timer.sequence(c.tab.id, ['busy', 'ready-for-review']);
      const enter = performance.now();
      c.term.write('\r');
      const [busy] = await within(states, 20_000, `busy, then ready-for-review after Enter on "${prompt}" (${c.kind} hooks)`, pane);
      await sleep(SETTLE_MS);
      return (busy as number) - enter;
    };

    // One round each first: the first turn of a session does work of its own (titles and such).
    await round(http, `hook kinds 0 ${http.kind}`);
    await round(command, `hook kinds 0 ${command.kind}`);
    for (let i = 1; i <= rounds; i++) {
      // Which kind goes first swaps every round, so neither always follows the other.
      for (const c of i % 2 === 0 ? [http, command] : [command, http]) c.times.push(await round(c, `hook kinds ${i} ${c.kind}`));
      if (i % 5 === 0 || i === rounds) {
        const f1 = (x: number) => x.toFixed(1);
        progress(`hook kinds: ${i}/${rounds} rounds, p50 so far HTTP ${f1(quantile(http.times, 0.5))} ms, command ${f1(quantile(command.times, 0.5))} ms`);
      }
    }
    const httpP50 = quantile(http.times, 0.5);
    const commandP50 = quantile(command.times, 0.5);
    return {
      rounds,
      httpP50,
      httpP99: quantile(http.times, 0.99),
      commandP50,
      commandP99: quantile(command.times, 0.99),
      saved: commandP50 - httpP50,
    };
  } finally {
    for (const term of terms) term.close();
    status?.ws.close();
    // Stops the agent, kills its tmux server and waits for both claudes to be gone.
    await cleanupAgents();
    await fake.close();
    claude.cleanup();
  }
}
