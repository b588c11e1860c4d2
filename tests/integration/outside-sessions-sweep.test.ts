import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { procStartTime } from '../../agent/claude/process.js';
import type { OutsidePane } from '../../agent/outside/outside-tmux.js';
import { type ForgetReason, type OutsideSession, OutsideSessions, type OutsideSessionsOptions } from '../../agent/outside/outside-sessions.js';
import { createLogger, type Logger } from '../../agent/util/log.js';
import { outsideSessionKey } from '../../protocol/hook-contract.js';
import { eventually } from '../support/eventually.js';

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
  /** The keys whose first report's look for their claude is over, as the store logs it. */
  looked: string[];
  changes: () => number;
  forgotten: { session: OutsideSession; reason: ForgetReason }[];
  paneChecks: OutsidePane[];
}

function open(options: Partial<OutsideSessionsOptions> = {}, paneAlive: (pane: OutsidePane) => boolean | Promise<boolean> = () => true): Recorded {
  const paneChecks: OutsidePane[] = [];
  const looked: string[] = [];
  const log: Logger = {
    ...createLogger({ stderr: false }),
    debug: (message, fields) => {
      if (message === 'looked for the claude of a new session outside the tabs') looked.push(fields?.key as string);
    },
  };
  const store = new OutsideSessions({
    path,
    log,
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
  return { store, changes: () => changes, forgotten, paneChecks, looked };
}

/** Waits until the look for each new session's claude process (started by report, not awaited) is over. */
async function settle(looked: string[], ...keys: string[]): Promise<void> {
  await eventually(() => keys.every((key) => looked.includes(key)), 5_000, `the look for the claude of ${keys.join(', ')}`);
}

/** Claude's `sessions/<pid>.json`; `procStart` as Claude writes it on Linux (field 22 of /proc/<pid>/stat). */
function writeSessionFile(pid: number, sessionId: string, extra: { procStart?: string } = {}): void {
  writeFileSync(join(configDir, 'sessions', `${pid}.json`), JSON.stringify({ pid, sessionId, cwd: '/work', startedAt: Date.now(), ...extra }));
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
    const { store, changes, looked } = open();
    const key = outsideSessionKey('s-1');
    store.report(key, { sessionId: 's-1', cwd: '/home/me/project', tmuxEnv: TMUX_ENV, pane: '%3' }, 1_000);
    await settle(looked, key);
    expect(changes()).toBe(1);
    expect(store.has(key)).toBe(true);
    expect(store.get(key)).toEqual({ key, agent: 'claude', sessionId: 's-1', cwd: '/home/me/project', tmux: { socketPath: SOCKET, serverPid: 4242, pane: '%3' }, pid: null, firstSeenAt: 1_000, lastSeenAt: 1_000 });
    expect(store.views()).toEqual([{ key, agent: 'claude', sessionId: 's-1', cwd: '/home/me/project', terminal: 'tmux', pane: '%3', pid: null, firstSeenAt: 1_000 }]);
  });

  it('keeps a session outside tmux as one with no terminal', async () => {
    const { store } = open();
    store.report(outsideSessionKey('plain'), { sessionId: 'plain', cwd: '/srv', tmuxEnv: undefined, pane: undefined }, 1);
    // A $TMUX that does not parse, or a pane that is not %N, is no tmux either.
    store.report(outsideSessionKey('odd'), { sessionId: 'odd', cwd: '/srv', tmuxEnv: 'relative/path,1,0', pane: '%1' }, 2);
    store.report(outsideSessionKey('odd2'), { sessionId: 'odd2', cwd: '/srv', tmuxEnv: TMUX_ENV, pane: 'main:0.1' }, 3);
    expect(store.views().map((v) => [v.key, v.terminal, v.pane])).toEqual([
      [outsideSessionKey('plain'), 'none', null],
      [outsideSessionKey('odd'), 'none', null],
      [outsideSessionKey('odd2'), 'none', null],
    ]);
  });

  it('tells listeners nothing for a report that says only "still here", but notes when it was heard', async () => {
    const { store, changes, looked } = open();
    const key = outsideSessionKey('s-2');
    const report = { sessionId: 's-2', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' };
    store.report(key, report, 1_000);
    await settle(looked, key);
    store.report(key, report, 2_000);
    // A hook without cwd and without the tmux headers keeps what is known.
    store.report(key, { sessionId: 's-2', cwd: undefined, tmuxEnv: undefined, pane: undefined }, 3_000);
    await settle(looked, key);
    expect(changes()).toBe(1);
    expect(store.get(key)).toMatchObject({ cwd: '/a', tmux: { socketPath: SOCKET, serverPid: 4242, pane: '%1' }, firstSeenAt: 1_000, lastSeenAt: 3_000 });
  });

  it('tells listeners of a changed directory or pane', async () => {
    const { store, changes, looked } = open();
    const key = outsideSessionKey('s-3');
    store.report(key, { sessionId: 's-3', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' }, 1);
    await settle(looked, key);
    store.report(key, { sessionId: 's-3', cwd: '/b', tmuxEnv: TMUX_ENV, pane: '%1' }, 2);
    expect(changes()).toBe(2);
    expect(store.get(key)?.cwd).toBe('/b');
    store.report(key, { sessionId: 's-3', cwd: '/b', tmuxEnv: TMUX_ENV, pane: '%2' }, 3);
    expect(changes()).toBe(3);
    expect(store.get(key)?.tmux?.pane).toBe('%2');
    store.report(key, { sessionId: 's-3', cwd: '/b', tmuxEnv: '/tmp/other/sock,9,0', pane: '%2' }, 4);
    expect(changes()).toBe(4);
    expect(store.get(key)?.tmux).toEqual({ socketPath: '/tmp/other/sock', serverPid: 9, pane: '%2' });
    // Reported from outside tmux now (the headers present, empty): no pane any more.
    store.report(key, { sessionId: 's-3', cwd: '/b', tmuxEnv: '', pane: '' }, 5);
    expect(changes()).toBe(5);
    expect(store.get(key)?.tmux).toBeNull();
    expect(store.views()[0]?.terminal).toBe('none');
  });

  it('forgets a session: listeners get it and the reason, and a second forget does nothing', async () => {
    const { store, changes, forgotten, looked } = open();
    const key = outsideSessionKey('s-4');
    store.report(key, { sessionId: 's-4', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%5' }, 1);
    await settle(looked, key);
    store.forget(key, 'session-ended');
    expect(store.has(key)).toBe(false);
    expect(store.list()).toEqual([]);
    expect(forgotten).toEqual([{ session: expect.objectContaining({ key, sessionId: 's-4', tmux: { socketPath: SOCKET, serverPid: 4242, pane: '%5' } }), reason: 'session-ended' }]);
    expect(changes()).toBe(2);
    store.forget(key, 'session-ended');
    store.forget(outsideSessionKey('never-heard'), 'session-ended');
    expect(forgotten).toHaveLength(1);
    expect(changes()).toBe(2);
  });

  it('an ended session comes back only with a SessionStart: a report sent before its end is not taken', async () => {
    const { store, changes, forgotten, looked } = open();
    const key = outsideSessionKey('s-5');
    store.report(key, { sessionId: 's-5', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%5' }, 1);
    await settle(looked, key);
    store.forget(key, 'session-ended');
    expect(store.report(key, { sessionId: 's-5', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%5' }, 2)).toBe(false);
    expect(store.has(key)).toBe(false);
    expect(store.hasEnded(key)).toBe(true);
    expect(changes()).toBe(2);
    // Ended before it was ever heard of (the sweep let it go first, then its SessionEnd came): the same.
    const unheard = outsideSessionKey('s-6');
    store.forget(unheard, 'session-ended');
    expect(store.report(unheard, { sessionId: 's-6', cwd: '/b', tmuxEnv: undefined, pane: undefined }, 3)).toBe(false);
    expect(store.has(unheard)).toBe(false);
    // Resumed: its SessionStart brings it back, and it is an ordinary session again.
    expect(store.report(key, { sessionId: 's-5', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%5', start: true }, 4)).toBe(true);
    expect(store.has(key)).toBe(true);
    expect(store.hasEnded(key)).toBe(false);
    expect(store.report(key, { sessionId: 's-5', cwd: '/c', tmuxEnv: TMUX_ENV, pane: '%5' }, 5)).toBe(true);
    expect(store.get(key)?.cwd).toBe('/c');
    // Let go for another reason (its status dropped, the cap), it is not ended: any report brings it back.
    store.forget(key, 'status-dropped');
    expect(store.hasEnded(key)).toBe(false);
    expect(store.report(key, { sessionId: 's-5', cwd: '/c', tmuxEnv: TMUX_ENV, pane: '%5' }, 6)).toBe(true);
    expect(forgotten.map((f) => f.reason)).toEqual(['session-ended', 'status-dropped']);
  });

  it('remembers the last thousand ended sessions: the oldest is let go past them', () => {
    const { store } = open();
    const keys = Array.from({ length: 1_001 }, (_, i) => outsideSessionKey(`ended-${i}`));
    for (const key of keys) store.forget(key, 'session-ended');
    expect(store.hasEnded(keys[0] as string)).toBe(false);
    expect(store.hasEnded(keys[1] as string)).toBe(true);
    expect(store.hasEnded(keys[1_000] as string)).toBe(true);
    // Ended again, a key is the newest.
    store.forget(keys[1] as string, 'session-ended');
    store.forget(outsideSessionKey('one-more'), 'session-ended');
    expect(store.hasEnded(keys[1] as string)).toBe(true);
    expect(store.hasEnded(keys[2] as string)).toBe(false);
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
    const key = outsideSessionKey('alive-1');
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
    const { store, looked } = open();
    const key = outsideSessionKey('late-file');
    store.report(key, { sessionId: 'late-file', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await settle(looked, key);
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
    const key = outsideSessionKey('removed-file');
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
    const key = outsideSessionKey('first-owner');
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
    store.report(outsideSessionKey('with-pid'), { sessionId: 'with-pid', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%2' });
    store.report(outsideSessionKey('pane-only'), { sessionId: 'pane-only', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%2' });
    store.report(outsideSessionKey('pane-alive'), { sessionId: 'pane-alive', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%3' });
    store.report(outsideSessionKey('nothing'), { sessionId: 'nothing', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await store.sweep();
    // The one with a pid stays though its pane is reported gone; the pane-only one in %2 goes.
    expect(store.list().map((s) => s.key).sort()).toEqual([outsideSessionKey('nothing'), outsideSessionKey('pane-alive'), outsideSessionKey('with-pid')].sort());
    expect(forgotten).toEqual([{ session: expect.objectContaining({ key: outsideSessionKey('pane-only') }), reason: 'pane-gone' }]);
    expect(paneChecks.map((p) => p.pane).sort()).toEqual(['%2', '%3']);
    // A session with neither a process nor a pane stays until SessionEnd or the cap.
    expect(store.get(outsideSessionKey('nothing'))).toBeDefined();
  });

  it('keeps a session when the pane check itself fails', async () => {
    const { store, forgotten } = open({}, () => {
      throw new Error('tmux wedged');
    });
    store.report(outsideSessionKey('wedged'), { sessionId: 'wedged', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' });
    await store.sweep();
    expect(store.has(outsideSessionKey('wedged'))).toBe(true);
    expect(forgotten).toEqual([]);
  });

  it('uses an injected process check', async () => {
    writeSessionFile(4_000_000, 'injected');
    let alive = true;
    const { store, forgotten } = open({ processAlive: (pid) => pid === 4_000_000 && alive });
    store.report(outsideSessionKey('injected'), { sessionId: 'injected', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await store.sweep();
    expect(store.get(outsideSessionKey('injected'))?.pid).toBe(4_000_000);
    alive = false;
    await store.sweep();
    expect(forgotten.map((f) => f.reason)).toEqual(['process-gone']);
  });
});

/** Where a process's start time can be read (/proc), as Claude writes it into its session file. */
const onLinux = existsSync('/proc/self/stat');

describe.runIf(onLinux)('OutsideSessions: a claude is its session\'s only while its start time matches', () => {
  it('takes a pid whose session file gives the process\'s own start time, and not one whose file gives another', async () => {
    const [own, other] = [await sleeper(), await sleeper()];
    const ownStart = procStartTime(own.pid as number);
    expect(ownStart).toMatch(/^\d+$/);
    writeSessionFile(own.pid as number, 'own-start', { procStart: ownStart as string });
    // A file left by a claude that was killed, its pid taken since by another process.
    writeSessionFile(other.pid as number, 'stale-start', { procStart: `${Number(procStartTime(other.pid as number)) + 1}` });
    const { store, forgotten } = open();
    store.report(outsideSessionKey('own-start'), { sessionId: 'own-start', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    store.report(outsideSessionKey('stale-start'), { sessionId: 'stale-start', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await store.sweep();
    expect(store.get(outsideSessionKey('own-start'))?.pid).toBe(own.pid);
    expect(store.get(outsideSessionKey('stale-start'))?.pid).toBeNull();
    // Not forgotten either: nothing says its claude is gone, only that this pid is not it.
    await store.sweep();
    expect(store.get(outsideSessionKey('stale-start'))?.pid).toBeNull();
    expect(forgotten).toEqual([]);
  });

  it('forgets a session once its pid\'s file gives another start time', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    const start = procStartTime(pid) as string;
    writeSessionFile(pid, 'restarted', { procStart: start });
    const { store, forgotten } = open();
    const key = outsideSessionKey('restarted');
    store.report(key, { sessionId: 'restarted', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await store.sweep();
    expect(store.get(key)?.pid).toBe(pid);
    writeSessionFile(pid, 'restarted', { procStart: `${Number(start) + 1}` });
    await store.sweep();
    expect(store.has(key)).toBe(false);
    expect(forgotten.map((f) => f.reason)).toEqual(['process-gone']);
  });
});

describe('OutsideSessions: whether its claude still runs (asked before typing)', () => {
  it('with its process known: that the process is still its claude, without forgetting it', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    writeSessionFile(pid, 'known');
    const claudeChecks: OutsidePane[] = [];
    const { store, paneChecks, forgotten } = open({
      agentInPane: async (pane) => {
        claudeChecks.push(pane);
        return false;
      },
    });
    const key = outsideSessionKey('known');
    store.report(key, { sessionId: 'known', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' });
    await store.sweep();
    const session = store.get(key) as OutsideSession;
    expect(session.pid).toBe(pid);
    expect(await store.stillRunning(session)).toBe(true);
    expect(store.isItsClaude(session, pid)).toBe(true);
    // The pane is not what decides for a session whose process is known.
    expect(claudeChecks).toEqual([]);
    expect(paneChecks).toEqual([]);
    await killed(child);
    expect(await store.stillRunning(session)).toBe(false);
    expect(store.isItsClaude(session, pid)).toBe(false);
    expect(store.has(key)).toBe(true);
    expect(forgotten).toEqual([]);
  });

  it('with no process known: whether a claude runs in its pane, as the pane check given says', async () => {
    const inPane = new Map([['%1', true], ['%2', false]]);
    const claudeChecks: OutsidePane[] = [];
    const { store, paneChecks, looked } = open({
      agentInPane: async (pane) => {
        claudeChecks.push(pane);
        return inPane.get(pane.pane) ?? false;
      },
    });
    store.report(outsideSessionKey('claude-there'), { sessionId: 'claude-there', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' });
    store.report(outsideSessionKey('shell-only'), { sessionId: 'shell-only', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%2' });
    await settle(looked, outsideSessionKey('claude-there'), outsideSessionKey('shell-only'));
    expect(await store.stillRunning(store.get(outsideSessionKey('claude-there')) as OutsideSession)).toBe(true);
    expect(await store.stillRunning(store.get(outsideSessionKey('shell-only')) as OutsideSession)).toBe(false);
    // Asked with the pane and its server as the hooks named them.
    expect(claudeChecks).toEqual([
      { socketPath: SOCKET, serverPid: 4242, pane: '%1' },
      { socketPath: SOCKET, serverPid: 4242, pane: '%2' },
    ]);
    expect(paneChecks).toEqual([]);
    // The sweep goes by the pane, not by what runs in it: a shell left in the pane keeps the session listed.
    await store.sweep();
    expect(store.has(outsideSessionKey('shell-only'))).toBe(true);
    expect(claudeChecks).toHaveLength(2);
  });

  it('with no process known and no pane check given: whether the pane is there', async () => {
    const { store, paneChecks, looked } = open({}, (pane) => pane.pane === '%1');
    store.report(outsideSessionKey('pane-there'), { sessionId: 'pane-there', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' });
    store.report(outsideSessionKey('pane-gone'), { sessionId: 'pane-gone', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%2' });
    await settle(looked, outsideSessionKey('pane-there'), outsideSessionKey('pane-gone'));
    expect(await store.stillRunning(store.get(outsideSessionKey('pane-there')) as OutsideSession)).toBe(true);
    expect(await store.stillRunning(store.get(outsideSessionKey('pane-gone')) as OutsideSession)).toBe(false);
    expect(paneChecks.map((p) => p.pane)).toEqual(['%1', '%2']);
  });

  it('outside tmux with no process known: nothing tells otherwise, so yes', async () => {
    const { store, paneChecks, looked } = open({ agentInPane: async () => false }, () => false);
    store.report(outsideSessionKey('plain'), { sessionId: 'plain', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await settle(looked, outsideSessionKey('plain'));
    expect(await store.stillRunning(store.get(outsideSessionKey('plain')) as OutsideSession)).toBe(true);
    expect(paneChecks).toEqual([]);
  });
});

describe('OutsideSessions: the sweep', () => {
  it('does not forget a session that was forgotten and heard of again while it waited', async () => {
    const child = await sleeper();
    writeSessionFile(child.pid as number, 'with-pid');
    const paneKey = outsideSessionKey('pane-only');
    const pidKey = outsideSessionKey('with-pid');
    let store: OutsideSessions | null = null;
    let first = true;
    // Pane %1 answers gone; the first time it is asked, both sessions end and start again while
    // the sweep waits on tmux (a /clear, a resume): new entries under the same keys.
    const recorded = open({}, (pane) => {
      if (pane.pane !== '%1') return true;
      if (first && store) {
        first = false;
        for (const [key, id, tmuxPane] of [[paneKey, 'pane-only', '%1'], [pidKey, 'with-pid', undefined]] as const) {
          store.forget(key, 'session-ended');
          store.report(key, { sessionId: id, cwd: '/again', tmuxEnv: tmuxPane ? TMUX_ENV : undefined, pane: tmuxPane, start: true });
        }
      }
      return false;
    });
    store = recorded.store;
    // The pane-only session first: the sweep reaches the other after waiting on its pane.
    store.report(paneKey, { sessionId: 'pane-only', cwd: '/a', tmuxEnv: TMUX_ENV, pane: '%1' });
    store.report(pidKey, { sessionId: 'with-pid', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await eventually(() => store?.get(pidKey)?.pid === child.pid, 5_000, 'the pid to be found');
    await killed(child);

    await store.sweep();
    expect(first).toBe(false);
    expect(store.get(paneKey)?.cwd).toBe('/again');
    expect(store.get(pidKey)?.cwd).toBe('/again');
    expect(recorded.forgotten.map((f) => [f.session.key, f.reason])).toEqual([
      [paneKey, 'session-ended'],
      [pidKey, 'session-ended'],
    ]);
    // The next sweep judges the new entries: the pane still answers gone, and no claude runs for the other.
    await store.sweep();
    expect(store.has(paneKey)).toBe(false);
    expect(store.has(pidKey)).toBe(true);
  });

  it('looks through the session files at every sweep for a session heard of in the last minute', async () => {
    const { store, looked } = open();
    const key = outsideSessionKey('young');
    store.report(key, { sessionId: 'young', cwd: '/a', tmuxEnv: undefined, pane: undefined });
    await settle(looked, key);
    await store.sweep();
    expect(store.get(key)?.pid).toBeNull();
    // Claude writes its file a moment after its first hook.
    const child = await sleeper();
    writeSessionFile(child.pid as number, 'young');
    await store.sweep();
    expect(store.get(key)?.pid).toBe(child.pid);
  });

  it('looks again for an older session only once 30 seconds have passed since the last look', async () => {
    const { store, looked } = open();
    const key = outsideSessionKey('old');
    // Heard of two minutes ago: its first report looked (and found no file).
    store.report(key, { sessionId: 'old', cwd: '/a', tmuxEnv: undefined, pane: undefined }, Date.now() - 120_000);
    await settle(looked, key);
    const child = await sleeper();
    writeSessionFile(child.pid as number, 'old');
    await store.sweep();
    expect(store.get(key)?.pid).toBeNull();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 31_000);
      await store.sweep();
    } finally {
      vi.useRealTimers();
    }
    expect(store.get(key)?.pid).toBe(child.pid);
  });

  it('looks at the first sweep after a start for sessions kept in the file', async () => {
    const child = await sleeper();
    const old = Date.now() - 3_600_000;
    writeFileSync(path, JSON.stringify({ version: 1, sessions: [{ key: outsideSessionKey('kept'), sessionId: 'kept', cwd: '/a', tmux: null, pid: null, firstSeenAt: old, lastSeenAt: old }] }));
    writeSessionFile(child.pid as number, 'kept');
    const { store } = open();
    store.load();
    await store.sweep();
    expect(store.get(outsideSessionKey('kept'))?.pid).toBe(child.pid);
  });

  it('reads a session an earlier version kept under its old key prefix under the prefix of today', () => {
    const at = Date.now();
    writeFileSync(path, JSON.stringify({ version: 1, sessions: [{ key: 'unmanaged-kept', sessionId: 'kept', cwd: '/a', tmux: null, pid: null, firstSeenAt: at, lastSeenAt: at }] }));
    const { store } = open();
    store.load();
    expect(store.has('unmanaged-kept')).toBe(false);
    expect(store.get('outside-kept')).toMatchObject({ key: 'outside-kept', sessionId: 'kept', cwd: '/a' });
  });
});

describe('OutsideSessions: the cap', () => {
  it('forgets the session heard of least recently past the cap, never the new one', async () => {
    const { store, forgotten } = open({ max: 3 });
    for (const [id, at] of [['c1', 1_000], ['c2', 2_000], ['c3', 3_000]] as const) {
      store.report(outsideSessionKey(id), { sessionId: id, cwd: '/a', tmuxEnv: undefined, pane: undefined }, at);
    }
    // c1 is heard from again: c2 is now the least recent.
    store.report(outsideSessionKey('c1'), { sessionId: 'c1', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 4_000);
    store.report(outsideSessionKey('c4'), { sessionId: 'c4', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 5_000);
    expect(store.list().map((s) => s.sessionId).sort()).toEqual(['c1', 'c3', 'c4']);
    expect(forgotten).toEqual([{ session: expect.objectContaining({ sessionId: 'c2' }), reason: 'too-many' }]);
    // A newcomer with an older timestamp than all others still stays.
    store.report(outsideSessionKey('c5'), { sessionId: 'c5', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 10);
    expect(store.has(outsideSessionKey('c5'))).toBe(true);
    expect(store.list()).toHaveLength(3);
    expect(forgotten.map((f) => f.session.sessionId)).toEqual(['c2', 'c3']);
  });
});

describe('OutsideSessions: the file', () => {
  it('writes what it knows and a new instance loads it back', async () => {
    const child = await sleeper();
    writeSessionFile(child.pid as number, 'kept-1');
    const first = open().store;
    first.report(outsideSessionKey('kept-1'), { sessionId: 'kept-1', cwd: '/one', tmuxEnv: TMUX_ENV, pane: '%1' }, 1_000);
    first.report(outsideSessionKey('kept-2'), { sessionId: 'kept-2', cwd: undefined, tmuxEnv: undefined, pane: undefined }, 2_000);
    // Found by the look the first report starts (these two were heard of long ago: no sweep looks again soon).
    await eventually(() => first.get(outsideSessionKey('kept-1'))?.pid === child.pid, 5_000, 'the pid to be found');
    await first.flush();
    expect(existsSync(path)).toBe(true);

    const second = open();
    second.store.load();
    expect(second.store.list()).toEqual(first.list());
    expect(second.changes()).toBe(0);
  });

  it('writes by itself shortly after a change', async () => {
    const { store } = open();
    store.report(outsideSessionKey('auto'), { sessionId: 'auto', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 1);
    await eventually(() => existsSync(path) && readFileSync(path, 'utf8').includes('"auto"'), 5_000, 'the file to be written');
    store.forget(outsideSessionKey('auto'), 'session-ended');
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
      key: outsideSessionKey(`l${n}`),
      sessionId: `l${n}`,
      cwd: `/p${n}`,
      tmux: n % 2 ? { socketPath: SOCKET, serverPid: 4242, pane: `%${n}` } : null,
      pid: null,
      firstSeenAt: n,
      lastSeenAt: n * 1_000,
    }));
    writeFileSync(path, JSON.stringify({ version: 1, sessions }));
    const { store } = open({ max: 3 });
    store.load();
    expect(store.list().map((s) => s.sessionId).sort()).toEqual(['l3', 'l4', 'l5']);
    // Written before Codex: every session in it is a Claude's.
    expect(store.get(outsideSessionKey('l5'))).toEqual({ ...sessions[0], agent: 'claude' });
    // The least recent of those loaded is the first to go past the cap.
    const forgotten: string[] = [];
    store.on('forgotten', (s) => forgotten.push(s.sessionId));
    store.report(outsideSessionKey('new'), { sessionId: 'new', cwd: '/n', tmuxEnv: undefined, pane: undefined }, 10_000);
    expect(forgotten).toEqual(['l3']);
  });

  it('reads a file from before the server\'s pid was kept: the pid is not known', () => {
    const old = { key: outsideSessionKey('older'), sessionId: 'older', cwd: '/a', tmux: { socketPath: SOCKET, pane: '%4' }, pid: null, firstSeenAt: 1, lastSeenAt: 2 };
    writeFileSync(path, JSON.stringify({ version: 1, sessions: [old] }));
    const { store } = open();
    store.load();
    expect(store.get(outsideSessionKey('older'))).toEqual({ ...old, agent: 'claude', tmux: { socketPath: SOCKET, serverPid: null, pane: '%4' } });
  });

  it('keeps every session through a restart, whatever session id a hook named', async () => {
    // Hook payloads allow session ids up to 256 characters, and a statusLine report any length:
    // one entry the file could not hold back made the whole file unreadable at the next start.
    const longId = `long-${'x'.repeat(251)}`;
    const overlong = `over-${'y'.repeat(300)}`;
    const first = open().store;
    first.report(outsideSessionKey('short'), { sessionId: 'short', cwd: '/a', tmuxEnv: undefined, pane: undefined }, 1);
    first.report(outsideSessionKey(longId), { sessionId: longId, cwd: '/a', tmuxEnv: undefined, pane: undefined }, 2);
    first.report(outsideSessionKey(overlong), { sessionId: overlong, cwd: '/a', tmuxEnv: undefined, pane: undefined }, 3);
    // A cwd past what the file holds is not kept either (the one known stays).
    first.report(outsideSessionKey('short'), { sessionId: 'short', cwd: `/${'c'.repeat(5000)}`, tmuxEnv: undefined, pane: undefined }, 4);
    expect(first.has(outsideSessionKey(overlong))).toBe(false);
    expect(first.get(outsideSessionKey('short'))?.cwd).toBe('/a');
    await first.flush();
    const second = open().store;
    second.load();
    expect(second.list().map((s) => s.sessionId).sort()).toEqual([longId, 'short']);
  });
});
