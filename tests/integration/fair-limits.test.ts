/**
 * Caps that keep one device, or one runaway script, from crowding out everyone else:
 * terminals per device, workspaces and tabs, and Claude sessions remembered from hooks.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspacesResponse } from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import { CloseCode } from '../../protocol/close-codes.js';
import { type AgentHandle, agentEnv, cleanupAgents, runCli, startAgent, tmux } from '../support/agent.js';
import { api, type CloseInfo, claim, createTab, firstWorkspaceId, pairAnother, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { RawChannel } from '../support/channels.js';
import { capturedHook, StatusClient } from '../support/status.js';

afterAll(cleanupAgents);

const sessionStart = capturedHook('SessionStart');

function logText(agent: AgentHandle): string {
  const path = join(agent.dataDir, 'logs', 'agent.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

describe('terminals per device', () => {
  it('a device past its own cap loses its own oldest terminal; another device keeps its terminal', async () => {
    const agent = await startAgent();
    const a = await claim(agent, 'device A');
    const b = await pairAnother(agent, a, 'device B');
    const tab = await createTab(a);

    const bTerm = new TerminalClient(b, tab.id);
    await bTerm.opened;
    const aTerms: TerminalClient[] = [];
    for (let i = 0; i < 9; i++) {
      const t = new TerminalClient(a, tab.id);
      await t.opened;
      aTerms.push(t);
    }

    let dropped: CloseInfo | undefined;
    void (aTerms[0] as TerminalClient).closed.then((info) => {
      dropped = info;
    });
    await eventually(() => dropped, 10_000, "device A's oldest terminal dropped");
    expect(dropped?.code).toBe(CloseCode.ConnectionLimit);
    expect(dropped?.reason).toMatch(/this device/);
    for (const t of aTerms.slice(1)) expect(t.ws.readyState).toBe(t.ws.OPEN);

    bTerm.type('echo b-survives-$((40+2))\r');
    await bTerm.waitFor('b-survives-42');
    expect(bTerm.ws.readyState).toBe(bTerm.ws.OPEN);
    for (const t of [bTerm, ...aTerms]) t.close();
  });

  it("at the agent's cap of 32, the device holding the most loses its oldest, not whoever opened first", async () => {
    const agent = await startAgent();
    const a = await claim(agent, 'device A');
    const [b, c, d, e] = await Promise.all(['B', 'C', 'D', 'E'].map((n) => pairAnother(agent, a, `device ${n}`)));
    const tab = await createTab(a);
    const open = async (s: Session) => {
      const t = new TerminalClient(s, tab.id);
      t.trackScreen = false;
      await t.opened;
      return t;
    };
    const all: TerminalClient[] = [];
    const openMany = async (s: Session, n: number) => {
      const opened: TerminalClient[] = [];
      for (let i = 0; i < n; i++) opened.push(await open(s));
      all.push(...opened);
      return opened;
    };
    // B's first terminal is the oldest of all; A holds the most (8, its own cap).
    const [bOldest] = await openMany(b as Session, 1);
    const [aOldest] = await openMany(a, 8);
    await openMany(b as Session, 6);
    await openMany(c as Session, 7);
    await openMany(d as Session, 7);
    await openMany(e as Session, 3);
    expect(all).toHaveLength(32);
    expect(all.every((t) => t.ws.readyState === t.ws.OPEN)).toBe(true);

    let dropped: CloseInfo | undefined;
    void (aOldest as TerminalClient).closed.then((info) => {
      dropped = info;
    });
    const newest = await open(e as Session);
    await eventually(() => dropped, 10_000, "device A's oldest terminal dropped");
    expect(dropped?.code).toBe(CloseCode.ConnectionLimit);
    expect(dropped?.reason).toMatch(/32 terminals at most/);
    expect(all.filter((t) => t !== aOldest).every((t) => t.ws.readyState === t.ws.OPEN)).toBe(true);
    expect(bOldest?.ws.readyState).toBe(bOldest?.ws.OPEN);
    newest.type('echo newest-$((1+1))\r');
    await newest.waitFor('newest-2');
    for (const t of [...all, newest]) t.close();
  });
});

describe('live JSON channels per device', () => {
  it('a device past 32 status, sync and timeline sockets loses its own oldest; another device keeps its own', async () => {
    const agent = await startAgent();
    const a = await claim(agent, 'device A');
    const b = await pairAnother(agent, a, 'device B');
    const bSocket = new RawChannel(b, '/api/status');
    await bSocket.opened;
    const paths = ['/api/status', '/api/sync'];
    const aSockets: RawChannel[] = [];
    for (let i = 0; i < 33; i++) {
      const c = new RawChannel(a, paths[i % 2] as string);
      await c.opened;
      aSockets.push(c);
    }
    const dropped = await (aSockets[0] as RawChannel).closed;
    expect(dropped.code).toBe(CloseCode.ConnectionLimit);
    expect(dropped.reason).toMatch(/this device/);
    for (const c of aSockets.slice(1)) expect(c.ws.readyState).toBe(c.ws.OPEN);
    expect(bSocket.ws.readyState).toBe(bSocket.ws.OPEN);
    for (const c of [bSocket, ...aSockets]) c.ws.close();
  });

  it('opens no timeline for an outside session the agent does not know', async () => {
    const agent = await startAgent();
    const a = await claim(agent);
    const made = new RawChannel(a, '/api/timeline?tab=outside-made-up-1234');
    expect((await made.closed).code).toBe(CloseCode.TabNotFound);
  });
});

describe('workspaces and tabs', () => {
  it('refuses the workspace and the tab past the cap with 409, and hand-made sessions wait for room', async () => {
    const agent = await startAgent({ env: { POCKETMUX_MAX_WORKSPACES: '2', POCKETMUX_MAX_TABS: '2', POCKETMUX_SAFETY_POLL_MS: '100' } });
    const s = await claim(agent);
    const dir = join(agent.home, 'second');
    mkdirSync(dir);

    // "Home" is the first workspace.
    expect((await api(s, 'POST', '/api/workspaces', { dir })).status).toBe(201);
    const refused = await api<{ error: string }>(s, 'POST', '/api/workspaces', { dir: agent.home });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/at most 2 workspaces/);
    expect((await api<WorkspacesResponse>(s, 'GET', '/api/workspaces')).body.workspaces).toHaveLength(2);

    const workspaceId = await firstWorkspaceId(s);
    const first = await createTab(s, workspaceId);
    await createTab(s, workspaceId);
    const sessionsBefore = await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}');
    const tooMany = await api<{ error: string }>(s, 'POST', '/api/tabs', { workspaceId });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toMatch(/at most 2 tabs/);
    expect(await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}')).toBe(sessionsBefore);

    // The CLI goes through the same REST route: a refusal, exit 1, the message on stderr.
    const cli = await runCli(['tab', 'new', agent.home, '--data-dir', agent.dataDir], agentEnv(agent));
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/at most 2 tabs/);

    // A session made by hand is not adopted past the cap, and that is said once.
    await tmux(agent.tmuxSocket, 'new-session', '-d', '-s', 'handmade');
    await eventually(() => logText(agent).includes('not adopting'), 10_000, 'the cap warning in the log');
    expect((await api<{ tabs: TabView[] }>(s, 'GET', '/api/tabs')).body.tabs.map((t) => t.name)).not.toContain('handmade');

    // Room again: the next poll adopts it.
    expect((await api(s, 'DELETE', `/api/tabs/${first.id}`)).status).toBe(204);
    await eventually(
      async () => (await api<{ tabs: TabView[] }>(s, 'GET', '/api/tabs')).body.tabs.some((t) => t.name === 'handmade'),
      10_000,
      'the hand-made session adopted',
    );
    expect(logText(agent).match(/not adopting/g)).toHaveLength(1);
  });
});

describe('Claude sessions from outside the agent', () => {
  it('remembers at most 200; the one with the oldest activity is forgotten and clients are told', async () => {
    const agent = await startAgent();
    const s = await claim(agent);
    const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
    const hook = async (sessionId: string) => {
      const res = await fetch(new URL('/hooks/SessionStart', agent.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pocketmux-token': token },
        body: JSON.stringify({ ...sessionStart, session_id: sessionId }),
      });
      expect(res.status).toBe(204);
    };
    for (let i = 0; i < 200; i++) await hook(`outside-${i}`);
    // outside-0 is active again, so outside-1 now has the oldest activity.
    await hook('outside-0');
    const client = new StatusClient(s);
    await client.opened;
    await hook('outside-200');

    const tabs = (await api<{ tabs: Record<string, TabStatus> }>(s, 'GET', '/api/status')).body.tabs;
    const outside = Object.keys(tabs).filter((k) => k.startsWith('outside-'));
    expect(outside).toHaveLength(200);
    expect(outside).toContain('outside-outside-0');
    expect(outside).toContain('outside-outside-200');
    expect(outside).not.toContain('outside-outside-1');
    await eventually(
      () => client.messages.some((m) => m.type === 'status:removed' && m.tabId === 'outside-outside-1'),
      5_000,
      'the removal told to clients',
    );
    client.ws.close();
  });
});
