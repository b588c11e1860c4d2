/**
 * The agent SIGKILLed, with no chance to flush anything: while its tabs are busy, while an
 * approval is held open, and in the middle of writing a state file (the kill injected at the
 * file-system call by the `fs-fault.mjs` preload, halfway through the bytes). Restarted on the
 * same data dir, it must have every tab, name, status, device and push subscription it had
 * written, no approval it had settled offered again, and every file in the data dir whole.
 * Claude tabs run a stand-in claude; their hooks go through the agent's installed hook script.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspacesResponse, WorkspaceView } from '../../protocol/api.js';
import type { Approval, ApprovalResolution } from '../../protocol/approvals.js';
import type { PushState } from '../../protocol/push.js';
import type { TabStatus } from '../../protocol/status.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, pairAnother, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { checkDataDir, faultSwitch, onDisk, readDataFile, standInClaudeBin } from '../support/faults.js';
import { type HookRun, type OutsideFixture, outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { PushEndpoint } from '../support/push-endpoint.js';
import { paneEnv } from '../support/status.js';

const env = newTestEnvironment();
const faults = faultSwitch(env.root);
let claudeBin: string;
let project: OutsideFixture;
let endpoint: PushEndpoint;
let agent: AgentHandle;
let phone: Session;
let laptop: Session;
let workspace: WorkspaceView;
let busyShell: TabView;
let namedShell: TabView;
let claudeTab: TabView;
/** Hook scripts held open on an approval; any still running at the end is stopped. */
const held: ChildProcess[] = [];

type StatusFile = { tabs: Record<string, TabStatus> };
type WorkspacesFile = { workspaces: { id: string; name: string }[]; tabs: { id: string; name: string | null }[] };
type DevicesFile = { devices: { id: string; name: string }[] };
type PushFile = { devices: Record<string, { subscription: unknown }> };

async function start(): Promise<void> {
  agent = await startAgent({ reuse: env, args: ['--claude-bin', claudeBin], env: { POCKETMUX_PUSH_INSECURE_LOOPBACK: '1', ...faults.env } });
  // The devices' cookies are the ones paired before: kept devices need no new pairing.
  for (const s of [phone, laptop]) if (s) s.agent = agent;
}

async function killAndRestart(): Promise<void> {
  await agent.stop('SIGKILL');
  await start();
}

function hook(event: string, fields: Record<string, unknown> = {}, started?: (child: ChildProcess) => void): Promise<HookRun> {
  return paneEnv(agent, claudeTab).then((pane) => runHookScript(agent.dataDir, event, outsidePayload(project, event, fields), pane, started));
}

/** What a person would see of the agent's state: workspaces and tabs with names, devices, push, statuses. */
async function seen() {
  const ws = await api<WorkspacesResponse>(phone, 'GET', '/api/workspaces');
  const devices = await api<{ devices: { id: string; name: string }[] }>(phone, 'GET', '/api/devices');
  const push = await api<PushState>(phone, 'GET', '/api/push');
  const status = await api<{ tabs: Record<string, TabStatus> }>(phone, 'GET', '/api/status');
  return {
    workspaces: ws.body.workspaces.map((w) => ({ id: w.id, name: w.name, tabs: w.tabs.map((t) => ({ id: t.id, name: t.name, kind: t.kind, alive: t.alive })) })),
    devices: devices.body.devices.map((d) => ({ id: d.id, name: d.name })).sort((a, b) => a.id.localeCompare(b.id)),
    subscribed: push.body.subscribed,
    status: Object.fromEntries(Object.entries(status.body.tabs).map(([id, s]) => [id, { state: s.state, sessionId: s.sessionId, transcriptPath: s.transcriptPath }])),
  };
}

function expectWholeDataDir(): void {
  expect(checkDataDir(agent.dataDir, agent.pid)).toEqual({ unparsable: [], corrupt: [], temp: [] });
}

async function openApprovals(): Promise<Approval[]> {
  return (await api<{ approvals: Approval[] }>(phone, 'GET', '/api/approvals')).body.approvals;
}

