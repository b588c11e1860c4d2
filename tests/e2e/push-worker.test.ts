/**
 * The built service worker with a real push: the agent (over HTTPS) pushes an approval the real
 * Claude Code CLI asks for to a push endpoint of our own, which decrypts it; Chromium's
 * DevTools hand that same payload to the worker (`ServiceWorker.deliverPushMessage`, since
 * headless Chromium reaches no real push service); the worker shows it with its buttons, and
 * its click handler, run as on a tap of "Approve", answers Claude. The app is closed by then
 * and the worker started afresh by the push: it signs its answer with the device key it finds
 * in IndexedDB, as a phone's worker does with the app long gone. The same again for a Claude on
 * a linked machine: the home agent pushes its approval, and the tap's answer goes through the
 * home agent to that machine, recorded there as the phone's.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval, ApprovalResolution } from '../../protocol/approvals.js';
import type { PushPayload } from '../../protocol/push.js';
import type { TabStatus } from '../../protocol/status.js';
import { machineKey } from '../../protocol/machine-key.js';
import type { MachineLinkResponse, MachineView } from '../../protocol/machines.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, testCertificate } from '../support/agent.js';
import { ARTIFACTS, browserApi, browserShowsNotifications, launchBrowser, pairPage, PHONE } from '../support/browser.js';
import { CLAUDE_BIN, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudeTabPane, PERMISSION_DIALOG } from '../support/claude-pane.js';
import { api, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { bash, FakeAnthropic, text } from '../support/fake-anthropic.js';
import { PushEndpoint } from '../support/push-endpoint.js';

interface Shown {
  title: string;
  body: string;
  tag: string;
  actions: { action: string; title: string }[];
}

let browser: Browser;
let fake: FakeAnthropic;
let endpoint: PushEndpoint;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [fake, endpoint, browser] = await Promise.all([FakeAnthropic.start(), PushEndpoint.start(), launchBrowser(['--ignore-certificate-errors'])]);
});

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
  await fake?.close();
  await endpoint?.close();
});

/** The phone's agent: over HTTPS, pushing to the test's push endpoint; with Claude when `claude` is set. */
async function homeAgent(claude: boolean): Promise<{ home: AgentHandle; project: string }> {
  const env = newTestEnvironment();
  const { cert, key } = testCertificate(env.root);
  mkdirSync(join(env.home, 'project'), { recursive: true });
  const project = realpathSync(join(env.home, 'project'));
  const prepared = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  const home = await startAgent({
    reuse: env,
    args: ['--tls-cert', cert, '--tls-key', key, ...(claude ? ['--claude-bin', CLAUDE_BIN] : [])],
    env: { ...(claude ? prepared.env : {}), POCKETMUX_PUSH_INSECURE_LOOPBACK: '1' },
  });
  return { home, project };
}

/** Where the Claude that asks runs, and how the home agent names its session. */
interface ClaudeAt {
  agent: AgentHandle;
  /** A device of that agent's own, to make the tab with. */
  session: Session;
  project: string;
  /** The tab's key at the home agent. */
  keyOf: (tab: TabView) => string;
  /** Who the decision is recorded as. */
  decidedBy: string | RegExp;
}

/** The notifications the worker shows now, as the page's registration lists them. */
function shown(p: Page): Promise<Shown[]> {
  return p.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const list = await registration.getNotifications();
    return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, actions: [...((n as Notification & { actions?: { action: string; title: string }[] }).actions ?? [])].map((a) => ({ action: a.action, title: a.title })) }));
  });
}

/** The same, asked of the running worker itself: no page of the app is open. */
function shownByWorker(worker: Worker): Promise<Shown[]> {
  return worker.evaluate(async () => {
    // Runs in the worker; this file is compiled without the WebWorker library.
    const sw = self as unknown as { registration: ServiceWorkerRegistration };
    const list = await sw.registration.getNotifications();
    return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, actions: [...((n as Notification & { actions?: { action: string; title: string }[] }).actions ?? [])].map((a) => ({ action: a.action, title: a.title })) }));
  });
}

/** The windows the worker could answer through: every page of its origin, controlled or not. */
function windowsOf(worker: Worker): Promise<number> {
  return worker.evaluate(async () => {
    const sw = self as unknown as { clients: { matchAll(options: { type: string; includeUncontrolled: boolean }): Promise<unknown[]> } };
    return (await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })).length;
  });
}

/** The agent's worker, as Playwright knows it. */
function runningWorker(context: BrowserContext, agent: AgentHandle): Worker | undefined {
  return context.serviceWorkers().find((w) => w.url().startsWith(agent.url));
}

