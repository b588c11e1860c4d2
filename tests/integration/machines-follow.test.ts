/**
 * One inbox over several machines, with three real agents on this machine (own ports, data
 * dirs, tmux servers): the home agent, the only one the phone is paired with; a second on
 * loopback; a third serving HTTPS with a certificate of its own, running the real Claude Code
 * CLI against the stand-in API. The phone sees every machine's workspaces and approvals on the
 * home agent's channels, under keys that name their machine, and what it does to them goes to
 * the machine that owns them, once. Push goes from the home agent for every machine (one
 * subscription on the phone, at a push endpoint of the tests' own), once across restarts of
 * either side.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { MachineClient } from '../../agent/machines/machine-client.js';
import type { MachineRecord } from '../../agent/machines/machine-store.js';
import type { TabView, UploadResponse, WorkspaceView } from '../../protocol/api.js';
import type { ChangesView } from '../../protocol/changes.js';
import { UPLOAD_FILENAME_HEADER } from '../../protocol/limits.js';
import type { PushPayload } from '../../protocol/push.js';
import type { Approval, ApprovalResolution } from '../../protocol/approvals.js';
import { splitMachineKey } from '../../protocol/machine-key.js';
import type { MachineLinkResponse } from '../../protocol/machines.js';
import type { SyncSnapshot } from '../../protocol/sync.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, testCertificate } from '../support/agent.js';
import { CLAUDE_BIN, prepareClaudeEnv } from '../support/claude-env.js';
import { api, claim, deviceHeaders, deviceSocket, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { bash, FakeAnthropic } from '../support/fake-anthropic.js';
import { PushEndpoint } from '../support/push-endpoint.js';
import { StatusClient } from '../support/status.js';

type Show = Extract<PushPayload, { kind: 'show' }>;

let fake: FakeAnthropic;
let home: AgentHandle;
let second: AgentHandle;
let third: AgentHandle;
let phone: Session;
let status: StatusClient;
let sync: WebSocket;
let latest: SyncSnapshot | null = null;
let project: string;
let thirdTab: TabView;
let endpoint: PushEndpoint;
let phoneSub: string;
const secondEnv = newTestEnvironment();
const homeEnv = newTestEnvironment();
const thirdEnv = newTestEnvironment();
/** The home agent as every start of it in this file is made: machines retried every half second, pushes to the loopback endpoint. */
const HOME_ENV = { POCKETMUX_MACHINE_BACKOFF_MAX_MS: '500', POCKETMUX_PUSH_INSECURE_LOOPBACK: '1' };
let startThird: (port?: number) => Promise<AgentHandle>;
const ids: Record<'second' | 'third', string> = { second: '', third: '' };

async function link(agent: AgentHandle, name: string): Promise<string> {
  const made = await runCli(['machines', 'link-code', '--json', '--data-dir', agent.dataDir], agentEnv(agent), 30_000);
  const { code } = JSON.parse(made.stdout) as MachineLinkResponse;
  const added = await runCli(['machines', 'add', code, '--name', name, '--json', '--data-dir', home.dataDir], agentEnv(home), 30_000);
  if (added.code !== 0) throw new Error(`machines add: ${added.stderr}`);
  return (JSON.parse(added.stdout) as { id: string }).id;
}

async function newTab(agent: AgentHandle, ...args: string[]): Promise<TabView> {
  const made = await runCli(['tab', 'new', ...args, '--json', '--data-dir', agent.dataDir], agentEnv(agent), 30_000);
  if (made.code !== 0) throw new Error(`tab new: ${made.stderr}`);
  return JSON.parse(made.stdout) as TabView;
}

/** What the phone was shown (not closed) at its one subscription, in order. */
function shows(): Show[] {
  return endpoint.of(phoneSub).filter((p): p is Show => p.kind === 'show');
}

function snapshot(): SyncSnapshot {
  if (!latest) throw new Error('no sync snapshot yet');
  return latest;
}

