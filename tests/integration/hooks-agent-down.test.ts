/**
 * Never in Claude's way: with the agent down, the HTTP hooks it would have installed post to a
 * loopback port nothing listens on. The real CLI must still show its permission dialog, take
 * the answer typed in the terminal, run the tool and finish the turn, just as it does with no
 * hooks at all. Both cases run here against the same stand-in API script and are held to the
 * same observable outcomes; no agent is started.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_EVENTS, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudePane, closedPort, EMPTY_INPUT, PERMISSION_DIALOG, writeHttpHookSettings } from '../support/claude-pane.js';
import { bash, FakeAnthropic, text } from '../support/fake-anthropic.js';
import { eventually } from '../support/eventually.js';

/** SessionStart cannot be an HTTP hook; every other event the agent listens to is one. */
const HTTP_EVENTS = HOOK_EVENTS.filter((event) => event !== 'SessionStart');
/** The events one prompt with one approved Bash call fires, in order. */
const TURN_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop'];
const FINAL_TEXT = 'All done: the command ran.';

interface Outcome {
  dialog: string;
  ranFile: string;
  finalScreen: string;
  /** For each request of the conversation: its prompt, whether it carried a tool result, what it got. */
  conversation: [string | undefined, boolean, string | undefined][];
  /** Hook events the CLI tried to post and found refused, from its debug log, in order. */
  refused: string[];
  /** Hook events the CLI logged a POST for, in order. */
  posted: string[];
}

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * One prompt that makes the stand-in ask for a Bash call, answered "1" in the terminal, in a
 * fresh HOME. `--debug` (on in both cases, so they differ in hooks only) makes the CLI log each
 * hook it runs and how it failed: the evidence that the hooks were live and met a closed port,
 * not silently dropped as a malformed settings file would be.
 */
async function approvedTurn(settings: 'http-hooks-to-closed-port' | 'no-hooks'): Promise<Outcome> {
  const api = await FakeAnthropic.start();
  cleanups.push(() => api.close());
  // The CLI reports its cwd resolved, and macOS's tmpdir is behind a symlink.
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'pmx-agent-down-')));
  cleanups.push(() => rmSync(root, { recursive: true, force: true, maxRetries: 5 }));
  const project = join(root, 'project');
  mkdirSync(project);
  const home = join(root, 'home');
  const claude = prepareClaudeEnv({ baseUrl: api.url, home, projectDirs: [project] });

  const target = join(project, 'out.txt');
  api.onPrompt('please run it', bash(`echo ran > ${target}`, 'Write a file'));
  api.afterToolResult(text(FINAL_TEXT));

  const args = ['--permission-mode', 'default', '--debug'];
  if (settings === 'http-hooks-to-closed-port') {
    const file = writeHttpHookSettings(join(root, 'settings.json'), { port: await closedPort(), events: HTTP_EVENTS });
    args.push('--settings', file);
  }
  const pane = await ClaudePane.start({ env: claude.env, bin: claude.bin, cwd: project, args });
  cleanups.push(() => pane.stop());

  await pane.submit('please run it');
  const dialog = await pane.waitScreen('the permission dialog', (s) => s.includes(PERMISSION_DIALOG));
  await pane.answerDialog('1');
  const finalScreen = await pane.waitScreen('the final text and an empty prompt', (s) => s.includes(FINAL_TEXT) && EMPTY_INPUT.test(s));

  // The Stop hook runs after the final text is drawn; with hooks, wait until it has been tried.
  if (settings === 'http-hooks-to-closed-port') await waitFor('the Stop hook to be refused', () => refusedHooks(readDebugLog(home)).includes('Stop'));
  const debugLog = readDebugLog(home);
  return {
    dialog,
    ranFile: readFileSync(target, 'utf8'),
    finalScreen,
    conversation: api.mainRequests().map((r) => [r.prompt, r.hasToolResult, r.reply?.kind]),
    refused: refusedHooks(debugLog).filter(notNotification),
    posted: [...debugLog.matchAll(/HTTP hook POST to http:\/\/127\.0\.0\.1:\d+\/hooks\/(\w+)/g)].map((m) => m[1] as string).filter(notNotification),
  };
}

/** Notification only fires if the dialog waited ~6 s; a slow machine may get one. */
const notNotification = (event: string) => event !== 'Notification';

/** Hook events whose POST the debug log reports refused, in order. */
function refusedHooks(debugLog: string): string[] {
  return [...debugLog.matchAll(/"Hook (\w+)[^"]*error:\\nstderr:\\nconnect ECONNREFUSED/g)].map((m) => m[1] as string);
}

async function waitFor(what: string, test: () => boolean, timeoutMs = 20_000): Promise<void> {
  await eventually(test, timeoutMs, what);
}

/** The session's debug log; `latest` beside it is a link to the same file. */
function readDebugLog(home: string): string {
  const dir = join(home, '.claude', 'debug');
  const files = readdirSync(dir).filter((name) => name.endsWith('.txt'));
  expect(files).toHaveLength(1);
  return readFileSync(join(dir, files[0] as string), 'utf8');
}

describe('Claude with the agent down', () => {
  it('shows the dialog, runs the approved tool and ends the turn when every HTTP hook meets a closed port', async () => {
    const outcome = await approvedTurn('http-hooks-to-closed-port');
    expectApprovedTurn(outcome);
    // Each hook of the turn was posted and refused, Stop among them: the turn ran to its end
    // through every hook, none of them holding it.
    expect(outcome.refused).toEqual(TURN_EVENTS);
    expect(outcome.posted).toEqual(TURN_EVENTS);
    // The CLI reports a failed hook in the conversation, and goes on.
    expect(outcome.finalScreen).toContain('UserPromptSubmit hook failed');
  });

  it('does the same with no hooks at all', async () => {
    const outcome = await approvedTurn('no-hooks');
    expectApprovedTurn(outcome);
    expect(outcome.refused).toEqual([]);
    expect(outcome.posted).toEqual([]);
  });
});

/** What a person sees and gets from one approved turn, whatever the hooks. */
function expectApprovedTurn(outcome: Outcome): void {
  expect(outcome.dialog).toContain('Bash command');
  expect(outcome.dialog).toContain('echo ran > ');
  expect(outcome.dialog).toMatch(/❯ 1\. Yes/);
  expect(outcome.dialog).toContain('4. No');
  expect(outcome.ranFile).toBe('ran\n');
  expect(outcome.finalScreen).not.toContain(PERMISSION_DIALOG);
  expect(outcome.conversation).toEqual([
    ['please run it', false, 'tool_use'],
    [undefined, true, 'text'],
  ]);
}