beforeAll(async () => {
  project = outsideFixture(env.home, 'shop');
  claudeBin = standInClaudeBin(env.root);
  endpoint = await PushEndpoint.start();
  await start();
  phone = await claim(agent, 'Pixel 8');
  laptop = await pairAnother(agent, phone, 'Laptop');
  endpoint.agentKey = (await api<{ publicKey: string }>(phone, 'GET', '/api/push/key')).body.publicKey;
  expect((await api(phone, 'POST', '/api/push/subscription', endpoint.subscribe().json)).status).toBe(201);
  workspace = (await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project.cwd, name: 'shop' })).body;
  busyShell = await createTab(phone, workspace.id);
  namedShell = await createTab(phone, workspace.id);
  expect((await api(phone, 'PATCH', `/api/tabs/${namedShell.id}`, { name: 'server' })).status).toBe(200);
  claudeTab = (await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: workspace.id, kind: 'claude' })).body;
  expect(claudeTab.kind).toBe('claude');
}, 60_000);

afterAll(async () => {
  for (const child of held) if (child.exitCode === null && child.signalCode === null) child.kill();
  await cleanupAgents();
  await endpoint?.close();
});

describe('the agent killed with SIGKILL', () => {
  it('while its tabs are busy: restarted, it has every tab, name, status, device and subscription, and the tabs kept running', async () => {
    // A shell printing without pause, and Claude in the middle of a turn.
    expect((await api(phone, 'POST', `/api/tabs/${busyShell.id}/input`, { text: 'while :; do echo "tick $RANDOM"; sleep 0.02; done' })).status).toBe(204);
    expect(await hook('SessionStart')).toMatchObject({ code: 0, stderr: '' });
    expect(await hook('UserPromptSubmit')).toMatchObject({ code: 0, stderr: '' });
    // What the agent has written by now, not merely holds.
    await onDisk<StatusFile>(agent, 'status.json', (f) => f.tabs[claudeTab.id]?.state === 'busy', 'the Claude tab busy');
    await onDisk<WorkspacesFile>(agent, 'workspaces.json', (f) => f.tabs.find((t) => t.id === namedShell.id)?.name === 'server', 'the named tab');
    await onDisk<DevicesFile>(agent, 'devices.json', (f) => f.devices.length === 2, 'two devices');
    await onDisk<PushFile>(agent, 'push.json', (f) => Object.values(f.devices).some((d) => d.subscription !== null), 'a subscription');
    const before = await seen();
    expect(before.status[claudeTab.id]?.state).toBe('busy');
    expect(before.workspaces.flatMap((w) => w.tabs)).toHaveLength(3);

    await killAndRestart();
    // The old cookie still works: the device was kept.
    expect(await seen()).toEqual(before);
    expectWholeDataDir();
    // The loop went on in tmux while no agent ran, and the restarted agent serves its pane.
    const ticks = async () => (await tmux(agent.tmuxSocket, 'capture-pane', '-p', '-t', `=pm_${workspace.id}_${busyShell.id}:`)).match(/tick \d+/g)?.join() ?? '';
    const first = await ticks();
    await eventually(async () => (await ticks()) !== first, 10_000, 'the loop to print on');
    await tmux(agent.tmuxSocket, 'send-keys', '-t', `=pm_${workspace.id}_${busyShell.id}:`, 'C-c');
  });

  it('while an approval is open: the settled one is not offered again, the held hook lets Claude go on, the state it wrote is kept', async () => {
    // One approval settled from the phone...
    const first = hook('PermissionRequest', { tool_input: { command: 'npm test', description: 'Run the tests' } }, (c) => held.push(c));
    const settled = await eventually(async () => (await openApprovals()).find((a) => a.tabId === claudeTab.id), 10_000, 'the first approval');
    const decided = await api<{ resolution: ApprovalResolution }>(phone, 'POST', `/api/approvals/${settled.id}`, { decision: 'allow' });
    expect(decided.body.resolution).toMatchObject({ outcome: 'approved', by: { kind: 'device', name: 'Pixel 8' } });
    expect((await first).stdout).toContain('"behavior":"allow"');
    expect(await hook('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'npm test' } })).toMatchObject({ code: 0 });
    // ...and one left open: Claude waits on it.
    const pending = hook('PermissionRequest', { tool_input: { command: 'npm run deploy', description: 'Deploy' } }, (c) => held.push(c));
    const open = await eventually(async () => (await openApprovals()).find((a) => a.tabId === claudeTab.id && a.id !== settled.id), 10_000, 'the open approval');
    expect(open.summary.title).toContain('npm run deploy');
    // Waiting on disk since the first request too: the file must show this one, as of its hook.
    const live = (await api<{ tabs: Record<string, TabStatus> }>(phone, 'GET', '/api/status')).body.tabs[claudeTab.id];
    expect(live?.state).toBe('needs-input');
    await onDisk<StatusFile>(agent, 'status.json', (f) => f.tabs[claudeTab.id]?.state === 'needs-input' && (f.tabs[claudeTab.id]?.seq ?? -1) >= (live?.seq ?? Number.POSITIVE_INFINITY), 'the Claude tab waiting on the second request');
    const before = await seen();

    await agent.stop('SIGKILL');
    // The held hook ends at once, answering nothing: Claude's own dialog takes over.
    const run = await pending;
    expect(run).toMatchObject({ code: 0, stdout: '' });
    await start();
    expect(await seen()).toEqual(before);
    // The settled approval stays settled; the one nobody answered died with its hook.
    expect((await openApprovals()).map((a) => a.id)).not.toContain(settled.id);
    expectWholeDataDir();
    // The tab goes on: the next request is offered and answered as before.
    const next = hook('PermissionRequest', { tool_input: { command: 'npm run deploy', description: 'Deploy' } }, (c) => held.push(c));
    const again = await eventually(async () => (await openApprovals()).find((a) => a.tabId === claudeTab.id && a.summary.title.includes('deploy')), 10_000, 'the request again');
    expect((await api(phone, 'POST', `/api/approvals/${again.id}`, { decision: 'deny', message: 'not today' })).status).toBe(200);
    expect((await next).stdout).toContain('"behavior":"deny"');
    expect(await hook('Stop', { last_assistant_message: 'Not deployed.' })).toMatchObject({ code: 0 });
    await onDisk<StatusFile>(agent, 'status.json', (f) => f.tabs[claudeTab.id]?.state === 'ready-for-review', 'the turn ended');
  });

  describe('in the middle of a state-file write', () => {
    /**
     * Arms a kill at the next write of `file`, runs `change`, and waits for the agent to die
     * there; restarted, `file` holds what it held before and the rest is untouched.
     */
    async function killedWriting(file: string, change: () => Promise<unknown>): Promise<void> {
      const before = await seen();
      const onDiskBefore = readDataFile(agent, file);
      faults.arm(file, 'kill');
      const exited = new Promise((resolve) => agent.process.once('exit', resolve));
      void change().catch(() => undefined);
      await exited;
      expect(faults.fired()).toBe(true);
      // The half-written temp copy is there, the file itself untouched.
      expect(checkDataDir(agent.dataDir).temp).toHaveLength(1);
      expect(readDataFile(agent, file)).toEqual(onDiskBefore);
      faults.disarm();
      await start();
      // Read before any request: a device's first request of the minute writes its lastSeenAt.
      expect(readDataFile(agent, file)).toEqual(onDiskBefore);
      expect(await seen()).toEqual(before);
      // Left by a process that is gone: removed at start.
      expectWholeDataDir();
    }

    it('of the workspaces file (a tab renamed): the old name and every tab are kept, and renaming works after', async () => {
      await killedWriting('workspaces.json', () => api(phone, 'PATCH', `/api/tabs/${namedShell.id}`, { name: 'never saved' }));
      expect((await api<TabView>(phone, 'PATCH', `/api/tabs/${namedShell.id}`, { name: 'api' })).body.name).toBe('api');
      await onDisk<WorkspacesFile>(agent, 'workspaces.json', (f) => f.tabs.find((t) => t.id === namedShell.id)?.name === 'api', 'the new name');
    });

    it('of the devices file (a device paired): the paired devices are kept, and pairing works after', async () => {
      await killedWriting('devices.json', () => pairAnother(agent, phone, 'Tablet'));
      await pairAnother(agent, phone, 'Tablet');
      await onDisk<DevicesFile>(agent, 'devices.json', (f) => f.devices.some((d) => d.name === 'Tablet'), 'the tablet');
    });

    it('of the push file (the laptop subscribing): the phone keeps its subscription', async () => {
      await killedWriting('push.json', () => api(laptop, 'POST', '/api/push/subscription', endpoint.subscribe().json));
      expect((await api<PushState>(laptop, 'GET', '/api/push')).body.subscribed).toBe(false);
      expect((await api(laptop, 'POST', '/api/push/subscription', endpoint.subscribe().json)).status).toBe(201);
    });

    it('of the status file (written off the event loop, a new prompt): the last status written is kept', async () => {
      await killedWriting('status.json', () => hook('UserPromptSubmit'));
      expect(await hook('UserPromptSubmit')).toMatchObject({ code: 0 });
      await onDisk<StatusFile>(agent, 'status.json', (f) => f.tabs[claudeTab.id]?.state === 'busy', 'the new prompt');
    });
  });
});