// The packaged headless shell shows no notifications: this needs the system's Chromium.
describe.skipIf(!browserShowsNotifications())('push through the service worker', () => {
  it('shows the pushed approval with Approve and Deny, and its Approve answers Claude with the app closed', async () => {
    const { home, project } = await homeAgent(true);
    const twin = Number(readFileSync(join(home.dataDir, 'port'), 'utf8').trim());
    const session = await localDevice({ url: `http://127.0.0.1:${twin}/`, port: twin, dataDir: home.dataDir }, 'tests');
    await approveFromNotification(home, session, { agent: home, session, project, keyOf: (tab) => tab.id, decidedBy: 'Pixel 8' });
  });

  it('does the same for a Claude on a linked machine: pushed by the home agent, answered through it', async () => {
    const { home } = await homeAgent(false);
    const env = newTestEnvironment();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    const project = realpathSync(join(env.home, 'project'));
    const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
    const machine = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: claude.env });
    const made = await runCli(['machines', 'link-code', '--json', '--data-dir', machine.dataDir], agentEnv(machine), 30_000);
    const added = await runCli(['machines', 'add', (JSON.parse(made.stdout) as MachineLinkResponse).code, '--name', 'Build box', '--json', '--data-dir', home.dataDir], agentEnv(home), 30_000);
    expect(added.code).toBe(0);
    const machineId = (JSON.parse(added.stdout) as MachineView).id;
    const twin = Number(readFileSync(join(home.dataDir, 'port'), 'utf8').trim());
    const session = await localDevice({ url: `http://127.0.0.1:${twin}/`, port: twin, dataDir: home.dataDir }, 'tests');
    const there = await localDevice(machine, 'tests there');
    await approveFromNotification(home, session, { agent: machine, session: there, project, keyOf: (tab) => machineKey(machineId, tab.id), decidedBy: /^Pixel 8 via / });
  });
});

/**
 * A phone paired with `agent` subscribes; the Claude at `at` asks; the push that agent sent
 * is handed to the worker with the app closed; a tap on its Approve answers Claude.
 */
