/**
 * The agent's tmux server killed from outside (`tmux -L <socket> kill-server`), with a
 * terminal open, a Claude tab reporting and the PWA's channels connected: the agent notices,
 * lets the tabs go, keeps answering on REST and every channel, and new tabs (a shell and a
 * Claude tab) start a fresh tmux server and work.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspacesResponse, WorkspaceView } from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import { cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { RawChannel } from '../support/channels.js';
import { api, claim, createTab, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { standInClaudeBin } from '../support/faults.js';
import { outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { paneEnv, StatusClient } from '../support/status.js';

afterAll(cleanupAgents);

describe('the tmux server killed from outside', () => {
  it('is noticed: the tabs go, the agent keeps serving, and new tabs work', async () => {
    const env = newTestEnvironment();
    const project = outsideFixture(env.home, 'shop');
    const agent = await startAgent({ reuse: env, args: ['--claude-bin', standInClaudeBin(env.root)] });
    const phone = await claim(agent);
    const ws = (await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project.cwd, name: 'shop' })).body;
    const shell = await createTab(phone, ws.id);
    const claudeTab = (await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: ws.id, kind: 'claude' })).body;
    const run = await runHookScript(agent.dataDir, 'SessionStart', outsidePayload(project, 'SessionStart'), await paneEnv(agent, claudeTab));
    expect(run.code).toBe(0);
    const sync = new RawChannel(phone, '/api/sync');
    const status = new StatusClient(phone);
    await Promise.all([sync.opened, status.opened]);
    await status.waitState(claudeTab.id, 'idle', (s) => s.claudeRunning);
    const term = new TerminalClient(phone, shell.id);
    await term.opened;
    term.type('echo before-$((6*7))\r');
    await term.waitFor('before-42');

    await tmux(agent.tmuxSocket, 'kill-server');

    // Noticed: the terminal ends, the tabs are gone from the list and from the sync channel,
    // and the Claude tab's status with them.
    const closed = await term.closed;
    expect(closed.code).toBeGreaterThanOrEqual(1000);
    const tabsListed = async () => (await api<WorkspacesResponse>(phone, 'GET', '/api/workspaces')).body.workspaces.flatMap((w) => w.tabs.map((t) => t.id));
    await eventually(async () => (await tabsListed()).length === 0, 20_000, 'the tabs to go');
    await eventually(() => {
      const last = sync.of<{ workspaces: { tabs: unknown[] }[] }>('sync:snapshot').at(-1);
      return last?.workspaces.every((w) => w.tabs.length === 0);
    }, 20_000, 'a snapshot without tabs');
    await eventually(async () => (await api<{ tabs: Record<string, TabStatus> }>(phone, 'GET', '/api/status')).body.tabs[claudeTab.id] === undefined, 20_000, 'the Claude tab status to go');
    expect(agent.stderr()).toMatch(new RegExp(`tab ended.*${shell.id}`));

    // Still serving: the process, REST, the channels already open and new ones.
    expect(agent.process.exitCode).toBeNull();
    expect((await api<WorkspacesResponse>(phone, 'GET', '/api/workspaces')).body.workspaces.map((w) => w.id)).toContain(ws.id);
    sync.ws.send(JSON.stringify({ type: 'sync:request' }));
    const snapshots = sync.of('sync:snapshot').length;
    await eventually(() => sync.of('sync:snapshot').length > snapshots, 10_000, 'an answer on the open sync channel');
    const status2 = new StatusClient(phone);
    await status2.opened;
    await eventually(() => status2.messages.some((m) => m.type === 'status:sync'), 10_000, 'a new status channel');

    // New tabs start a new tmux server and work.
    const fresh = await createTab(phone, ws.id);
    const term2 = new TerminalClient(phone, fresh.id);
    await term2.opened;
    term2.type('echo after-$((6*7))\r');
    await term2.waitFor('after-42');
    const claude2 = (await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: ws.id, kind: 'claude' })).body;
    const again = await runHookScript(agent.dataDir, 'SessionStart', outsidePayload(project, 'SessionStart'), await paneEnv(agent, claude2));
    expect(again.code).toBe(0);
    await status.waitState(claude2.id, 'idle', (s) => s.claudeRunning);
    expect(await tabsListed()).toEqual([fresh.id, claude2.id]);

    for (const c of [term2]) c.close();
    for (const c of [sync.ws, status.ws, status2.ws]) c.close();
  });
});
