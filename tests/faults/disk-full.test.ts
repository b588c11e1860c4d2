/**
 * The disk of the data dir full: ENOSPC injected at the write of one state file (by the
 * `fs-fault.mjs` preload, in the agent's own process). The request that needed the write gets
 * a clear error and changes nothing, the agent logs why, keeps serving everything else, and
 * the last state it saved is what a restart finds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspacesResponse, WorkspaceView } from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, type Session, newDeviceKey } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { checkDataDir, faultSwitch, onDisk, readDataFile, standInClaudeBin } from '../support/faults.js';
import { type OutsideFixture, outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { paneEnv, StatusClient } from '../support/status.js';

const env = newTestEnvironment();
const faults = faultSwitch(env.root);
let claudeBin: string;
let project: OutsideFixture;
let agent: AgentHandle;
let phone: Session;
let workspace: WorkspaceView;
let shell: TabView;
let claudeTab: TabView;

const NOT_SAVED = { error: 'not saved: no space left on the disk of the data dir' };

async function start(): Promise<void> {
  agent = await startAgent({ reuse: env, args: ['--claude-bin', claudeBin], env: faults.env });
  if (phone) phone.agent = agent;
}

async function tabsOf(session: Session): Promise<{ id: string; name: string | null }[]> {
  const res = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces');
  return res.body.workspaces.flatMap((w) => w.tabs.map((t) => ({ id: t.id, name: t.name })));
}

async function hook(event: string): Promise<void> {
  const run = await runHookScript(agent.dataDir, event, outsidePayload(project, event), await paneEnv(agent, claudeTab));
  expect(run).toMatchObject({ code: 0, stderr: '' });
}

beforeAll(async () => {
  project = outsideFixture(env.home, 'shop');
  claudeBin = standInClaudeBin(env.root);
  await start();
  phone = await claim(agent, 'Pixel 8');
  workspace = (await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project.cwd, name: 'shop' })).body;
  shell = await createTab(phone, workspace.id);
  claudeTab = (await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: workspace.id, kind: 'claude' })).body;
}, 60_000);

afterAll(async () => {
  faults.disarm();
  await cleanupAgents();
});

describe('the disk of the data dir full', () => {
  it('for the workspaces file: a new tab and a rename are refused with a clear error, nothing half-made, the last good state survives a restart', async () => {
    const tabsBefore = await tabsOf(phone);
    const sessionsBefore = (await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}')).split('\n').filter(Boolean).sort();
    faults.arm('workspaces.json', 'enospc');

    const created = await api(phone, 'POST', '/api/tabs', { workspaceId: workspace.id });
    expect(created).toEqual({ status: 507, body: NOT_SAVED });
    const renamed = await api(phone, 'PATCH', `/api/tabs/${shell.id}`, { name: 'never saved' });
    expect(renamed).toEqual({ status: 507, body: NOT_SAVED });
    const added = await api(phone, 'POST', '/api/workspaces', { dir: env.home, name: 'more' });
    expect(added).toEqual({ status: 507, body: NOT_SAVED });
    expect(agent.stderr()).toMatch(/could not save a change: no space left on the disk of the data dir.*ENOSPC: no space left on device/);
    // What the agent serves is what it saved: no phantom tab, no new name, and the session it
    // started for the refused tab is gone again.
    expect(await tabsOf(phone)).toEqual(tabsBefore);
    expect((await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}')).split('\n').filter(Boolean).sort()).toEqual(sessionsBefore);
    // Everything that needs no write goes on: the tabs' terminals, input, the status.
    expect((await api(phone, 'POST', `/api/tabs/${shell.id}/input`, { text: 'echo still-here' })).status).toBe(204);
    expect((await api(phone, 'GET', '/api/status')).status).toBe(200);

    // Killed while the disk is still full: the restart reads the last good file (and writes none).
    await agent.stop('SIGKILL');
    await start();
    expect(await tabsOf(phone)).toEqual(tabsBefore);
    faults.disarm();
    expect((await api(phone, 'PATCH', `/api/tabs/${shell.id}`, { name: 'server' })).status).toBe(200);
    expect((await createTab(phone, workspace.id)).workspaceId).toBe(workspace.id);
    expect(checkDataDir(agent.dataDir)).toEqual({ unparsable: [], corrupt: [], temp: [] });
  });

  it('for the devices file: pairing is refused with a clear error and its code kept, and a paired device still connects (its last-seen time waits)', async () => {
    // A fresh start: each device's first request writes its last-seen time.
    await agent.stop('SIGTERM');
    faults.arm('devices.json', 'enospc');
    await start();
    const devicesBefore = readDataFile<{ devices: { id: string }[] }>(agent, 'devices.json').devices.map((d) => d.id);
    // A WebSocket first: the write of its last-seen time fails inside the upgrade.
    const status = new StatusClient(phone);
    await status.opened;
    await eventually(() => status.messages.some((m) => m.type === 'status:sync'), 10_000, 'the status sync');
    expect(agent.stderr()).toMatch(/could not write the devices file.*ENOSPC/);
    expect((await api(phone, 'GET', '/api/workspaces')).status).toBe(200);

    const pairing = await api<{ code: string }>(phone, 'POST', '/api/pairings');
    expect(pairing.status).toBe(201);
    const paired = await fetch(new URL('/api/pair', agent.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: pairing.body.code, deviceName: 'Tablet', publicKey: newDeviceKey().publicKey }) });
    expect({ status: paired.status, body: await paired.json(), cookie: paired.headers.get('set-cookie') }).toEqual({ status: 507, body: NOT_SAVED, cookie: null });
    // No device the file does not hold.
    const listed = await api<{ devices: { id: string }[] }>(phone, 'GET', '/api/devices');
    expect(listed.body.devices.map((d) => d.id)).toEqual(devicesBefore);
    status.ws.close();

    faults.disarm();
    // The refused pairing was not spent: the same code pairs the tablet once the disk has room.
    const again = await fetch(new URL('/api/pair', agent.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: pairing.body.code, deviceName: 'Tablet', publicKey: newDeviceKey().publicKey }) });
    expect(again.status).toBe(201);
    expect(again.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    await onDisk<{ devices: { name: string }[] }>(agent, 'devices.json', (f) => f.devices.some((d) => d.name === 'Tablet'), 'the tablet');
  });

  it('for the status file (written in the background): the hook is answered, the failure logged, and a restart finds the last status written', async () => {
    await hook('SessionStart');
    await onDisk<{ tabs: Record<string, TabStatus> }>(agent, 'status.json', (f) => f.tabs[claudeTab.id]?.state === 'idle', 'the Claude tab idle');
    faults.arm('status.json', 'enospc');
    await hook('UserPromptSubmit');
    // Clients are told at once; only the file is behind.
    await eventually(async () => (await api<{ tabs: Record<string, TabStatus> }>(phone, 'GET', '/api/status')).body.tabs[claudeTab.id]?.state === 'busy', 10_000, 'busy');
    await eventually(() => /could not write the status file.*ENOSPC/.test(agent.stderr()), 10_000, 'the failed write logged');
    expect(readDataFile<{ tabs: Record<string, TabStatus> }>(agent, 'status.json').tabs[claudeTab.id]?.state).toBe('idle');

    await agent.stop('SIGKILL');
    faults.disarm();
    await start();
    expect(checkDataDir(agent.dataDir)).toEqual({ unparsable: [], corrupt: [], temp: [] });
    // The last status written, as the restart recovers it: Claude's session is known.
    const after = (await api<{ tabs: Record<string, TabStatus> }>(phone, 'GET', '/api/status')).body.tabs[claudeTab.id];
    expect(after?.sessionId).toBe(project.sessionId);
    await hook('UserPromptSubmit');
    await onDisk<{ tabs: Record<string, TabStatus> }>(agent, 'status.json', (f) => f.tabs[claudeTab.id]?.state === 'busy', 'the prompt saved');
  });
});
