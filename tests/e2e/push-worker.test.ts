/**
 * The built service worker with a real push: the agent (over HTTPS) pushes an approval the real
 * Claude Code CLI asks for to a push endpoint of our own, which decrypts it; Chromium's
 * DevTools hand that same payload to the worker (`ServiceWorker.deliverPushMessage`, since
 * headless Chromium reaches no real push service); the worker shows it with its buttons, and
 * its click handler, run as on a tap of "Approve", answers Claude.
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
import { ARTIFACTS, browserShowsNotifications, launchBrowser, pairPage, PHONE, sessionOf } from '../support/browser.js';
import { CLAUDE_BIN, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudeTabPane, PERMISSION_DIALOG } from '../support/claude-tab.js';
import { api, eventually, type Session } from '../support/client.js';
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

// The packaged headless shell shows no notifications: this needs the system's Chromium.
describe.skipIf(!browserShowsNotifications())('push through the service worker', () => {
  it('shows the pushed approval with Approve and Deny, and its Approve answers Claude', async () => {
    context = await browser.newContext({ ...PHONE, ignoreHTTPSErrors: true });
    await context.grantPermissions(['notifications'], { origin: agent.url });
    page = await context.newPage();
    await pairPage(page, { link: agent.link }, 'Pixel 8');
    await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    // The test's own calls go to the agent's loopback twin (plain HTTP, as the CLI's), with
    // the credential this browser got: Node does not trust the test's certificate.
    const twin = Number(readFileSync(join(agent.dataDir, 'port'), 'utf8').trim());
    session = { agent: { url: `http://127.0.0.1:${twin}/`, port: twin }, cookie: (await sessionOf(context, agent)).cookie };

    // Headless Chromium cannot subscribe at a real push service: the device subscribes to ours.
    endpoint.agentKey = (await api<{ publicKey: string }>(session, 'GET', '/api/push/key')).body.publicKey;
    const subscription = endpoint.subscribe();
    expect((await api(session, 'POST', '/api/push/subscription', subscription.json)).status).toBe(201);

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

    // The same payload, handed to the built worker as a push.
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string }[] }) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    const registration = await eventually(() => registrations.find((r) => r.scopeURL === agent.url), 10_000, 'the worker registration');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(agent.url).origin, registrationId: registration.registrationId, data: JSON.stringify(pushed) });
    const [notification] = await eventually(async () => {
      const list = await shown(page);
      return list.length > 0 ? list : null;
    }, 10_000, 'the notification');
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
    const worker = await eventually<Worker | undefined>(() => context.serviceWorkers().find((w) => w.url().startsWith(agent.url)), 10_000, 'the worker');
    await worker?.evaluate(async (tag) => {
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
    // The notification now says how it went.
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
