/**
 * With the agent down, what do its HTTP hooks cost Claude? The real CLI runs twice side by side,
 * once with an HTTP hook on every event but SessionStart, all posting to a loopback port nothing
 * listens on, once with no hooks at all. Each round presses Enter on a typed prompt and times
 * until the permission dialog for the Bash call the stand-in API asks for is on the screen.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_EVENTS, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudePane, closedPort, EMPTY_INPUT, PERMISSION_DIALOG, writeHttpHookSettings } from '../support/claude-pane.js';
import { bash, FakeAnthropic } from '../support/fake-anthropic.js';
import { AttachedTerminal, within } from './claude-cli.js';
import { quantile } from '../support/stats.js';

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

/**
 * Types a prompt, presses Enter through the terminal attached to the pane and returns the ms
 * until the dialog is drawn there, then answers No.
 */
async function round(term: AttachedTerminal, prompt: string): Promise<number> {
  const pane = term.pane;
  await pane.type(prompt);
  const shown = term.drawn(PERMISSION_DIALOG);
  const start = performance.now();
  term.write('\r');
  await within(shown, 20_000, `the permission dialog after Enter on "${prompt}"`, pane);
  const ms = performance.now() - start;
  // "No" ends the turn with no further request, and the next round starts from a clean prompt.
  await pane.answerDialog('4');
  await pane.waitScreen('an empty prompt', (s) => EMPTY_INPUT.test(s) && !s.includes(PERMISSION_DIALOG));
  return ms;
}

export async function agentDownBench(rounds = AGENT_DOWN_ROUNDS, progress: (line: string) => void = () => undefined): Promise<AgentDownResult> {
  const api = await FakeAnthropic.start();
  // A command that writes a file: Claude runs read-only ones without asking. It is answered No,
  // so it never runs.
  api.onPrompt(/^dialog \d+$/, bash('echo ran > out.txt', 'Write a file'));
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'pmx-bench-agent-down-')));
  const panes: ClaudePane[] = [];
  const attached: AttachedTerminal[] = [];
  try {
    const start = async (name: string, extraArgs: string[]) => {
      const project = join(root, name, 'project');
      mkdirSync(project, { recursive: true });
      const claude = prepareClaudeEnv({ baseUrl: api.url, home: join(root, name, 'home'), projectDirs: [project] });
      const pane = await ClaudePane.start({ env: claude.env, bin: claude.bin, cwd: project, args: ['--permission-mode', 'default', ...extraArgs], cols: COLS, rows: ROWS });
      panes.push(pane);
      // Enter is pressed through a terminal attached to the pane, as a person at it would, and
      // the dialog is seen the moment tmux draws it there.
      const client = new AttachedTerminal(pane, COLS, ROWS);
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
    await round(http, 'dialog 0');
    await round(none, 'dialog 0');
    const httpMs: number[] = [];
    const noneMs: number[] = [];
    for (let i = 1; i <= rounds; i++) {
      // Which path goes first swaps every round, so neither always follows the other.
      const order = i % 2 === 0 ? [http, none] : [none, http];
      for (const client of order) (client === http ? httpMs : noneMs).push(await round(client, `dialog ${i}`));
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
