/**
 * Adopt, against the real registries (outside sessions, status, approvals, workspaces) on
 * temp files and a real TabService on a tmux server of the test's own: what refuses, and that
 * nothing is signalled until every refusal has been asked. Its claude is a sleeping process
 * named in a session file; `signal` and `alive` are injected, so nothing real is ended by it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../agent/approvals/approval-store.js';
import { ApprovalStore } from '../../agent/approvals/approval-store.js';
import { procStartTime } from '../../agent/claude/process.js';
import { processAlive } from '../../agent/util/process-alive.js';
import { type AdoptDeps, AdoptError, adoptOutside } from '../../agent/wiring/adopt.js';
import { type ForgetReason, type OutsideSession, OutsideSessions } from '../../agent/outside/outside-sessions.js';
import { StatusManager } from '../../agent/status/status-manager.js';
import { LimitError, WorkspaceStore } from '../../agent/store/workspace-store.js';
import { TabService } from '../../agent/tabs/tab-service.js';
import { Tmux } from '../../agent/tmux/tmux.js';
import { createLogger } from '../../agent/util/log.js';
import { outsideSessionKey } from '../../protocol/hook-contract.js';
import { parseHookPayload } from '../../protocol/hooks.js';
import { testAgentClis } from '../support/agent-clis.js';
import { eventually } from '../support/eventually.js';
import { capturedHook } from '../support/status.js';
import { testSocketName } from '../support/temp.js';
import { TmuxServer } from '../support/tmux-server.js';

const log = createLogger({ stderr: false });

let dir: string;
let configDir: string;
let project: string;
let tmuxName: string;
let tmux: Tmux;
const children: ChildProcess[] = [];
const closers: (() => Promise<void> | void)[] = [];

function runTmux(...args: string[]): Promise<string> {
  return new TmuxServer({ name: tmuxName }, { PATH: process.env.PATH ?? '', HOME: dir, LANG: 'C.UTF-8' }).run(...args);
}

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'pocketmux-adopt-')));
  configDir = join(dir, 'claude');
  mkdirSync(join(configDir, 'sessions'), { recursive: true });
  project = join(dir, 'my-project');
  mkdirSync(project);
  tmuxName = testSocketName('adopt');
  // A UTF-8 locale, as the agent's login environment has: tmux writes the pane listing's separators only then.
  tmux = new Tmux({ bin: 'tmux', socket: tmuxName, configFile: join(dir, 'tmux.conf'), env: { PATH: process.env.PATH, HOME: dir, LANG: 'C.UTF-8' }, defaultShell: '/bin/sh', owner: 'adopt-test' });
  await tmux.start();
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  const socket = await runTmux('display-message', '-p', '#{socket_path}').catch(() => '');
  await runTmux('kill-server').catch(() => undefined);
  if (socket.trim()) rmSync(socket.trim(), { force: true });
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A claude that prints how it was started, then leaves the tab's shell: what the tab ran is on its screen. */
function fakeClaude(): string {
  const bin = join(dir, 'bin', 'claude');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(bin, '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\necho "fake-claude $*"\n', { mode: 0o755 });
  return bin;
}

interface World {
  deps: AdoptDeps;
  outside: OutsideSessions;
  status: StatusManager;
  approvals: ApprovalStore;
  store: WorkspaceStore;
  signals: [number, NodeJS.Signals][];
  forgotten: [string, ForgetReason][];
  /** What `alive` answers next; every call is recorded. */
  alive: { answer: (pid: number) => boolean; calls: number };
}

let worlds = 0;

function world(limits = { workspaces: 5, tabs: 5 }): World {
  const files = join(dir, `world-${++worlds}`);
  mkdirSync(files);
  const outside = new OutsideSessions({ path: join(files, 'outside.json'), log, claudeConfigDir: configDir, max: 10, paneExists: async () => true });
  const status = new StatusManager(join(files, 'status.json'), log, 10);
  const approvals = new ApprovalStore(log);
  const store = new WorkspaceStore(join(files, 'workspaces.json'), log, limits);
  const tabs = new TabService(store, tmux, { PATH: process.env.PATH ?? '' }, log, {
    clis: testAgentClis({ dataDir: join(dir, 'data'), claudeConfigDir: configDir, claudeBin: fakeClaude(), log }),
    resumeAfterReboot: false,
  });
  closers.push(
    () => outside.flush(),
    () => status.flush(),
    () => approvals.dispose(),
  );
  const signals: World['signals'] = [];
  const forgotten: World['forgotten'] = [];
  outside.on('forgotten', (s, reason) => forgotten.push([s.key, reason]));
  const alive: World['alive'] = { answer: () => false, calls: 0 };
  const deps: AdoptDeps = {
    outside,
    status,
    approvals,
    store,
    tabs,
    log,
    signal: (pid, sig) => {
      signals.push([pid, sig]);
    },
    alive: (pid) => {
      alive.calls++;
      return alive.answer(pid);
    },
  };
  return { deps, outside, status, approvals, store, signals, forgotten, alive };
}

