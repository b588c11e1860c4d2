/**
 * The real Claude Code CLI, offline, in tmux, against the stand-in API: a prompt leads to a
 * Bash call, the permission dialog is answered in the terminal, and every hook fires in order
 * with the pane it ran in. This is the ground the Claude integration tests stand on.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendPayloadHook,
  type ClaudeEnv,
  createHookLog,
  type HookLogEntry,
  prepareClaudeEnv,
  readHookLog,
  tmuxEnvArgs,
  writeHookSettings,
} from '../support/claude-env.js';
import { bash, FakeAnthropic, text } from '../support/fake-anthropic.js';
import { testSocketName } from '../support/temp.js';
import { TmuxServer } from '../support/tmux-server.js';
import { eventually } from '../support/eventually.js';
import { processAlive } from '../../agent/util/process-alive.js';

const SOCKET = testSocketName('test');
const SESSION = 'claude';
const EXPECTED_HOOKS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop'];
const EMPTY_INPUT = /^❯ *$/m;
const DIALOG = 'Do you want to proceed?';

// Only PATH: whatever the test process carries (an outer Claude's variables, say) must not
// reach the server and, through it, the CLI.
const server = new TmuxServer({ name: SOCKET });
const tmux = (...args: string[]) => server.run(...args);

/** The screen as text; the CLI pads its prompt character with a no-break space, read as a space. */
const capture = async () => (await tmux('capture-pane', '-p', '-t', SESSION)).replaceAll('\u00a0', ' ');

function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  return eventually(probe, timeoutMs, what, async () => `--- pane ---\n${await capture()}`) as Promise<T>;
}

const waitForScreen = (what: string, test: (screen: string) => boolean, timeoutMs?: number) =>
  waitFor(what, async () => {
    const screen = await capture();
    return test(screen) ? screen : undefined;
  }, timeoutMs);

/**
 * Types text and presses Enter once the input line shows it, so keys the CLI dropped fail here,
 * with the screen, rather than as a missing request later.
 */
async function submit(input: string): Promise<void> {
  await tmux('send-keys', '-t', SESSION, '-l', input);
  await waitForScreen(`"${input}" in the input line`, (screen) => screen.includes(`❯ ${input}`));
  await tmux('send-keys', '-t', SESSION, 'Enter');
}

/**
 * The dialog drops keys that arrive in its first few hundred milliseconds (a guard against
 * typed-ahead text answering it), so the answer is sent again until the dialog is gone. The
 * pause between tries is long enough for an accepted answer to show, so no key goes to the
 * prompt behind it.
 */
async function answerDialog(key: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    await tmux('send-keys', '-t', SESSION, '-l', key);
    const gone = await waitForScreen('the dialog to close', (screen) => !screen.includes(DIALOG), 1_500).catch(() => undefined);
    if (gone !== undefined) return;
  }
  throw new Error(`the permission dialog ignored "${key}"\n--- pane ---\n${await capture()}`);
}

