import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ForeignPane } from '../../agent/outside/foreign-tmux.js';
import { type ForgetReason, type OutsideSession, OutsideSessions, type OutsideSessionsOptions } from '../../agent/outside/outside-sessions.js';
import { createLogger, type Logger } from '../../agent/util/log.js';
import { unmanagedKey } from '../../protocol/hook-contract.js';
import { eventually } from '../support/client.js';

const TMUX_ENV = '/tmp/tmux-1000/default,4242,0';
const SOCKET = '/tmp/tmux-1000/default';

let dir: string;
let configDir: string;
let path: string;
const stores: OutsideSessions[] = [];
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-outside-'));
  configDir = join(dir, 'claude');
  mkdirSync(join(configDir, 'sessions'), { recursive: true });
  path = join(dir, 'outside.json');
});
afterEach(async () => {
  // Every pending write lands before the directory goes.
  for (const s of stores.splice(0)) await s.flush().catch(() => undefined);
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Recorded {
  store: OutsideSessions;
  changes: () => number;
  forgotten: { session: OutsideSession; reason: ForgetReason }[];
  paneChecks: ForeignPane[];
}

function open(options: Partial<OutsideSessionsOptions> = {}, paneAlive: (pane: ForeignPane) => boolean | Promise<boolean> = () => true): Recorded {
  const paneChecks: ForeignPane[] = [];
  const store = new OutsideSessions({
    path,
    log: createLogger({ stderr: false }),
    claudeConfigDir: configDir,
    max: 10,
    paneExists: async (pane) => {
      paneChecks.push(pane);
      return paneAlive(pane);
    },
    ...options,
  });
  stores.push(store);
  let changes = 0;
  store.on('change', () => {
    changes++;
  });
  const forgotten: Recorded['forgotten'] = [];
  store.on('forgotten', (session, reason) => forgotten.push({ session: { ...session }, reason }));
  return { store, changes: () => changes, forgotten, paneChecks };
}

/** Lets the look for a new session's claude process (started by report, not awaited) finish. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
}

function writeSessionFile(pid: number, sessionId: string): void {
  writeFileSync(join(configDir, 'sessions', `${pid}.json`), JSON.stringify({ pid, sessionId, cwd: '/work', startedAt: Date.now() }));
}

/** A process that stays alive until killed: a claude as far as a session file says. */
async function sleeper(): Promise<ChildProcess> {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  return child;
}

async function killed(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}

describe('OutsideSessions: what hooks report', () => {
  it('creates a session from its first report and tells listeners once', async () => {
    const { store, changes } = open();
    const key = unmanagedKey('s-1');
    store.report(key, { sessionId: 's-1', cwd: '/home/me/project', tmuxEnv: TMUX_ENV, pane: '%3' }, 1_000);
    await settle();
    expect(changes()).toBe(1);
    expect(store.has(key)).toBe(true);
    expect(store.get(key)).toEqual({ key, sessionId: 's-1', cwd: '/home/me/project', tmux: { socketPath: SOCKET, pane: '%3' }, pid: null, firstSeenAt: 1_000, lastSeenAt: 1_000 });
    expect(store.views()).toEqual([{ key, sessionId: 's-1', cwd: '/home/me/project', terminal: 'tmux', pane: '%3', pid: null, firstSeenAt: 1_000 }]);
  });

  it('keeps a session outside tmux as one with no terminal', async () => {
    const { store } = open();
    store.report(unmanagedKey('plain'), { sessionId: 'plain', cwd: '/srv', tmuxEnv: undefined, pane: undefined }, 1);
    // A $TMUX that does not parse, or a pane that is not %N, is no tmux either.
    store.report(unmanagedKey('odd'), { sessionId: 'odd', cwd: '/srv', tmuxEnv: 'relative/path,1,0', pane: '%1' }, 2);
    store.report(unmanagedKey('odd2'), { sessionId: 'odd2', cwd: '/srv', tmuxEnv: TMUX_ENV, pane: 'main:0.1' }, 3);
    expect(store.views().map((v) => [v.key, v.terminal, v.pane])).toEqual([
      [unmanagedKey('plain'), 'none', null],
      [unmanagedKey('odd'), 'none', null],
      [unmanagedKey('odd2'), 'none', null],
    ]);
  });

  it('tells listeners nothing for a report that says only "still here", but notes when it was heard', async () => {
    const { store, changes } = open();
    const key = unmanagedKey('s-2');
    const report = { sessionId: 's-2', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' };
    store.report(key, report, 1_000);
    await settle();
    store.report(key, report, 2_000);
    // A hook without cwd and without the tmux headers keeps what is known.
    store.report(key, { sessionId: 's-2', cwd: undefined, tmuxEnv: undefined, pane: undefined }, 3_000);
    await settle();
    expect(changes()).toBe(1);
    expect(store.get(key)).toMatchObject({ cwd: '/a', tmux: { socketPath: SOCKET, pane: '%1' }, firstSeenAt: 1_000, lastSeenAt: 3_000 });
  });

  it('tells listeners of a changed directory or pane', async () => {
    const { store, changes } = open();
    const key = unmanagedKey('s-3');
    store.report(key, { sessionId: 's-3', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' }, 1);
    await settle();
    store.report(key, { sessionId: 's-3', cwd: '/b', tmuxEnv: TMUX_ENV, pane: '%1' }, 2);
    expect(changes()).toBe(2);
    expect(store.get(key)?.cwd).toBe('/b');
    store.report(key, { sessionId: 's-3', cwd: '/b', tmuxEnv: TMUX_ENV, pane: '%2' }, 3);
    expect(changes()).toBe(3);
    expect(store.get(key)?.tmux?.pane).toBe('%2');
    store.report(key, { sessionId: 's-3', cwd: '/b', tmuxEnv: '/tmp/other/sock,9,0', pane: '%2' }, 4);
    expect(changes()).toBe(4);
    expect(store.get(key)?.tmux).toEqual({ socketPath: '/tmp/other/sock', pane: '%2' });
    // Reported from outside tmux now (the headers present, empty): no pane any more.
    store.report(key, { sessionId: 's-3', cwd: '/b', tmuxEnv: '', pane: '' }, 5);
    expect(changes()).toBe(5);
    expect(store.get(key)?.tmux).toBeNull();
    expect(store.views()[0]?.terminal).toBe('none');
  });

  it('forgets a session: listeners get it and the reason, and a second forget does nothing', async () => {
    const { store, changes, forgotten } = open();
    const key = unmanagedKey('s-4');
    store.report(key, { sessionId: 's-4', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%5' }, 1);
    await settle();
    store.forget(key, 'session-ended');
    expect(store.has(key)).toBe(false);
    expect(store.list()).toEqual([]);
    expect(forgotten).toEqual([{ session: expect.objectContaining({ key, sessionId: 's-4', tmux: { socketPath: SOCKET, pane: '%5' } }), reason: 'session-ended' }]);
    expect(changes()).toBe(2);
    store.forget(key, 'session-ended');
    store.forget(unmanagedKey('never-heard'), 'session-ended');
    expect(forgotten).toHaveLength(1);
    expect(changes()).toBe(2);
  });
});

describe('OutsideSessions: finding and checking the claude process', () => {
  it('finds the pid in Claude\'s session file and forgets the session once that process is gone', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    writeSessionFile(pid, 'alive-1');
    // Files of other claudes, and names that are not session files, are passed over.
    writeSessionFile(999_999_999, 'someone-else');
    writeFileSync(join(configDir, 'sessions', 'notes.txt'), 'x');
    writeFileSync(join(configDir, 'sessions', '123.json'), 'not json');
    const { store, forgotten, paneChecks, changes } = open({}, () => false);
    const key = unmanagedKey('alive-1');
    store.report(key, { sessionId: 'alive-1', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' });
    // Found by the report itself, in the background: the clients hear of the pid.
    await eventually(() => store.get(key)?.pid === pid, 5_000, 'the pid to be found');
    expect(changes()).toBe(2);
    expect(store.views()[0]?.pid).toBe(pid);

    await store.sweep();
    expect(store.has(key)).toBe(true);
    // With the process known, the pane (reported gone here) is not asked about.
    expect(paneChecks).toEqual([]);

    await killed(child);
    await store.sweep();
    expect(store.has(key)).toBe(false);
    expect(forgotten).toEqual([{ session: expect.objectContaining({ key, pid }), reason: 'process-gone' }]);
  });

  it('finds the pid on a sweep when the session file appears after the first report', async () => {
    const { store } = open();
    const key = unmanagedKey('late-file');
    store.report(key, { sessionId: 'late-file', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await settle();
    expect(store.get(key)?.pid).toBeNull();
    const child = await sleeper();
    writeSessionFile(child.pid as number, 'late-file');
    await store.sweep();
    expect(store.get(key)?.pid).toBe(child.pid);
  });

  it('forgets the session when its session file is removed (claude removes it on exit), though the pid lives', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    writeSessionFile(pid, 'removed-file');
    const { store, forgotten } = open();
    const key = unmanagedKey('removed-file');
    store.report(key, { sessionId: 'removed-file', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await store.sweep();
    expect(store.get(key)?.pid).toBe(pid);
    rmSync(join(configDir, 'sessions', `${pid}.json`));
    await store.sweep();
    expect(store.has(key)).toBe(false);
    expect(forgotten.map((f) => f.reason)).toEqual(['process-gone']);
  });

  it('forgets the session when its pid\'s session file now names another session (the pid reused)', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    writeSessionFile(pid, 'first-owner');
    const { store, forgotten } = open();
    const key = unmanagedKey('first-owner');
    store.report(key, { sessionId: 'first-owner', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await store.sweep();
    expect(store.get(key)?.pid).toBe(pid);
    writeSessionFile(pid, 'second-owner');
    await store.sweep();
    expect(store.has(key)).toBe(false);
    expect(forgotten.map((f) => f.reason)).toEqual(['process-gone']);
  });

  it('asks about the pane only for a session whose process is not known', async () => {
    const child = await sleeper();
    writeSessionFile(child.pid as number, 'with-pid');
    const gone = new Set(['%2']);
    const { store, forgotten, paneChecks } = open({}, (pane) => !gone.has(pane.pane));
    store.report(unmanagedKey('with-pid'), { sessionId: 'with-pid', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%2' });
    store.report(unmanagedKey('pane-only'), { sessionId: 'pane-only', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%2' });
    store.report(unmanagedKey('pane-alive'), { sessionId: 'pane-alive', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%3' });
    store.report(unmanagedKey('nothing'), { sessionId: 'nothing', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await store.sweep();
    // The one with a pid stays though its pane is reported gone; the pane-only one in %2 goes.
    expect(store.list().map((s) => s.key).sort()).toEqual([unmanagedKey('nothing'), unmanagedKey('pane-alive'), unmanagedKey('with-pid')].sort());
    expect(forgotten).toEqual([{ session: expect.objectContaining({ key: unmanagedKey('pane-only') }), reason: 'pane-gone' }]);
    expect(paneChecks.map((p) => p.pane).sort()).toEqual(['%2', '%3']);
    // A session with neither a process nor a pane stays until SessionEnd or the cap.
    expect(store.get(unmanagedKey('nothing'))).toBeDefined();
  });

  it('keeps a session when the pane check itself fails', async () => {
    const { store, forgotten } = open({}, () => {
      throw new Error('tmux wedged');
    });
    store.report(unmanagedKey('wedged'), { sessionId: 'wedged', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' });
    await store.sweep();
    expect(store.has(unmanagedKey('wedged'))).toBe(true);
    expect(forgotten).toEqual([]);
  });

  it('uses an injected process check', async () => {
    writeSessionFile(4_000_000, 'injected');
    let alive = true;
    const { store, forgotten } = open({ processAlive: (pid) => pid === 4_000_000 && alive });
    store.report(unmanagedKey('injected'), { sessionId: 'injected', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await store.sweep();
    expect(store.get(unmanagedKey('injected'))?.pid).toBe(4_000_000);
    alive = false;
    await store.sweep();
    expect(forgotten.map((f) => f.reason)).toEqual(['process-gone']);
  });
});

describe('OutsideSessions: the cap', () => {
  it('forgets the session heard of least recently past the cap, never the new one', async () => {
    const { store, forgotten } = open({ max: 3 });
    for (const [id, at] of [['c1', 1_000], ['c2', 2_000], ['c3', 3_000]] as const) {
      store.report(unmanagedKey(id), { sessionId: id, cwd: '/a', tmuxEnv: undefined, pane: undefined }, at);
    }
    // c1 is heard from again: c2 is now the least recent.
    store.report(unmanagedKey('c1'), { sessionId: 'c1', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 4_000);
    store.report(unmanagedKey('c4'), { sessionId: 'c4', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 5_000);
    expect(store.list().map((s) => s.sessionId).sort()).toEqual(['c1', 'c3', 'c4']);
    expect(forgotten).toEqual([{ session: expect.objectContaining({ sessionId: 'c2' }), reason: 'too-many' }]);
    // A newcomer with an older timestamp than all others still stays.
    store.report(unmanagedKey('c5'), { sessionId: 'c5', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 10);
    expect(store.has(unmanagedKey('c5'))).toBe(true);
    expect(store.list()).toHaveLength(3);
    expect(forgotten.map((f) => f.session.sessionId)).toEqual(['c2', 'c3']);
  });
});

describe('OutsideSessions: the file', () => {
  it('writes what it knows and a new instance loads it back', async () => {
    const child = await sleeper();
    writeSessionFile(child.pid as number, 'kept-1');
    const first = open().store;
    first.report(unmanagedKey('kept-1'), { sessionId: 'kept-1', cwd: '/one', tmuxEnv: TMUX_ENV, pane: '%1' }, 1_000);
    first.report(unmanagedKey('kept-2'), { sessionId: 'kept-2', cwd: undefined, tmuxEnv: undefined, pane: undefined }, 2_000);
    await first.sweep();
    expect(first.get(unmanagedKey('kept-1'))?.pid).toBe(child.pid);
    await first.flush();
    expect(existsSync(path)).toBe(true);

    const second = open();
    second.store.load();
    expect(second.store.list()).toEqual(first.list());
    expect(second.changes()).toBe(0);
  });

  it('writes by itself shortly after a change', async () => {
    const { store } = open();
    store.report(unmanagedKey('auto'), { sessionId: 'auto', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 1);
    await eventually(() => existsSync(path) && readFileSync(path, 'utf8').includes('"auto"'), 5_000, 'the file to be written');
    store.forget(unmanagedKey('auto'), 'session-ended');
    await eventually(() => !readFileSync(path, 'utf8').includes('"auto"'), 5_000, 'the forgotten session to leave the file');
  });

  it('starts with none, without throwing, from a missing or corrupt file, and sets a corrupt one aside', () => {
    const missing = open();
    expect(() => missing.store.load()).not.toThrow();
    expect(missing.store.list()).toEqual([]);

    for (const text of ['not json {', JSON.stringify({ version: 2, sessions: [] }), JSON.stringify({ version: 1, sessions: [{ key: 'x' }] })]) {
      writeFileSync(path, text);
      const errors: string[] = [];
      const log: Logger = { ...createLogger({ stderr: false }), error: (m) => errors.push(m) };
      const { store } = open({ log });
      expect(() => store.load()).not.toThrow();
      expect(store.list()).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(existsSync(path)).toBe(false);
    }
    expect(readdirSync(dir).filter((n) => n.startsWith('outside.json.corrupt-')).length).toBeGreaterThanOrEqual(1);
  });

  it('loads at most the cap, the most recently heard of', () => {
    const sessions = [5, 1, 4, 2, 3].map((n) => ({
      key: unmanagedKey(`l${n}`),
      sessionId: `l${n}`,
      cwd: `/p${n}`,
      tmux: n % 2 ? { socketPath: SOCKET, pane: `%${n}` } : null,
      pid: null,
      firstSeenAt: n,
      lastSeenAt: n * 1_000,
    }));
    writeFileSync(path, JSON.stringify({ version: 1, sessions }));
    const { store } = open({ max: 3 });
    store.load();
    expect(store.list().map((s) => s.sessionId).sort()).toEqual(['l3', 'l4', 'l5']);
    expect(store.get(unmanagedKey('l5'))).toEqual(sessions[0]);
    // The least recent of those loaded is the first to go past the cap.
    const forgotten: string[] = [];
    store.on('forgotten', (s) => forgotten.push(s.sessionId));
    store.report(unmanagedKey('new'), { sessionId: 'new', cwd: '/n', tmuxEnv: undefined, pane: undefined }, 10_000);
    expect(forgotten).toEqual(['l3']);
  });

  it('keeps every session through a restart, whatever session id a hook named', async () => {
    // Hook payloads allow session ids up to 256 characters, and a statusLine report any length:
    // one entry the file could not hold back made the whole file unreadable at the next start.
    const longId = `long-${'x'.repeat(251)}`;
    const overlong = `over-${'y'.repeat(300)}`;
    const first = open().store;
    first.report(unmanagedKey('short'), { sessionId: 'short', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 1);
    first.report(unmanagedKey(longId), { sessionId: longId, cwd: '/a', tmuxEnv: undefined, pane: undefined }, 2);
    first.report(unmanagedKey(overlong), { sessionId: overlong, cwd: '/a', tmuxEnv: undefined, pane: undefined }, 3);
    // A cwd past what the file holds is not kept either (the one known stays).
    first.report(unmanagedKey('short'), { sessionId: 'short', cwd: `/${'c'.repeat(5000)}`, tmuxEnv: undefined, pane: undefined }, 4);
    expect(first.has(unmanagedKey(overlong))).toBe(false);
    expect(first.get(unmanagedKey('short'))?.cwd).toBe('/a');
    await first.flush();
    const second = open().store;
    second.load();
    expect(second.list().map((s) => s.sessionId).sort()).toEqual([longId, 'short']);
  });
});