/** A copy of sleep named claude: a claude by what it runs, as the agent tells one. */
function claudeLike(): string {
  const bin = join(dir, 'claude-like', 'claude');
  mkdirSync(join(dir, 'claude-like'), { recursive: true });
  // One copy for the test: a running program's file cannot be written over.
  if (!existsSync(bin)) {
    copyFileSync('/bin/sleep', bin);
    chmodSync(bin, 0o755);
  }
  return bin;
}

interface ClaudeOptions {
  /** The program that runs: a claude-like one by default. */
  bin?: string;
  /** Whether its session file gives its start time, as Claude writes it. */
  procStart?: boolean;
}

/** A sleeping process standing for the session's claude, named in its session file as Claude writes it. */
async function claudeOf(sessionId: string, opts: ClaudeOptions = {}): Promise<number> {
  const child = spawn(opts.bin ?? claudeLike(), ['600'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  const pid = child.pid as number;
  const procStart = opts.procStart === false ? undefined : (procStartTime(pid) ?? undefined);
  writeFileSync(join(configDir, 'sessions', `${pid}.json`), JSON.stringify({ pid, sessionId, cwd: project, procStart }));
  return pid;
}

/** A session outside the tabs, heard of by its hook, with its claude found when there is one. */
async function outsideSession(w: World, opts: { cwd?: string; withClaude?: boolean; claude?: ClaudeOptions } = {}): Promise<{ key: string; sessionId: string; pid: number | null }> {
  const sessionId = `${randomBytes(4).toString('hex')}-0000-4000-8000-${randomBytes(6).toString('hex')}`;
  const key = outsideSessionKey(sessionId);
  const pid = opts.withClaude === false ? null : await claudeOf(sessionId, opts.claude);
  w.outside.report(key, { sessionId, cwd: opts.cwd ?? project, tmuxEnv: undefined, pane: undefined });
  w.status.applyHook(key, hook('SessionStart', sessionId));
  if (pid !== null) await eventually(() => w.outside.get(key)?.pid === pid, 10_000, 'its claude to be found');
  return { key, sessionId, pid };
}

function hook(event: string, sessionId: string, extra: Record<string, unknown> = {}) {
  const parsed = parseHookPayload(event, { ...capturedHook(event), session_id: sessionId, cwd: project, ...extra });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.payload;
}

function approvalFor(tabId: string, sessionId: string): ApprovalRequest {
  return {
    tabId,
    sessionId,
    kind: 'permission',
    tool: 'Bash',
    summary: { title: 'Bash: ls', description: 'List', body: 'ls', diff: null, path: null },
    questions: [],
    options: [],
    alwaysAllow: null,
    toolInput: { command: 'ls' },
    questionKeys: [],
    suggestions: [],
  };
}

async function refused(promise: Promise<unknown>): Promise<AdoptError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AdoptError);
  return err as AdoptError;
}