beforeAll(async () => {
  fake = await FakeAnthropic.start();
  endpoint = await PushEndpoint.start();
  mkdirSync(join(thirdEnv.home, 'project'), { recursive: true });
  project = realpathSync(join(thirdEnv.home, 'project'));
  const claude = prepareClaudeEnv({ baseUrl: fake.url, home: thirdEnv.home, projectDirs: [project] });
  const cert = testCertificate(thirdEnv.root, 30);
  startThird = (port) =>
    startAgent({ reuse: thirdEnv, args: ['--claude-bin', CLAUDE_BIN, '--tls-cert', cert.cert, '--tls-key', cert.key, ...(port ? ['--port', String(port)] : [])], env: claude.env });
  [home, second, third] = await Promise.all([startAgent({ reuse: homeEnv, env: HOME_ENV }), startAgent({ reuse: secondEnv }), startThird()]);
  // The third runs a Claude tab, the second a shell: each made there by its own CLI.
  thirdTab = await newTab(third, '--claude', '--permission-mode', 'default', project);
  await newTab(second, second.home);

  ids.second = await link(second, 'Laptop');
  ids.third = await link(third, 'Build box');
  phone = await claim(home, 'Pixel 8');
  endpoint.agentKey = (await api<{ publicKey: string }>(phone, 'GET', '/api/push/key')).body.publicKey;
  const subscription = endpoint.subscribe();
  phoneSub = subscription.id;
  expect((await api(phone, 'POST', '/api/push/subscription', subscription.json)).status).toBe(201);
  status = new StatusClient(phone);
  await status.opened;
  sync = deviceSocket(phone, '/api/sync');
  sync.on('message', (data) => {
    latest = JSON.parse(String(data)) as SyncSnapshot;
  });
}, 120_000);

afterAll(async () => {
  status?.ws.close();
  sync?.close();
  await cleanupAgents();
  await fake?.close();
  await endpoint?.close();
});

