/**
 * The real Codex CLI (0.169.0, `@openai/codex`) against the stand-in Responses API in
 * tests/support/fake-openai.ts, in a home of its own: the facts the Codex agent is to be built
 * on, checked against the binary itself. Codex trusts the hooks `codexHooksSetting` gives it
 * as session flags, without a word written to its config; they fire with payloads
 * protocol/codex-hooks.ts reads; and a PermissionRequest hook's answer decides the call, its
 * deny message reaching the model.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodexCommandHook, codexHooksSetting } from '../../agent/codex/hook-trust.js';
import { CODEX_HOOK_EVENT_NAMES, type CodexHookEventName, parseCodexHookPayload } from '../../protocol/codex-hooks.js';
import { cleanupAgents, newTestEnvironment, REPO_ROOT } from '../support/agent.js';
import { ClaudePane } from '../support/claude-pane.js';
import { eventually } from '../support/eventually.js';
import { codexProviderFlags, command, FakeOpenAI, message } from '../support/fake-openai.js';

const CODEX_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'codex');

let fake: FakeOpenAI;
let env: Record<string, string>;
let project: string;
let recorded: string;
let decision: string;
let hooks: Partial<Record<CodexHookEventName, CodexCommandHook>>;

beforeAll(async () => {
  fake = await FakeOpenAI.start();
  const dirs = newTestEnvironment();
  mkdirSync(join(dirs.home, 'project'), { recursive: true });
  project = realpathSync(join(dirs.home, 'project'));
  recorded = join(dirs.root, 'codex-hooks.jsonl');
  decision = join(dirs.root, 'decision.json');
  // Records each payload, one a line; answers a PermissionRequest with decision.json, when there is one.
  const script = join(dirs.root, 'record-hook.sh');
  writeFileSync(
    script,
    `#!/bin/sh\npayload=$(cat)\nprintf '%s\\n' "$payload" >> '${recorded}'\ncase "$payload" in *'"hook_event_name":"PermissionRequest"'*) [ -f '${decision}' ] && cat '${decision}';; esac\nexit 0\n`,
  );
  chmodSync(script, 0o755);
  hooks = Object.fromEntries(CODEX_HOOK_EVENT_NAMES.map((event) => [event, { command: script, timeoutSec: 30 }]));
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dirs.home,
    CODEX_HOME: join(dirs.home, '.codex'),
    PM_STAND_IN_KEY: 'sk-stand-in',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
  };
  mkdirSync(env.CODEX_HOME as string, { recursive: true });
});

afterAll(async () => {
  await fake?.close();
  await cleanupAgents();
});

/** The stand-in as Codex's model provider, pocketmux's hooks and this project trusted, all as session flags. */
function sessionFlags(): string[] {
  return [...codexProviderFlags(fake.url), '-c', codexHooksSetting(hooks), '-c', `projects={${JSON.stringify(project)}={trust_level="trusted"}}`];
}

/** One JSON-RPC request to `codex app-server` over stdio, after its handshake. */
async function appServer<T>(args: string[], method: string, params: unknown): Promise<T> {
  const child: ChildProcessWithoutNullStreams = spawn(CODEX_BIN, ['app-server', ...args], { cwd: project, env });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => {
    stderr = (stderr + data.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`codex app-server exited (${code}): ${stderr}`))));
  try {
    let buffer = '';
    const answers = new Map<number, (value: unknown) => void>();
    child.stdout.on('data', (data: Buffer) => {
      buffer += data.toString('utf8');
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        const msg = line.trim() ? (JSON.parse(line) as { id?: number; result?: unknown; error?: unknown }) : {};
        if (msg.id !== undefined) answers.get(msg.id)?.(msg.error === undefined ? msg.result : Promise.reject(new Error(JSON.stringify(msg.error))));
      }
    });
    const call = (id: number, m: string, p: unknown) =>
      new Promise<unknown>((resolve) => {
        answers.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, method: m, params: p })}\n`);
      });
    await Promise.race([call(1, 'initialize', { clientInfo: { name: 'pocketmux-tests', version: '0' } }), exited]);
    child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
    return (await Promise.race([call(2, method, params), exited])) as T;
  } finally {
    // Waited for: as it ends it writes under CODEX_HOME, which the test's cleanup then removes.
    if (child.exitCode === null && child.signalCode === null) {
      const ended = once(child, 'exit');
      child.kill();
      await ended;
    }
  }
}

function recordedPayloads(): Record<string, unknown>[] {
  if (!existsSync(recorded)) return [];
  return readFileSync(recorded, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the real Codex CLI', () => {
  it('trusts every hook pocketmux gives it as session flags, and writes none of them to its config', async () => {
    const listed = await appServer<{ data: { hooks: { key: string; trustStatus: string; source: string }[]; errors: unknown[] }[] }>(sessionFlags(), 'hooks/list', { cwds: [project] });
    const [entry] = listed.data;
    expect(entry?.errors).toEqual([]);
    expect(entry?.hooks.map((h) => [h.source, h.trustStatus])).toEqual(CODEX_HOOK_EVENT_NAMES.map(() => ['sessionFlags', 'trusted']));
    const config = join(env.CODEX_HOME as string, 'config.toml');
    expect(existsSync(config) ? readFileSync(config, 'utf8') : '').not.toContain('trusted_hash');
  }, 60_000);

  it('in a tmux pane: its hooks fire with payloads pocketmux reads, and a PermissionRequest hook’s deny reaches the model', async () => {
    const marker = join(project, 'marker.txt');
    fake.onPrompt('please write the marker', command(`echo marker > ${marker}`, 'Write the marker file'));
    fake.afterToolOutput(message('Understood, I will not.'));
    writeFileSync(decision, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'Not now: the phone said no.' } } }));
    const pane = await ClaudePane.start({
      env,
      bin: CODEX_BIN,
      cwd: project,
      args: [...sessionFlags(), '-m', 'gpt-5.1-codex', '-a', 'on-request', '--sandbox', 'workspace-write'],
      cols: 100,
      rows: 32,
      ready: { what: 'the Codex prompt', test: (s) => s.includes('Ask Codex to do anything') },
    });
    try {
      // Nothing fires before the first prompt, SessionStart included.
      expect(recordedPayloads()).toEqual([]);
      await pane.keys('-l', 'please write the marker');
      await pane.waitScreen('the prompt typed', (s) => s.includes('please write the marker'));
      await pane.keys('Enter');
      await pane.waitScreen('the answer after the refusal', (s) => s.includes('Understood, I will not.'), 60_000);
      const told = await fake.waitForRequest((r) => r.afterToolOutput);
      expect(JSON.stringify(told.body.input?.at(-1))).toContain('Not now: the phone said no.');
      expect(existsSync(marker)).toBe(false);
      const payloads = await eventually(() => (recordedPayloads().some((p) => p.hook_event_name === 'Stop') ? recordedPayloads() : null), 20_000, 'the Stop hook');
      expect(payloads.map((p) => p.hook_event_name)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'Stop']);
      for (const payload of payloads) {
        const parsed = parseCodexHookPayload(String(payload.hook_event_name), payload);
        expect(parsed.ok, parsed.ok ? '' : parsed.error).toBe(true);
      }
      expect(payloads[3]).toMatchObject({ tool_name: 'Bash', tool_input: { command: `echo marker > ${marker}`, description: 'Write the marker file' }, cwd: project });
    } finally {
      await pane.stop();
    }
  }, 120_000);
});
