/**
 * The real Claude Code CLI in a tmux pane, driven by keys and read from the screen, as a person
 * at the terminal would: in a server of its own (`ClaudePane.start`), in a Claude tab of a test
 * agent (`ClaudeTabPane`), or in any pane of a server a test runs. And settings with HTTP hooks
 * written by hand, not by the agent's generator, so a test can hold them fixed.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import type { TabView } from '../../protocol/api.js';
import type { AgentHandle } from './agent.js';
import { tmuxEnvArgs } from './claude-env.js';
import { eventually } from './eventually.js';
import { testSocketName } from './temp.js';
import { TmuxServer } from './tmux-server.js';
import { processAlive } from '../../agent/util/process-alive.js';

/** The line the permission dialog asks in 2.1.332. */
export const PERMISSION_DIALOG = 'Do you want to proceed?';
/** An empty input line; the CLI pads its prompt character with a no-break space, read as a space. */
export const EMPTY_INPUT = /^❯ *$/m;

export interface HttpHookSettingsOptions {
  /** Loopback port the hooks post to. */
  port: number;
  events: readonly string[];
  token?: string;
}

/**
 * Writes a settings file with one HTTP hook per event, in the shape the agent is to generate:
 * the token as a literal header, the pane and tmux server interpolated from Claude's environment,
 * PermissionRequest allowed to wait 600 s for an answer and every other event 10 s.
 */
export function writeHttpHookSettings(file: string, options: HttpHookSettingsOptions): string {
  const hooks: Record<string, unknown[]> = {};
  for (const event of options.events) {
    const hook = {
      type: 'http',
      url: `http://127.0.0.1:${options.port}/hooks/${event}`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude fills in ${TMUX} from its own environment.
      headers: { 'X-Pocketmux-Token': options.token ?? 't', 'X-Pocketmux-Pane': '$TMUX_PANE', 'X-Pocketmux-Tmux': '${TMUX}' },
      allowedEnvVars: ['TMUX_PANE', 'TMUX'],
      timeout: event === 'PermissionRequest' ? 600 : 10,
    };
    hooks[event] = [{ matcher: '', hooks: [hook] }];
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ hooks }, null, 2)}\n`);
  return file;
}

/**
 * A loopback port that nothing listens on: one the kernel handed out a moment ago and that was
 * released at once, so connecting to it is refused, as with the agent down.
 */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

export interface ClaudePaneOptions {
  /** The complete environment for the CLI (`prepareClaudeEnv(...).env`). */
  env: Record<string, string>;
  bin: string;
  cwd: string;
  /** Arguments after the binary. */
  args: string[];
  cols?: number;
  rows?: number;
  /** When the CLI is ready for a prompt; Claude's idle prompt when absent (another agent CLI says its own). */
  ready?: { what: string; test: (screen: string) => boolean };
}

/** A claude in a tmux pane: any server (`-L socket`), any target (a session, a pane id). */
export class ClaudePane {
  private socketPath: string | undefined;
  private pids: number[] = [];
  /** With only PATH: whatever this process carries (an outer Claude's variables, say) must not reach a server started here and, through it, the CLI. */
  private readonly server: TmuxServer;

  constructor(
    readonly socket: string,
    readonly target: string,
  ) {
    this.server = new TmuxServer({ name: socket });
  }

  /** Starts the CLI in a new tmux server of its own and waits for its idle prompt; `stop` ends it. */
  static async start(options: ClaudePaneOptions): Promise<ClaudePane> {
    const pane = new ClaudePane(testSocketName('claude'), 'claude');
    await pane.tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      pane.target,
      '-x',
      String(options.cols ?? 120),
      '-y',
      String(options.rows ?? 40),
      '-c',
      options.cwd,
      ...tmuxEnvArgs(options.env),
      options.bin,
      ...options.args,
    );
    pane.socketPath = (await pane.tmux('display-message', '-p', '-t', pane.target, '#{socket_path}')).trim();
    pane.pids = [Number((await pane.tmux('display-message', '-p', '-t', pane.target, '#{pane_pid}')).trim())];
    const ready = options.ready ?? { what: 'the idle prompt', test: (s: string) => s.includes('Claude Code v') && EMPTY_INPUT.test(s) };
    await pane.waitScreen(ready.what, ready.test, 30_000);
    return pane;
  }

  tmux(...args: string[]): Promise<string> {
    return this.server.run(...args);
  }

  /** The screen as text; the CLI pads its prompt character with a no-break space, read as a space. */
  async screen(): Promise<string> {
    return (await this.tmux('capture-pane', '-p', '-t', this.target)).replaceAll('\u00a0', ' ');
  }

  waitScreen(what: string, test: (screen: string) => boolean, timeoutMs = 20_000): Promise<string> {
    return eventually(
      async () => {
        const screen = await this.screen();
        return test(screen) ? screen : null;
      },
      timeoutMs,
      what,
      async () => `--- pane ---\n${await this.screen()}`,
    );
  }

  keys(...keys: string[]): Promise<string> {
    return this.tmux('send-keys', '-t', this.target, ...keys);
  }

  /**
   * Types text and waits until the input line shows it, so keys the CLI dropped fail here, with
   * the screen, rather than as a missing request later. Enter is left to the caller.
   */
  async type(input: string): Promise<void> {
    await this.keys('-l', input);
    await this.waitScreen(`"${input}" in the input line`, (screen) => screen.includes(`❯ ${input}`));
  }

  async submit(input: string): Promise<void> {
    await this.type(input);
    await this.keys('Enter');
  }

  /**
   * The dialog drops keys that arrive in its first few hundred milliseconds (a guard against
   * typed-ahead text answering it), so the answer is sent again until the dialog is gone. The
   * wait between tries is long enough for an accepted answer to show, so no key goes to the
   * prompt behind it.
   */
  async answerDialog(key: string, dialog = PERMISSION_DIALOG): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      await this.keys('-l', key);
      const gone = await this.waitScreen('the dialog to close', (s) => !s.includes(dialog), 1_500).catch(() => undefined);
      if (gone !== undefined) return;
    }
    throw new Error(`the dialog ignored "${key}"\n--- pane ---\n${await this.screen()}`);
  }

  /** Kills a server `start` started and waits for the CLI to be gone: it writes to HOME as it dies. */
  async stop(): Promise<void> {
    const running = [...this.pids, ...(await childPids(this.pids))];
    await this.tmux('kill-server').catch(() => undefined);
    await eventually(() => !running.some(processAlive), 10_000, 'the CLI to be gone').catch(() => undefined);
    // kill-server leaves the socket file behind.
    if (this.socketPath) rmSync(this.socketPath, { force: true });
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

function childPids(pids: number[]): Promise<number[]> {
  return new Promise((resolve) => {
    execFile('pgrep', ['-P', pids.join(',')], (_error, stdout) => resolve(stdout.split('\n').filter(Boolean).map(Number)));
  });
}