describe('one inbox over several machines', () => {
  it('lists every machine’s workspaces and sessions under keys naming the machine, and the machines themselves', async () => {
    await eventually(() => snapshot().machines.every((m) => m.reach === 'ok') && snapshot().machines.length === 2, 20_000, 'both machines followed');
    expect(snapshot().machines.map((m) => m.name).sort()).toEqual(['Build box', 'Laptop']);
    const shop = await eventually(() => snapshot().workspaces.find((w) => w.name === 'project'), 20_000, 'the third machine’s workspace');
    expect(shop.machine).toBe(ids.third);
    expect(shop.id).toBe(`${ids.third}~${splitMachineKey(shop.id)?.key}`);
    expect(shop.tabs.map((t) => t.id)).toEqual([`${ids.third}~${thirdTab.id}`]);
    expect(snapshot().workspaces.filter((w) => w.machine === ids.second).map((w) => w.tabs.length)).toEqual([1]);
    // The home agent's own workspaces carry no machine.
    expect(snapshot().workspaces.filter((w) => w.machine === undefined).map((w) => [w.name, w.id.includes('~')])).toEqual([['Home', false]]);
    // The Claude on the third machine, as the home agent's status channel shows it.
    await status.waitState(`${ids.third}~${thirdTab.id}`, 'idle', (s) => s.claudeRunning, 60_000);
  }, 90_000);

  it('a new tab in a linked machine’s workspace is made there, and comes back under the home agent’s keys', async () => {
    const shop = snapshot().workspaces.find((w) => w.machine === ids.third && w.name === 'project');
    if (!shop) throw new Error('no workspace on the third machine');
    const made = await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: shop.id, kind: 'shell', name: 'from the phone' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ workspaceId: shop.id, name: 'from the phone' });
    expect(splitMachineKey(made.body.id)?.machineId).toBe(ids.third);
    // It is the third machine's own tab, and the union lists it there.
    const there = await runCli(['tabs', '--json', '--data-dir', third.dataDir], agentEnv(third), 30_000);
    expect((JSON.parse(there.stdout) as { id: string }[]).map((t) => t.id)).toContain(splitMachineKey(made.body.id)?.key);
    await eventually(() => snapshot().workspaces.find((w) => w.id === shop.id)?.tabs.some((t) => t.id === made.body.id), 10_000, 'the new tab in the union');
    // A body that names no linked machine's workspace still reaches the home agent's own route.
    const refused = await api<{ error: string }>(phone, 'POST', '/api/tabs', { workspaceId: 'ws-nope', kind: 'shell' });
    expect(refused.status).toBe(404);
    // What the machine answers names the tab and its workspace as the home agent's lists do.
    const renamed = await api<TabView>(phone, 'PATCH', `/api/tabs/${encodeURIComponent(made.body.id)}`, { name: 'renamed there' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: made.body.id, workspaceId: shop.id, name: 'renamed there' });
    const workspace = await api<WorkspaceView>(phone, 'PATCH', `/api/workspaces/${encodeURIComponent(shop.id)}`, { name: 'project' });
    expect(workspace.status).toBe(200);
    expect(workspace.body).toMatchObject({ id: shop.id, machine: ids.third, name: 'project' });
    expect(workspace.body.tabs.map((t) => [t.id, t.workspaceId])).toContainEqual([made.body.id, shop.id]);
    expect((await api(phone, 'DELETE', `/api/tabs/${encodeURIComponent(made.body.id)}`)).status).toBe(204);
  });

  it('a permission prompt on the third machine is answered through the home agent, once, and the tool runs there', async () => {
    const key = `${ids.third}~${thirdTab.id}`;
    const marker = join(project, 'approved.txt');
    fake.onPrompt('make the file', bash(`echo remote > ${marker}`, 'Write a file'));
    // Typed into the third machine's Claude through the home agent.
    const typed = await api(phone, 'POST', `/api/tabs/${encodeURIComponent(key)}/input`, { text: 'make the file' });
    expect(typed.status).toBe(204);
    const approval = await eventually(() => status.openApprovals().find((a: Approval) => a.tabId === key), 60_000, 'the approval from the third machine');
    expect(approval.machine).toBe(ids.third);
    expect(splitMachineKey(approval.id)?.machineId).toBe(ids.third);
    expect(approval.summary.body).toContain('echo remote');

    // Pushed by the home agent, to the phone's one subscription, naming the machine.
    const [pushed] = await eventually(() => (shows().length > 0 ? shows() : null), 10_000, 'the approval pushed by the home agent');
    expect(pushed).toMatchObject({ tag: approval.id, approvalId: approval.id, url: `/?approval=${encodeURIComponent(approval.id)}`, title: approval.summary.title });
    expect(pushed?.body).toMatch(/^Write a file\nBuild box · project · /);
    expect(pushed?.actions.map((a) => a.action)).toEqual(['approve', 'deny']);

    const decided = await api<{ resolution: ApprovalResolution }>(phone, 'POST', `/api/approvals/${encodeURIComponent(approval.id)}`, { decision: 'allow' });
    expect(decided.status).toBe(200);
    expect(decided.body.resolution).toMatchObject({ id: approval.id, tabId: key, outcome: 'approved' });
    // The shell makes the file before echo writes into it: what counts is what it holds.
    await eventually(() => existsSync(marker) && readFileSync(marker, 'utf8') === 'remote\n', 30_000, 'the command to run on the third machine');
    // Answered: the notification leaves the phone; the turn's end is pushed, once.
    await eventually(() => endpoint.of(phoneSub).some((p) => p.kind === 'close' && p.tag === approval.id), 10_000, 'the close push');
    const review = await eventually(() => shows().find((p) => p.tag === `tab-${key}`), 60_000, 'the review push');
    expect(review.url).toBe(`/t/${encodeURIComponent(key)}/timeline`);
    expect(shows().filter((p) => p.tag === approval.id)).toHaveLength(1);
    await eventually(() => !status.openApprovals().some((a) => a.id === approval.id), 10_000, 'the approval to leave the inbox');
    // Answered once: the third machine's own refusal comes back as it is.
    const again = await api<{ error: string; resolution: ApprovalResolution }>(phone, 'POST', `/api/approvals/${encodeURIComponent(approval.id)}`, { decision: 'deny' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already/);
    // How it was settled, naming the approval as the inbox does, and who: the phone, through the home agent.
    expect(again.body.resolution).toMatchObject({ id: approval.id, tabId: key, outcome: 'approved', by: { kind: 'device', name: expect.stringMatching(/^Pixel 8 via .+/) } });
    await status.waitState(key, 'ready-for-review', () => true, 60_000);
  }, 120_000);

  it('a machine that stops is shown unreachable since then, with its last known sessions, and comes back', async () => {
    const before = Date.now();
    await second.stop();
    const down = await eventually(() => snapshot().machines.find((m) => m.id === ids.second && m.reach === 'unreachable'), 20_000, 'the second machine unreachable');
    expect(down.since).toBeGreaterThanOrEqual(before);
    expect(down.problem).toContain(`127.0.0.1:${second.port}`);
    // What it last had stays listed.
    expect(snapshot().workspaces.filter((w) => w.machine === ids.second).map((w) => w.tabs.length)).toEqual([1]);
    // Nothing goes to it meanwhile, and the phone is told why.
    const tab = snapshot().workspaces.find((w) => w.machine === ids.second)?.tabs[0];
    const refused = await api<{ error: string }>(phone, 'POST', `/api/tabs/${encodeURIComponent(tab?.id ?? '')}/input`, { text: 'ls' });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toContain('“Laptop” is not reachable');

    second = await startAgent({ reuse: secondEnv, args: ['--port', String(second.port)] });
    await eventually(() => snapshot().machines.find((m) => m.id === ids.second && m.reach === 'ok'), 20_000, 'the second machine back');
  }, 60_000);

  it('a terminal on the second machine, opened through the home agent, is typed into and answers', async () => {
    const tab = snapshot().workspaces.find((w) => w.machine === ids.second)?.tabs[0];
    if (!tab) throw new Error('no tab on the second machine');
    const term = new TerminalClient(phone, tab.id);
    await term.opened;
    term.type('echo relayed-$((6 * 7)) | tee relayed.txt\r');
    await term.waitForLine(/^relayed-42\s*$/, 20_000);
    // Typed there: the shell on the second machine wrote the file in its own directory.
    await eventually(() => existsSync(join(second.home, 'relayed.txt')), 10_000, 'the file on the second machine');
    expect(readFileSync(join(second.home, 'relayed.txt'), 'utf8')).toBe('relayed-42\n');
    term.close();
  }, 60_000);

  it('an upload and the changes of a linked machine’s session are made there, through the home agent', async () => {
    const tab = snapshot().workspaces.find((w) => w.machine === ids.second)?.tabs[0];
    if (!tab) throw new Error('no tab on the second machine');
    const path = `/api/tabs/${encodeURIComponent(tab.id)}/uploads`;
    const bytes = Buffer.from('a file from the phone\n');
    const headers = { ...deviceHeaders(phone, 'POST', path), 'content-type': 'text/plain', [UPLOAD_FILENAME_HEADER]: encodeURIComponent('notes from phone.txt') };
    const res = await fetch(new URL(path, home.url), { method: 'POST', headers, body: bytes });
    expect(res.status).toBe(201);
    const saved = (await res.json()) as UploadResponse;
    // Saved on the second machine, in its session's directory, as it says.
    expect(saved.path.startsWith(realpathSync(second.home))).toBe(true);
    expect(readFileSync(saved.path, 'utf8')).toBe('a file from the phone\n');

    const key = `${ids.third}~${thirdTab.id}`;
    const changes = await api<ChangesView>(phone, 'GET', `/api/changes/${encodeURIComponent(key)}?scope=session`);
    expect(changes.status).toBe(200);
    // The third machine's project is no repository: its changes are read from Claude's edits there.
    expect(changes.body).toMatchObject({ scope: 'session', source: 'transcript' });
  });

  it('an agent that links the home agent in turn sees only the home agent’s own sessions, over REST and on its sockets', async () => {
    const studio = await startAgent();
    try {
      const made = await runCli(['machines', 'link-code', '--json', '--data-dir', home.dataDir], agentEnv(home), 30_000);
      const added = await runCli(['machines', 'add', (JSON.parse(made.stdout) as MachineLinkResponse).code, '--json', '--data-dir', studio.dataDir], agentEnv(studio), 30_000);
      expect(added.code).toBe(0);
      const [record] = (JSON.parse(readFileSync(join(studio.dataDir, 'machines.json'), 'utf8')) as { machines: MachineRecord[] }).machines;
      if (!record) throw new Error('no machine linked');
      // The studio's own credential at the home agent, used as the studio uses it.
      const client = new MachineClient({ url: record.url, pin: record.pin }, record);
      const linkedKeys = (value: unknown) => JSON.stringify(value).match(/mc-[a-z0-9]+~/g) ?? [];
      const get = async (path: string) => (await client.request('GET', path)).body;
      for (const path of ['/api/workspaces', '/api/tabs', '/api/status', '/api/approvals', '/api/outside']) expect(linkedKeys(await get(path)), path).toEqual([]);
      const first = (path: string) =>
        new Promise<unknown>((resolve, reject) => {
          const ws = client.socket(path, 16 * 1024 * 1024);
          ws.once('message', (data) => {
            resolve(JSON.parse(String(data)));
            ws.close();
          });
          ws.once('error', reject);
        });
      const synced = (await first('/api/sync')) as SyncSnapshot;
      expect(synced.machines).toEqual([]);
      expect(synced.workspaces.map((w) => w.name)).toEqual(['Home']);
      expect(linkedKeys(await first('/api/status'))).toEqual([]);
      // The phone, paired with the home agent, is served every machine's.
      expect(linkedKeys((await api(phone, 'GET', '/api/workspaces')).body).length).toBeGreaterThan(0);
      expect(Object.keys((await api<{ tabs: Record<string, unknown> }>(phone, 'GET', '/api/status')).body.tabs)).toContain(`${ids.third}~${thirdTab.id}`);
    } finally {
      await studio.stop();
    }
  }, 60_000);

  it('the home agent down leaves a linked machine on its own; restarted while a prompt waits there, it finds it again, still answerable once, and pushes it once', async () => {
    const key = `${ids.third}~${thirdTab.id}`;
    const marker = join(project, 'after-restart.txt');
    fake.onPrompt('after the restart', bash(`echo again > ${marker}`, 'Write a file'));
    expect((await api(phone, 'POST', `/api/tabs/${encodeURIComponent(key)}/input`, { text: 'after the restart' })).status).toBe(204);
    const waiting = await eventually(() => status.openApprovals().find((a) => a.tabId === key), 60_000, 'the approval');
    await eventually(() => shows().some((p) => p.tag === waiting.id), 10_000, 'the approval pushed');
    status.ws.close();
    sync.close();
    await home.stop();
    // The home agent down leaves the machine working on its own: a browser pairs with it
    // directly and finds the same prompt waiting there, under the machine's own key.
    // (Over its loopback twin: this test's fetch does not take the machine's own certificate.)
    const twin = Number(readFileSync(join(third.dataDir, 'local-port'), 'utf8'));
    const own = await claim({ url: `http://127.0.0.1:${twin}/`, port: twin, token: third.token }, 'Laptop browser');
    const there = await api<{ approvals: Approval[] }>(own, 'GET', '/api/approvals');
    expect(there.status).toBe(200);
    expect(there.body.approvals.map((a) => a.id)).toEqual([splitMachineKey(waiting.id)?.key]);
    home = await startAgent({ reuse: homeEnv, args: ['--port', String(home.port)], env: HOME_ENV });
    status = new StatusClient(phone);
    await status.opened;
    latest = null;
    sync = deviceSocket(phone, '/api/sync');
    sync.on('message', (data) => {
      latest = JSON.parse(String(data)) as SyncSnapshot;
    });
    // Followed again: what it had open was looked at before the phone was told it answers.
    await eventually(() => latest?.machines.find((m) => m.id === ids.third && m.reach === 'ok'), 30_000, 'the third machine followed again');
    const again = await eventually(() => status.openApprovals().find((a) => a.id === waiting.id), 30_000, 'the same approval after the restart');
    expect(again.machine).toBe(ids.third);
    const decided = await api(phone, 'POST', `/api/approvals/${encodeURIComponent(waiting.id)}`, { decision: 'allow' });
    expect(decided.status).toBe(200);
    await eventually(() => existsSync(marker), 30_000, 'the command to run');
    await eventually(() => snapshot().machines.length === 2, 10_000, 'the machines listed again');
    // Pushed before the restart, not again after it.
    expect(shows().filter((p) => p.tag === waiting.id)).toHaveLength(1);
  }, 120_000);

  it('a linked machine killed while a prompt waits on it: unreachable, then back, the approval answerable once and not pushed again', async () => {
    const key = `${ids.third}~${thirdTab.id}`;
    const marker = join(project, 'machine-restart.txt');
    fake.onPrompt('across its restart', bash(`echo kept > ${marker}`, 'Write a file'));
    expect((await api(phone, 'POST', `/api/tabs/${encodeURIComponent(key)}/input`, { text: 'across its restart' })).status).toBe(204);
    const waiting = await eventually(() => status.openApprovals().find((a) => a.tabId === key), 60_000, 'the approval');
    await eventually(() => shows().some((p) => p.tag === waiting.id), 10_000, 'the approval pushed');
    // What the machine comes back to is what it wrote of the wait (a moment after each change).
    const written = () => JSON.parse(readFileSync(join(third.dataDir, 'status.json'), 'utf8')) as { tabs: Record<string, { state: string }> };
    await eventually(() => written().tabs[thirdTab.id]?.state === 'needs-input', 10_000, 'the wait written on the machine');

    await third.stop('SIGKILL');
    await eventually(() => snapshot().machines.find((m) => m.id === ids.third && m.reach === 'unreachable'), 20_000, 'the third machine unreachable');
    // Still in the inbox, but not decidable while its machine is down: the phone is told why.
    expect(status.openApprovals().some((a) => a.id === waiting.id)).toBe(true);
    const refused = await api<{ error: string }>(phone, 'POST', `/api/approvals/${encodeURIComponent(waiting.id)}`, { decision: 'allow' });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toContain('“Build box” is not reachable');

    // Its Claude shows the dialog in its terminal (the hook it held failed with it); the
    // machine, back on its port and certificate, reads it off the screen and offers it again.
    third = await startThird(third.port);
    await eventually(() => snapshot().machines.find((m) => m.id === ids.third && m.reach === 'ok'), 30_000, 'the third machine back');
    const back = await eventually(() => status.openApprovals().find((a) => a.tabId === key), 60_000, 'the approval offered again');
    expect(back).toMatchObject({ machine: ids.third, kind: 'dialog', quiet: true, summary: { title: 'Bash command: Do you want to proceed?' } });
    expect(back.id).not.toBe(waiting.id);
    const reviewsBefore = shows().filter((p) => p.tag === `tab-${key}`).length;
    const decided = await api(phone, 'POST', `/api/approvals/${encodeURIComponent(back.id)}`, { decision: 'answer', option: '1' });
    expect(decided.status).toBe(200);
    await eventually(() => existsSync(marker), 30_000, 'the command to run on the restarted machine');
    expect(readFileSync(marker, 'utf8')).toBe('kept\n');
    const again = await api(phone, 'POST', `/api/approvals/${encodeURIComponent(back.id)}`, { decision: 'deny' });
    expect(again.status).toBe(409);
    // The person was told of it once: offered again after the restart, it is not pushed again.
    await status.waitState(key, 'ready-for-review', () => true, 60_000);
    await eventually(() => shows().filter((p) => p.tag === `tab-${key}`).length > reviewsBefore, 60_000, 'the review push');
    expect(shows().filter((p) => p.tag === back.id || p.tag === waiting.id).map((p) => p.tag)).toEqual([waiting.id]);
  }, 180_000);

  it('unlinking a machine takes its sessions off the home agent’s lists, and cuts its relayed terminals at once', async () => {
    const tab = snapshot().workspaces.find((w) => w.machine === ids.second)?.tabs[0];
    if (!tab) throw new Error('no tab on the second machine');
    const term = new TerminalClient(phone, tab.id);
    await term.opened;
    term.type('echo still-here\r');
    await term.waitForLine(/^still-here\s*$/, 20_000);
    const removed = await runCli(['machines', 'remove', ids.second, '--data-dir', home.dataDir], agentEnv(home), 30_000);
    expect(removed.code).toBe(0);
    const closed = await term.closed;
    expect(closed).toEqual({ code: 4004, reason: 'the machine was unlinked' });
    await eventually(() => !snapshot().workspaces.some((w) => w.machine === ids.second), 10_000, 'the second machine’s workspaces gone');
    expect(snapshot().machines.map((m) => m.id)).toEqual([ids.third]);
  });
});
