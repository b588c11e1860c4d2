/**
 * The built service worker with a real push: the agent (over HTTPS) pushes an approval the real
 * Claude Code CLI asks for to a push endpoint of our own, which decrypts it; Chromium's
 * DevTools hand that same payload to the worker (`ServiceWorker.deliverPushMessage`, since
 * headless Chromium reaches no real push service); the worker shows it with its buttons, and
 * its click handler, run as on a tap of "Approve", answers Claude. The app is closed by then
 * and the worker started afresh by the push: it signs its answer with the device key it finds
 * in IndexedDB, as a phone's worker does with the app long gone.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval, ApprovalResolution } from '../../protocol/approvals.js';
import type { PushPayload } from '../../protocol/push.js';
import type { TabStatus } from '../../protocol/status.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, testCertificate } from '../support/agent.js';
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

let agent: AgentHandle;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let fake: FakeAnthropic;
let endpoint: PushEndpoint;
let session: Session;
let project: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  const { cert, key } = testCertificate(env.root);
  [fake, endpoint] = await Promise.all([FakeAnthropic.start(), PushEndpoint.start()]);
  mkdirSync(join(env.home, 'project'), { recursive: true });
  project = realpathSync(join(env.home, 'project'));
  const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  [agent, browser] = await Promise.all([
    startAgent({
      reuse: env,
      args: ['--tls-cert', cert, '--tls-key', key, '--claude-bin', CLAUDE_BIN],
      env: { ...claude.env, POCKETMUX_PUSH_INSECURE_LOOPBACK: '1' },
    }),
    launchBrowser(['--ignore-certificate-errors']),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
  await fake?.close();
  await endpoint?.close();
});

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
function runningWorker(context: BrowserContext): Worker | undefined {
  return context.serviceWorkers().find((w) => w.url().startsWith(agent.url));
}

// The packaged headless shell shows no notifications: this needs the system's Chromium.
describe.skipIf(!browserShowsNotifications())('push through the service worker', () => {
  it('shows the pushed approval with Approve and Deny, and its Approve answers Claude with the app closed', async () => {
    context = await browser.newContext({ ...PHONE, ignoreHTTPSErrors: true });
    await context.grantPermissions(['notifications'], { origin: agent.url });
    page = await context.newPage();
    await pairPage(page, { link: agent.link }, 'Pixel 8');
    await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    // The test's own calls go to the agent's loopback twin (plain HTTP, as the CLI's), from a
    // device of their own: Node does not trust the test's certificate.
    const twin = Number(readFileSync(join(agent.dataDir, 'port'), 'utf8').trim());
    session = await localDevice({ url: `http://127.0.0.1:${twin}/`, port: twin, dataDir: agent.dataDir }, 'tests');

    // Headless Chromium cannot subscribe at a real push service: this browser's device
    // subscribes to ours, from the page, signed with its own key.
    endpoint.agentKey = (await api<{ publicKey: string }>(session, 'GET', '/api/push/key')).body.publicKey;
    const subscription = endpoint.subscribe();
    expect((await browserApi(page, 'POST', '/api/push/subscription', subscription.json)).status).toBe(201);

    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    const tab = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } })).body;
    const pane = new ClaudeTabPane(agent, tab);
    // Over REST: the loopback twin serves no WebSockets.
    const state = async () => (await api<{ tabs: Record<string, TabStatus> }>(session, 'GET', '/api/status')).body.tabs[tab.id];
    const open = async () => (await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals')).body.approvals;
    await eventually(async () => (await state())?.claudeRunning, 30_000, 'claude running');
    await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
    const file = join(project, 'from-notification.txt');
    fake.onPrompt('please run it', bash(`echo from-notification > ${file}`, 'Write a file'));
    fake.afterToolResult(text('Done from the notification.'));
    await pane.submit('please run it');
    const approval = await eventually(async () => (await open()).find((a) => a.tabId === tab.id), 30_000, 'the approval');
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
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(agent.url).origin, registrationId: registration.registrationId, data: JSON.stringify(pushed) });
    await eventually(() => running.get(registration.registrationId) === 'running', 10_000, 'the worker woken by the push');
    const worker = await eventually(() => runningWorker(context), 10_000, 'the worker');
    const [notification] = await eventually(async () => {
      const list = await shownByWorker(worker);
      return list.length > 0 ? list : null;
    }, 10_000, 'the notification');
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
    const late = await api<{ resolution: ApprovalResolution }>(session, 'POST', `/api/approvals/${approval.id}`, { decision: 'deny' });
    expect(late.status).toBe(409);
    expect(late.body.resolution).toMatchObject({ outcome: 'approved', by: { kind: 'device', name: 'Pixel 8' } });
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
  });
});