async function approveFromNotification(agent: AgentHandle, session: Session, at: ClaudeAt): Promise<void> {
  const context = await browser.newContext({ ...PHONE, ignoreHTTPSErrors: true });
  await context.grantPermissions(['notifications'], { origin: agent.url });
  let page = await context.newPage();
  await pairPage(page, { link: agent.link }, 'Pixel 8');
  await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  // The test's own calls (`session`) go to the agent's loopback twin (plain HTTP, as the
  // CLI's), from a device of their own: Node does not trust the test's certificate.

  // Headless Chromium cannot subscribe at a real push service: this browser's device
  // subscribes to ours, from the page, signed with its own key.
  endpoint.agentKey = (await api<{ publicKey: string }>(session, 'GET', '/api/push/key')).body.publicKey;
  const subscription = endpoint.subscribe();
  expect((await browserApi(page, 'POST', '/api/push/subscription', subscription.json)).status).toBe(201);

  const ws = await api<WorkspaceView>(at.session, 'POST', '/api/workspaces', { dir: at.project });
  const tab = (await api<TabView>(at.session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } })).body;
  const key = at.keyOf(tab);
  const pane = new ClaudeTabPane(at.agent, tab);
  // Over REST: the loopback twin serves no WebSockets.
  const state = async () => (await api<{ tabs: Record<string, TabStatus> }>(session, 'GET', '/api/status')).body.tabs[key];
  const open = async () => (await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals')).body.approvals;
  await eventually(async () => (await state())?.claudeRunning, 30_000, 'claude running');
  await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
  const file = join(at.project, 'from-notification.txt');
  // A prompt of this tab's own: the stand-in model serves every test of the file.
  const prompt = `please run it in ${tab.id}`;
  fake.onPrompt(prompt, bash(`echo from-notification > ${file}`, 'Write a file'));
  fake.afterToolResult(text('Done from the notification.'));
  await pane.submit(prompt);
  const approval = await eventually(async () => (await open()).find((a) => a.tabId === key), 30_000, 'the approval');
  await pane.waitScreen('the dialog', (s) => s.includes(PERMISSION_DIALOG));

  // What the push service received, decrypted as the browser would.
  const pushed = await eventually(
    () => endpoint.of(subscription.id).find((p): p is Extract<PushPayload, { kind: 'show' }> => p.kind === 'show' && p.tag === approval.id),
    10_000,
    'the push',
  );

  // The app is closed, and its worker stopped: DevTools, from a blank page, are all that is left.
  const blank = await context.newPage();
  const cdp = await context.newCDPSession(blank);
  await page.close();
  const registrations: { registrationId: string; scopeURL: string }[] = [];
  /** Each registration's worker as DevTools last told: running, stopping, stopped… */
  const running = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string }[] }) => registrations.push(...e.registrations));
  cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { registrationId: string; runningStatus: string }[] }) => {
    for (const v of e.versions) running.set(v.registrationId, v.runningStatus);
  });
  await cdp.send('ServiceWorker.enable');
  const registration = await eventually(() => registrations.find((r) => r.scopeURL === agent.url), 10_000, 'the worker registration');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await eventually(() => running.get(registration.registrationId) === 'stopped', 10_000, 'the worker to stop');

  // The same payload, handed to the built worker as a push: it starts again for it, with
  // nothing of the app in memory.
  const deliver = () => cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(agent.url).origin, registrationId: registration.registrationId, data: JSON.stringify(pushed) });
  await deliver();
  await eventually(() => running.get(registration.registrationId) === 'running', 10_000, 'the worker woken by the push');
  const showing = async () => {
    const worker = await eventually(() => runningWorker(context, agent), 10_000, 'the worker');
    const list = await shownByWorker(worker);
    return list.length > 0 ? { worker, list } : null;
  };
  const explain = () => `worker: ${running.get(registration.registrationId)}; workers: ${context.serviceWorkers().map((w) => w.url()).join(', ') || 'none'}`;
  // A push service delivers again what a device did not take; on a loaded machine a woken
  // worker has been seen to start without showing the first one, so it is handed over once more.
  const first = await eventually(showing, 10_000, 'the notification').catch(() => null);
  if (!first) await deliver();
  const { worker, list: [notification] } = first ?? (await eventually(showing, 10_000, 'the notification, delivered again', explain));
  expect(await windowsOf(worker)).toBe(0);
  expect(notification).toEqual({
    title: approval.summary.title,
    body: pushed.body,
    tag: approval.id,
    actions: [
      { action: 'approve', title: 'Approve' },
      { action: 'deny', title: 'Deny' },
    ],
  });
  expect(existsSync(file)).toBe(false);

  // A tap on "Approve": the worker's own click handler, given the notification and the action.
  await worker.evaluate(async (tag) => {
    // Runs in the worker; this file is compiled without the WebWorker library.
    const sw = self as unknown as {
      registration: { getNotifications(filter: { tag: string }): Promise<unknown[]> };
      dispatchEvent(event: Event): boolean;
    };
    const NotificationEventOf = (self as unknown as { NotificationEvent: new (type: string, init: { notification: unknown; action: string }) => Event }).NotificationEvent;
    const [n] = await sw.registration.getNotifications({ tag });
    if (!n) throw new Error('no notification to tap');
    sw.dispatchEvent(new NotificationEventOf('notificationclick', { notification: n, action: 'approve' }));
  }, approval.id);

  await eventually(async () => (await state())?.state === 'ready-for-review', 20_000, 'the turn to end');
  const late = await api<{ resolution: ApprovalResolution }>(session, 'POST', `/api/approvals/${encodeURIComponent(approval.id)}`, { decision: 'deny' });
  expect(late.status).toBe(409);
  expect(late.body.resolution).toMatchObject({ id: approval.id, outcome: 'approved', by: { kind: 'device' } });
  expect(late.body.resolution.by.name).toMatch(at.decidedBy);
  expect(readFileSync(file, 'utf8')).toBe('from-notification\n');
  // The notification now says how it went, as the app, opened again, finds it.
  page = await context.newPage();
  await page.goto(agent.url);
  await page.getByRole('button', { name: 'Settings' }).waitFor();
  const after = await eventually(async () => (await shown(page)).find((n) => n.tag === approval.id && n.title.startsWith('Approved')), 10_000, 'the outcome');
  expect(after.title).toBe(`Approved · ${approval.summary.title}`);
  expect(after.actions).toEqual([]);

  // The close push for it, handed to the worker too, takes it away.
  const close = await eventually(() => endpoint.of(subscription.id).find((p) => p.kind === 'close' && p.tag === approval.id), 10_000, 'the close push');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(agent.url).origin, registrationId: registration.registrationId, data: JSON.stringify(close) });
  await eventually(async () => (await shown(page)).every((n) => n.tag !== approval.id), 10_000, 'the notification closed');
  await context.close();
}
