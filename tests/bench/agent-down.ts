/**
 * With the agent down, what do its HTTP hooks cost Claude? The real CLI runs twice side by side,
 * once with an HTTP hook on every event but SessionStart, all posting to a loopback port nothing
 * listens on, once with no hooks at all. Each round presses Enter on a typed prompt and times
 * until the permission dialog for the Bash call the stand-in API asks for is on the screen.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { HOOK_EVENTS, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudePane, closedPort, EMPTY_INPUT, PERMISSION_DIALOG, writeHttpHookSettings } from '../support/claude-pane.js';
import { bash, FakeAnthropic } from '../support/fake-anthropic.js';

export const AGENT_DOWN_ROUNDS = 15;

export interface AgentDownResult {
  rounds: number;
  /** Enter → dialog on screen, p50, with HTTP hooks to a closed port. */
  httpP50: number;
  /** The same with no hooks at all. */
  noneP50: number;
  /** httpP50 − noneP50. */
  difference: number;
}

const COLS = 120;
const ROWS = 40;
/** The dialog's question with the spaces taken out: tmux may draw a run of blanks as a cursor move. */
const DIALOG_MARK = PERMISSION_DIALOG.replaceAll(' ', '');

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/**
 * A terminal attached to the pane, in this process: Enter is pressed through it, as a person
 * at that terminal would, and the dialog is seen the moment tmux draws it there.
 */
class AttachedClaude {
  private readonly client: pty.IPty;
  private tail = '';
  private waiting: (() => void) | undefined;

  constructor(readonly pane: ClaudePane) {
    this.client = pty.spawn('tmux', ['-u', '-L', pane.socket, 'attach-session', '-t', `=${pane.session}`], {
      name: 'xterm-256color',
      cols: COLS,
      rows: ROWS,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' },
    });
    this.client.onData((chunk) => {
      if (!this.waiting) return;
      // Escape sequences and blanks out: what is left of the drawing is the text itself.
      this.tail = (this.tail + chunk.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\s/g, '')).slice(-4096);
      if (this.tail.includes(DIALOG_MARK)) {
        const done = this.waiting;
        this.waiting = undefined;
        done();
      }
    });
  }

  /** Types a prompt, presses Enter and returns the ms until the dialog is drawn, then answers No. */
  async round(prompt: string): Promise<number> {
    await this.pane.type(prompt);
    this.tail = '';
    const shown = new Promise<void>((resolve) => {
      this.waiting = resolve;
    });
    const start = performance.now();
    this.client.write('\r');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        this.waiting = undefined;
        this.pane.capture().then((screen) => reject(new Error(`no permission dialog 20 s after Enter\n--- pane ---\n${screen}`)), reject);
      }, 20_000);
    });
    await Promise.race([shown, timeout]).finally(() => clearTimeout(timer));
    const ms = performance.now() - start;
    // "No" ends the turn with no further request, and the next round starts from a clean prompt.
    await this.pane.answerDialog('4');
    await this.pane.waitForScreen('an empty prompt', (s) => EMPTY_INPUT.test(s) && !s.includes(PERMISSION_DIALOG));
    return ms;
  }

  close(): void {
    this.client.kill();
  }
}

export async function agentDownBench(rounds = AGENT_DOWN_ROUNDS, progress: (line: string) => void = () => undefined): Promise<AgentDownResult> {
  const api = await FakeAnthropic.start();
  // A command that writes a file: Claude runs read-only ones without asking. It is answered No,
  // so it never runs.
  api.onPrompt(/^dialog \d+$/, bash('echo ran > out.txt', 'Write a file'));
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'pmx-bench-agent-down-')));
  const panes: ClaudePane[] = [];
  const attached: AttachedClaude[] = [];
  try {
    const start = async (name: string, extraArgs: string[]) => {
      const project = join(root, name, 'project');
      mkdirSync(project, { recursive: true });
      const claude = prepareClaudeEnv({ baseUrl: api.url, home: join(root, name, 'home'), projectDirs: [project] });
      const pane = await ClaudePane.start({ env: claude.env, bin: claude.bin, cwd: project, args: ['--permission-mode', 'default', ...extraArgs], cols: COLS, rows: ROWS });
      panes.push(pane);
      const client = new AttachedClaude(pane);
      attached.push(client);
      return client;
    };
    const settings = writeHttpHookSettings(join(root, 'settings.json'), {
      port: await closedPort(),
      events: HOOK_EVENTS.filter((event) => event !== 'SessionStart'),
    });
    const http = await start('http', ['--settings', settings]);
    const none = await start('none', []);

    // One round each first: the first turn of a session does work of its own (titles and such).
    await http.round('dialog 0');
    await none.round('dialog 0');
    const httpMs: number[] = [];
    const noneMs: number[] = [];
    for (let i = 1; i <= rounds; i++) {
      // Which path goes first swaps every round, so neither always follows the other.
      const order = i % 2 === 0 ? [http, none] : [none, http];
      for (const client of order) (client === http ? httpMs : noneMs).push(await client.round(`dialog ${i}`));
      if (i % 5 === 0 || i === rounds) progress(`agent down: ${i}/${rounds} rounds`);
    }
    const httpP50 = quantile(httpMs, 0.5);
    const noneP50 = quantile(noneMs, 0.5);
    return { rounds, httpP50, noneP50, difference: httpP50 - noneP50 };
  } finally {
    for (const client of attached) client.close();
    for (const pane of panes) await pane.stop();
    await api.close();
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  }
}