describe('the real Claude Code CLI against the stand-in API', () => {
  let api: FakeAnthropic;
  let claude: ClaudeEnv;
  let root: string;
  let project: string;
  let hookLog: string;
  let socketPath: string | undefined;
  let panePid: number | undefined;

  beforeAll(async () => {
    api = await FakeAnthropic.start();
    // The CLI reports its cwd resolved, and macOS's tmpdir is behind a symlink.
    root = realpathSync(mkdtempSync(join(tmpdir(), 'pmx-claude-cli-')));
    project = join(root, 'project');
    mkdirSync(project);
    hookLog = createHookLog(join(root, 'hooks.jsonl'));
    claude = prepareClaudeEnv({ baseUrl: api.url, home: join(root, 'home'), projectDirs: [project] });
  });

  afterAll(async () => {
    // A CLI still running (a failed test) writes to HOME as it dies: wait for it before removing.
    const running = panePid === undefined ? [] : [panePid, ...(await childPids(panePid))];
    await tmux('kill-server').catch(() => undefined);
    await waitFor('the CLI to be gone', () => running.every((pid) => !processAlive(pid)), 10_000).catch(() => undefined);
    // kill-server leaves the socket file behind.
    if (socketPath) rmSync(socketPath, { force: true });
    await api?.close();
    claude?.cleanup();
    if (root) rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  });

  it('asks before Bash, runs it when "1" is typed, and fires every hook in order from its pane', async ({ annotate }) => {
    const target = join(project, 'out.txt');
    api.onPrompt('please run it', bash(`echo hello-from-stand-in > ${target}`, 'Write a file', { preamble: 'I will run a command.' }));
    api.afterToolResult(text('All done: the command ran.'));
    const settings = writeHookSettings(join(root, 'settings.json'), {
      events: [...EXPECTED_HOOKS, 'Notification', 'SessionEnd'],
      command: appendPayloadHook(hookLog),
    });
    const tmuxConf = join(root, 'tmux.conf');
    // The pane and its last words stay after the CLI exits.
    writeFileSync(tmuxConf, 'set -g remain-on-exit on\n');

    const started = Date.now();
    // A shell between tmux and the CLI reaps it and reports its exit status, as the shell of a
    // real tab would. tmux itself can miss the exit of its pane's own process: Debian's tmux
    // runs the utempter helper as the pane closes, with SIGCHLD set to default meanwhile, and a
    // SIGCHLD that lands then is lost, leaving a zombie and no pane_dead_status.
    await tmux(
      '-f',
      tmuxConf,
      'new-session',
      '-d',
      '-s',
      SESSION,
      '-x',
      '120',
      '-y',
      '40',
      '-c',
      project,
      ...tmuxEnvArgs(claude.env),
      '/bin/sh',
      '-c',
      '"$@"; echo "claude exited with $?"',
      'sh',
      claude.bin,
      '--permission-mode',
      'default',
      '--settings',
      settings,
    );
    const format = async (name: string) => (await tmux('display-message', '-p', '-t', SESSION, `#{${name}}`)).trim();
    socketPath = await format('socket_path');
    panePid = Number(await format('pane_pid'));
    const paneId = await format('pane_id');
    expect(paneId).toMatch(/^%\d+$/);

    const idle = await waitForScreen('the idle prompt', (s) => s.includes('Claude Code v2.1.332') && EMPTY_INPUT.test(s), 30_000);
    expect(idle).toContain('manual mode on');
    await waitFor('SessionStart', () => readHookLog(hookLog).length > 0);
    await annotate(`CLI ready after ${Date.now() - started} ms`);

    await submit('please run it');
    const dialog = await waitForScreen('the permission dialog', (s) => s.includes(DIALOG));
    expect(dialog).toContain('Bash command');
    expect(dialog).toContain(`echo hello-from-stand-in > ${target}`);
    expect(dialog).toMatch(/❯ 1\. Yes/);
    expect(dialog).toContain('4. No');

    await answerDialog('1');
    await waitFor('Stop', () => events(readHookLog(hookLog)).includes('Stop'));
    expect(readFileSync(target, 'utf8')).toBe('hello-from-stand-in\n');
    await waitForScreen('the final text and an empty prompt', (s) => s.includes('All done: the command ran.') && EMPTY_INPUT.test(s));

    // Notification only fires if the dialog waited ~6 s; a slow machine may get one.
    const log = readHookLog(hookLog).filter((e) => e.payload.hook_event_name !== 'Notification');
    expect(events(log)).toEqual(EXPECTED_HOOKS);
    const sessionId = log[0]?.payload.session_id;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    for (const entry of log) {
      expect(entry.pane).toBe(paneId);
      expect(entry.payload.session_id).toBe(sessionId);
      expect(entry.payload.cwd).toBe(project);
    }
    const [start, prompt, pre, permission, post, stop] = log.map((e) => e.payload);
    expect(start).toMatchObject({ source: 'startup' });
    expect(prompt).toMatchObject({ prompt: 'please run it', permission_mode: 'default' });
    const toolInput = { command: `echo hello-from-stand-in > ${target}`, description: 'Write a file' };
    const toolUseId = api.mainRequests()[0]?.content?.find((b) => b.type === 'tool_use')?.id;
    expect(toolUseId).toBeTypeOf('string');
    expect(pre).toMatchObject({ tool_name: 'Bash', tool_input: toolInput, tool_use_id: toolUseId });
    expect(permission).toMatchObject({ tool_name: 'Bash', tool_input: toolInput });
    expect(post).toMatchObject({ tool_name: 'Bash', tool_use_id: toolUseId });
    expect(stop).toMatchObject({ last_assistant_message: 'All done: the command ran.' });

    const main = api.mainRequests();
    expect(main.map((r) => [r.prompt, r.hasToolResult, r.reply?.kind])).toEqual([
      ['please run it', false, 'tool_use'],
      [undefined, true, 'text'],
    ]);
    expect(main.every((r) => r.body?.stream === true && r.query.get('beta') === 'true')).toBe(true);
    expect(main.every((r) => r.headers['x-api-key'] === claude.apiKey)).toBe(true);

    await submit('/exit');
    const end = await waitFor('SessionEnd', () => readHookLog(hookLog).find((e) => e.payload.hook_event_name === 'SessionEnd'));
    expect(end.pane).toBe(paneId);
    expect(end.payload).toMatchObject({ session_id: sessionId, reason: 'prompt_input_exit' });
    const exited = await waitForScreen('the CLI to exit', (screen) => /^claude exited with \d+$/m.test(screen));
    expect(exited).toMatch(/^claude exited with 0$/m);
  });
});

function childPids(pid: number): Promise<number[]> {
  return new Promise((resolve) => {
    execFile('pgrep', ['-P', String(pid)], (_error, stdout) => resolve(stdout.split('\n').filter(Boolean).map(Number)));
  });
}

function events(log: HookLogEntry[]): string[] {
  return log.map((e) => e.payload.hook_event_name);
}
