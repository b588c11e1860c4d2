/**
 * Two agents with different data dirs never see each other's tmux sessions: each data dir has
 * its own tmux server by default, and on a server shared through --tmux-socket each agent
 * adopts only the sessions marked as its own, and a second agent does not start on a server
 * that holds another data dir's sessions.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { dataDirIdentity } from '../../agent/config/tmux-socket.js';
import { OWNER_OPTION } from '../../agent/tmux/commands.js';
import { agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';

afterAll(cleanupAgents);

async function tabs(session: Session): Promise<TabView[]> {
  return (await api<{ tabs: TabView[] }>(session, 'GET', '/api/tabs')).body.tabs;
}

async function sessionsOn(socket: string): Promise<string[]> {
  const out = await tmux(socket, 'list-sessions', '-F', '#{session_name}').catch(() => '');
  return out.split('\n').filter(Boolean).sort();
}

/** Waits until the agent lists a tab named `name`: its discovery has run since that session was made. */
function adopted(session: Session, name: string): Promise<TabView> {
  return eventually(async () => (await tabs(session)).find((t) => t.name === name), 15_000, `a tab named ${name}`);
}

const POLL = { POCKETMUX_SAFETY_POLL_MS: '200' };

describe('a tmux server per data dir', () => {
  it('gives each data dir its own server: each agent lists only its own tabs, and closing one leaves the other', async () => {
    const a = await startAgent({ dataDirSocket: true, env: POLL });
    const b = await startAgent({ dataDirSocket: true, env: POLL });
    for (const agent of [a, b]) {
      expect(agent.tmuxSocket).toMatch(/^pocketmux-[0-9a-f]{8}$/);
      expect(agent.stdout()).toContain(`tmux socket: ${agent.tmuxSocket}\n`);
    }
    expect(a.tmuxSocket).not.toBe(b.tmuxSocket);

    const sa = await claim(a);
    const sb = await claim(b);
    const tabA = await createTab(sa);
    const tabB = await createTab(sb);
    // A session made by hand on each server, after both tabs: once adopted, each agent's
    // discovery has looked at everything on its server.
    await tmux(a.tmuxSocket, 'new-session', '-d', '-s', 'by-hand-a');
    await tmux(b.tmuxSocket, 'new-session', '-d', '-s', 'by-hand-b');
    const handA = await adopted(sa, 'by-hand-a');
    const handB = await adopted(sb, 'by-hand-b');
    expect((await tabs(sa)).map((t) => t.id).sort()).toEqual([tabA.id, handA.id].sort());
    expect((await tabs(sb)).map((t) => t.id).sort()).toEqual([tabB.id, handB.id].sort());

    const before = await sessionsOn(b.tmuxSocket);
    expect(before).toHaveLength(2);
    expect((await api(sa, 'DELETE', `/api/tabs/${tabA.id}`)).status).toBeLessThan(300);
    expect(await sessionsOn(b.tmuxSocket)).toEqual(before);
    expect((await tabs(sb)).find((t) => t.id === tabB.id)).toMatchObject({ alive: true });
    await a.stop();
    await b.stop();
  });

  it('refuses to start on a server given by --tmux-socket that holds another data dir\'s sessions', async () => {
    const a = await startAgent();
    const sa = await claim(a);
    const tabA = await createTab(sa);
    const other = newTestEnvironment();
    const result = await runCli(['start', '--port', '0', '--data-dir', other.dataDir, '--tmux-socket', a.tmuxSocket], agentEnv(other), 20_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the tmux server "${a.tmuxSocket}" holds the sessions of another pocketmux data dir`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect((await tabs(sa)).map((t) => t.id)).toEqual([tabA.id]);
    expect(await sessionsOn(a.tmuxSocket)).toHaveLength(1);
    await a.stop();
  });

  it('on a server both started on before it ran, adopts only the sessions marked as its own', async () => {
    const a = await startAgent({ env: POLL });
    // No server runs yet (a has no tab): nothing tells b the name is taken.
    const b = await startAgent({ reuse: { ...newTestEnvironment(), tmuxSocket: a.tmuxSocket }, env: POLL });
    const socket = a.tmuxSocket;
    const sa = await claim(a);
    const sb = await claim(b);
    const tabA = await createTab(sa);
    const tabB = await createTab(sb);
    // Made by hand after a's server started: it is a's. One marked as b's is b's.
    await tmux(socket, 'new-session', '-d', '-s', 'by-hand');
    await tmux(socket, 'new-session', '-d', '-s', 'for-b', ';', 'set-option', '-t', '=for-b:', OWNER_OPTION, dataDirIdentity(b.dataDir));
    const hand = await adopted(sa, 'by-hand');
    const forB = await adopted(sb, 'for-b');
    expect((await tabs(sa)).map((t) => t.id).sort()).toEqual([tabA.id, hand.id].sort());
    expect((await tabs(sb)).map((t) => t.id).sort()).toEqual([tabB.id, forB.id].sort());

    expect((await api(sa, 'DELETE', `/api/tabs/${tabA.id}`)).status).toBeLessThan(300);
    expect((await api(sa, 'DELETE', `/api/tabs/${hand.id}`)).status).toBeLessThan(300);
    expect(await sessionsOn(socket)).toHaveLength(2);
    expect((await tabs(sb)).map((t) => t.id).sort()).toEqual([tabB.id, forB.id].sort());
    await a.stop();
    await b.stop();
  });
});