describe('adopting a Claude session started outside the tabs', () => {
  it('refuses a session it does not know: 404', async () => {
    const w = world();
    const err = await refused(adoptOutside(w.deps, outsideSessionKey('never-heard-of')));
    expect(err.status).toBe(404);
    expect(w.signals).toEqual([]);
  });

  it('refuses while Claude works, waits on a permission, or has an approval open: 409, its claude left alone', async () => {
    const w = world();
    const { key, sessionId, pid } = await outsideSession(w);

    w.status.applyHook(key, hook('UserPromptSubmit', sessionId));
    expect(w.status.get(key)?.state).toBe('busy');
    let err = await refused(adoptOutside(w.deps, key));
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/adopt it when its turn has ended/);

    w.status.applyHook(key, hook('PermissionRequest', sessionId));
    expect(w.status.get(key)?.state).toBe('needs-input');
    err = await refused(adoptOutside(w.deps, key));
    expect(err.status).toBe(409);

    // The turn ended, but an approval of it is still open.
    w.status.applyHook(key, hook('Stop', sessionId));
    expect(w.status.get(key)?.state).toBe('ready-for-review');
    expect(w.approvals.add(approvalFor(key, sessionId), null)).not.toBeNull();
    err = await refused(adoptOutside(w.deps, key));
    expect(err.status).toBe(409);

    expect(w.signals).toEqual([]);
    expect(w.outside.get(key)?.pid).toBe(pid);
    expect(w.forgotten).toEqual([]);
  });

  it('refuses a session whose claude process is not known yet: 409', async () => {
    const w = world();
    const { key } = await outsideSession(w, { withClaude: false });
    const err = await refused(adoptOutside(w.deps, key));
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/not known yet/);
    expect(w.signals).toEqual([]);
  });

  it('signals nothing when the pid is no longer its claude', async () => {
    const w = world();
    const { key, sessionId, pid } = await outsideSession(w);
    const file = join(configDir, 'sessions', `${pid}.json`);
    const noLongerRunning = async () => {
      const err = await refused(adoptOutside(w.deps, key));
      expect(err.status).toBe(409);
      expect(err.message).toMatch(/no longer running/);
    };
    // The pid now belongs to a process started at another time than the claude that wrote the file (Linux tells).
    const start = procStartTime(pid as number);
    if (start) {
      writeFileSync(file, JSON.stringify({ pid, sessionId, cwd: project, procStart: `${Number(start) + 1}` }));
      await noLongerRunning();
    }
    // A file that names another session now, and no file at all (claude removes it on exit).
    writeFileSync(file, JSON.stringify({ pid, sessionId: 'someone-else', cwd: project }));
    await noLongerRunning();
    rmSync(file);
    await noLongerRunning();
    // Its own file again, but the process has died.
    writeFileSync(file, JSON.stringify({ pid, sessionId, cwd: project, procStart: start ?? undefined }));
    const session = w.outside.get(key) as OutsideSession;
    expect(w.outside.isItsClaude(session, pid as number)).toBe(true);
    process.kill(pid as number, 'SIGKILL');
    await eventually(() => !w.outside.isItsClaude(session, pid as number), 10_000, 'its claude to die');
    await noLongerRunning();

    expect(w.signals).toEqual([]);
    expect(w.alive.calls).toBe(0);
    expect(w.store.tabs()).toEqual([]);
    expect(w.store.workspaces()).toEqual([]);
  });

  it('signals no process its session file does not prove to be its claude: a sleep, or a file without a start time', async () => {
    const w = world();
    // Signals are real here: what is not proven must still be running at the end.
    delete w.deps.signal;
    delete w.deps.alive;
    const sleeping = await outsideSession(w, { claude: { bin: '/bin/sleep' } });
    const noStart = await outsideSession(w, { claude: { procStart: false } });
    for (const { key, pid } of [sleeping, noStart]) {
      // Found by its file, as a claude not yet proven.
      expect(w.outside.get(key)?.pid).toBe(pid);
      const err = await refused(adoptOutside(w.deps, key));
      expect(err.status).toBe(409);
      expect(err.message).toMatch(/cannot be proven to be its claude/);
    }
    for (const { pid } of [sleeping, noStart]) {
      const child = children.find((c) => c.pid === pid) as ChildProcess;
      expect(child.exitCode).toBeNull();
      expect(child.signalCode).toBeNull();
      expect(processAlive(pid as number)).toBe(true);
    }
    expect(w.store.tabs()).toEqual([]);
    expect(w.forgotten).toEqual([]);
  });

  it('ends a claude proven to be its own with a real SIGTERM, then resumes the session in a tab', async () => {
    const w = world();
    delete w.deps.signal;
    delete w.deps.alive;
    const { key, sessionId, pid } = await outsideSession(w);
    const child = children.find((c) => c.pid === pid) as ChildProcess;
    const exited = once(child, 'exit');
    const tab = await adoptOutside(w.deps, key);
    expect(await exited).toEqual([null, 'SIGTERM']);
    expect(tab).toMatchObject({ kind: 'claude', claudeSessionId: sessionId });
    expect(w.forgotten).toEqual([[key, 'adopted']]);
  });

  it('asks every limit before signalling: the tab cap, the workspace cap, a workspace or directory that is not there', async () => {
    const noTabs = world({ workspaces: 5, tabs: 0 });
    const a = await outsideSession(noTabs);
    await expect(adoptOutside(noTabs.deps, a.key)).rejects.toThrow(LimitError);
    expect(noTabs.signals).toEqual([]);

    const noWorkspaces = world({ workspaces: 0, tabs: 5 });
    const b = await outsideSession(noWorkspaces);
    await expect(adoptOutside(noWorkspaces.deps, b.key)).rejects.toThrow(LimitError);
    expect(noWorkspaces.signals).toEqual([]);

    const w = world();
    const c = await outsideSession(w);
    const unknown = await refused(adoptOutside(w.deps, c.key, 'ws-nosuchone'));
    expect(unknown.status).toBe(404);
    for (const cwd of [join(dir, 'gone-since'), 'relative/dir']) {
      const d = await outsideSession(w, { cwd });
      const err = await refused(adoptOutside(w.deps, d.key));
      expect(err.status).toBe(409);
      expect(err.message).toMatch(/choose a workspace/);
    }
    expect(w.signals).toEqual([]);
    expect(w.outside.has(c.key)).toBe(true);
  });

  it('refuses a second adopt of the same session while the first waits for its claude to exit', async () => {
    const w = world();
    const { key, sessionId, pid } = await outsideSession(w);
    let exited = false;
    w.alive.answer = () => !exited;
    const first = adoptOutside(w.deps, key);
    await eventually(() => w.signals.length > 0 && w.alive.calls > 0, 10_000, 'the first adopt to wait for its claude');

    const second = await refused(adoptOutside(w.deps, key));
    expect(second.status).toBe(409);
    expect(second.message).toMatch(/already being adopted/);
    expect(w.signals).toEqual([[pid, 'SIGTERM']]);

    exited = true;
    const tab = await first;
    expect(w.store.tab(tab.id)).toMatchObject({ kind: 'claude', claudeSessionId: sessionId });
    expect(w.forgotten).toEqual([[key, 'adopted']]);
    // Done: the session is a tab now, no longer outside.
    expect((await refused(adoptOutside(w.deps, key))).status).toBe(404);
    expect(w.signals).toEqual([[pid, 'SIGTERM']]);
  });

  it('ends its claude once, waits for it to exit, then resumes the same session in a tab of a new workspace for its directory', async () => {
    const w = world();
    const { key, sessionId, pid } = await outsideSession(w);
    // Refused while busy first: a refusal does not leave the session marked as being adopted.
    w.status.applyHook(key, hook('UserPromptSubmit', sessionId));
    expect((await refused(adoptOutside(w.deps, key))).status).toBe(409);
    w.status.applyHook(key, hook('Stop', sessionId));

    const order: string[] = [];
    w.deps.signal = (target, sig) => {
      w.signals.push([target, sig]);
      order.push(`signal ${sig}`);
    };
    // It takes its time to exit: alive three times, then gone.
    w.alive.answer = () => {
      const running = w.alive.calls <= 3;
      order.push(running ? 'alive' : 'exited');
      return running;
    };
    w.outside.on('forgotten', () => order.push('forgotten'));

    const tab = await adoptOutside(w.deps, key);
    expect(w.signals).toEqual([[pid, 'SIGTERM']]);
    expect(order).toEqual(['signal SIGTERM', 'alive', 'alive', 'alive', 'exited', 'forgotten']);
    expect(w.forgotten).toEqual([[key, 'adopted']]);
    expect(w.outside.has(key)).toBe(false);

    expect(tab).toMatchObject({ kind: 'claude', claudeSessionId: sessionId, cwd: project });
    const workspace = w.store.workspace(tab.workspaceId);
    expect(workspace).toMatchObject({ name: basename(project), dir: project });
    expect(w.store.tabs().map((t) => t.id)).toEqual([tab.id]);
    // Its tmux session runs claude with --resume and the session id.
    let screen = '';
    await eventually(
      async () => {
        screen = await runTmux('capture-pane', '-p', '-J', '-t', `=${tab.tmuxSession}:`);
        return screen.split('\n').some((l) => l.startsWith('fake-claude ') && l.includes(`--resume=${sessionId}`));
      },
      10_000,
      'claude --resume in the tab',
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the tab shows:\n${screen}`);
    });
  });

  it('puts the tab in the workspace that holds its directory, or in the one asked for', async () => {
    const w = world();
    const holding = w.store.addWorkspace('Everything here', dir);
    const other = w.store.addWorkspace('Elsewhere', project);
    const a = await outsideSession(w, { cwd: join(project, '.') });
    const intoOwn = await adoptOutside(w.deps, a.key);
    expect(intoOwn.workspaceId).toBe(other.id);
    const b = await outsideSession(w);
    const asked = await adoptOutside(w.deps, b.key, holding.id);
    expect(asked.workspaceId).toBe(holding.id);
    expect(w.store.workspaces()).toHaveLength(2);
  });
});
