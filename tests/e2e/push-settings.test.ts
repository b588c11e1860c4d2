/**
 * Notifications in the app, in real Chromium against a real agent: the Notifications section
 * on the Settings page (enable, choose, test, turn off, and what it says when it cannot work),
 * the presence the app reports (no push about a tab on screen), and the link a notification
 * opens (`/?approval=<id>`). Headless Chromium reaches no push service, so an init script
 * stands in for the browser's PushManager with a subscription at tests/support/push-endpoint.ts:
 * the agent's real pushes arrive there, signed and encrypted, and are checked and decrypted.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import type { PushPayload, PushState } from '../../protocol/push.js';
import type { TabStatus } from '../../protocol/status.js';
import { type AgentHandle, cleanupAgents, startAgent } from '../support/agent.js';
import { ARTIFACTS, browserApi, browserShowsNotifications, DESKTOP, launchBrowser, pairBrowser, pairPage, PHONE } from '../support/browser.js';
import { api, createTab, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { PushEndpoint } from '../support/push-endpoint.js';
import { capturedHook, paneEnv } from '../support/status.js';

const IPHONE: BrowserContextOptions = {
  ...PHONE,
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
};
const IPAD: BrowserContextOptions = {
  ...DESKTOP,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (iPad; CPU OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
};

type SubscriptionJson = ReturnType<PushEndpoint['subscribe']>['json'];

interface FakePushOptions {
  /** What the stand-in subscription's toJSON() gives. */
  json: SubscriptionJson;
  /** Make `Notification.requestPermission` answer 'denied', as a person saying no does. */
  deny: boolean;
}

/**
 * Runs in the page before the app: a PushManager whose subscription is one of our push
 * endpoint's, kept in localStorage as a browser keeps its own across reloads. The key the app
 * subscribed with is kept too, base64url, for the test to compare with the agent's.
 */
function fakePush(options: FakePushOptions): void {
  const KEY = 'pm-test-push-key';
  const DENIED = 'pm-test-denied';
  const store = {
    get: (k: string) => {
      try {
        return localStorage.getItem(k);
      } catch {
        return null;
      }
    },
    set: (k: string, v: string) => localStorage.setItem(k, v),
    remove: (k: string) => localStorage.removeItem(k),
  };
  const fromB64url = (s: string) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const subscription = (key: string) => ({
    endpoint: options.json.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: fromB64url(key).buffer },
    getKey: () => null,
    toJSON: () => options.json,
    unsubscribe: async () => {
      store.remove(KEY);
      return true;
    },
  });
  PushManager.prototype.subscribe = async (init?: PushSubscriptionOptionsInit) => {
    const failure = (window as unknown as { pmTestSubscribeFails?: string }).pmTestSubscribeFails;
    if (failure) throw new DOMException(failure, 'AbortError');
    if (!init?.userVisibleOnly) throw new DOMException('userVisibleOnly must be true', 'NotAllowedError');
    const raw = init.applicationServerKey;
    if (!(raw instanceof Uint8Array)) throw new DOMException('expected the key as a Uint8Array', 'InvalidAccessError');
    const key = btoa(String.fromCharCode(...raw))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    store.set(KEY, key);
    return subscription(key) as unknown as PushSubscription;
  };
  PushManager.prototype.getSubscription = async () => {
    const key = store.get(KEY);
    return key ? (subscription(key) as unknown as PushSubscription) : null;
  };
  if (options.deny) {
    Object.defineProperty(Notification, 'permission', { configurable: true, get: () => (store.get(DENIED) ? 'denied' : 'default') });
    Notification.requestPermission = async () => {
      store.set(DENIED, '1');
      return 'denied';
    };
  }
}

let agent: AgentHandle;
let browser: Browser;
let endpoint: PushEndpoint;
let session: Session;
let phone: BrowserContext;
let page: Page;
let subscription: ReturnType<PushEndpoint['subscribe']>;
/** PermissionRequest hooks the agent holds; answered at the end. */
const held: Promise<Response>[] = [];

const settings = (p: Page) => p.locator('pm-notifications-settings');
const shows = (id: string) => endpoint.of(id).filter((p): p is Extract<PushPayload, { kind: 'show' }> => p.kind === 'show');

/** A context paired as a device of its own, through the app. */
async function pairedContext(options: BrowserContextOptions, name: string): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await pairBrowser(context, agent, name);
  return context;
}

/** What the agent holds of the phone's own push subscription: asked by the phone's browser, with its key. */
async function phonePush(): Promise<PushState> {
  const res = await browserApi<PushState>(page, 'GET', '/api/push');
  expect(res.status).toBe(200);
  return res.body;
}

async function openSettings(p: Page): Promise<void> {
  await p.goto(new URL('/settings', agent.url).href);
  await p.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  await settings(p).locator('.card:not([data-state="loading"])').waitFor();
}

/** The page with the Notifications section in view, as a person scrolled to it. */
async function shoot(p: Page, name: string): Promise<void> {
  await settings(p).scrollIntoViewIfNeeded();
  await p.screenshot({ path: join(ARTIFACTS, `e2e-notifications-${name}.png`) });
}

/** Waits for a smooth scroll to end: the page stays put for a moment. */
async function scrollSettled(p: Page): Promise<void> {
  let last = -1;
  await expect
    .poll(
      async () => {
        const now = await p.evaluate(() => window.scrollY);
        const still = now === last;
        last = now;
        return still;
      },
      { timeout: 5_000, interval: 150 },
    )
    .toBe(true);
}

async function expectNoSidewaysScroll(p: Page): Promise<void> {
  expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** Posts one of Claude's hooks as if from the tab's pane, as Claude's HTTP hooks do. */
async function hookSender(tab: TabView): Promise<(event: string, body?: Record<string, unknown>) => Promise<Response>> {
  const headers = {
    'content-type': 'application/json',
    'x-pocketmux-token': readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim(),
    ...Object.fromEntries(Object.entries(await paneEnv(agent, tab)).map(([k, v]) => [k === 'TMUX_PANE' ? 'x-pocketmux-pane' : 'x-pocketmux-tmux', v])),
  };
  return (event, body) =>
    fetch(new URL(`/hooks/${event}`, agent.url), { method: 'POST', headers, body: JSON.stringify({ ...capturedHook(event), session_id: `outside-${tab.id}`, ...body }) });
}

/** How many times the agent took a presence of `tab` (null: no tab on screen), as it logs them at debug. */
const presences = (tab: string | null) =>
  agent
    .stderr()
    .split('\n')
    .filter((line) => / debug status client presence \{"device":"[^"]+","tab":/.test(line) && line.endsWith(`"tab":${JSON.stringify(tab)}}`)).length;

const tabState = async (tabId: string) => (await api<{ tabs: Record<string, TabStatus> }>(session, 'GET', '/api/status')).body.tabs[tabId]?.state;
const openApprovals = async () => (await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals')).body.approvals;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  endpoint = await PushEndpoint.start();
  // The approvals here are held for shell tabs where no claude runs: the safety poll, which
  // finds no claude there, would release them at its next look, which a slow run can reach.
  // At debug the agent logs each presence it takes and each push it decides on.
  [agent, browser] = await Promise.all([startAgent({ env: { POCKETMUX_PUSH_INSECURE_LOOPBACK: '1', POCKETMUX_SAFETY_POLL_MS: '3600000', POCKETMUX_LOG_LEVEL: 'debug' } }), launchBrowser()]);
  subscription = endpoint.subscribe();
  phone = await browser.newContext(PHONE);
  await phone.grantPermissions(['notifications'], { origin: agent.url });
  await phone.addInitScript(fakePush, { json: subscription.json, deny: false } satisfies FakePushOptions);
  page = await phone.newPage();
  await pairPage(page, { link: agent.link }, 'Pixel 8');
  session = await localDevice(agent);
  endpoint.agentKey = (await api<{ publicKey: string }>(session, 'GET', '/api/push/key')).body.publicKey;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
  await endpoint?.close();
});

/** Only a Chromium that shows notifications can run these (the packaged headless shell cannot). */
const withNotifications = it.skipIf(!browserShowsNotifications());

describe('the Notifications section', () => {
  withNotifications('enables notifications on a phone: the agent holds the subscription and a test push arrives', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const section = settings(page);
    const enable = section.getByRole('button', { name: 'Enable notifications' });
    await enable.waitFor();
    await section.getByText('Off on this browser').waitFor();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'off-phone');
    // The service worker the subscription belongs to runs before the tap.
    await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);

    await enable.tap();
    await section.getByRole('switch', { name: 'Ready for review' }).waitFor();
    await section.getByText('On for this browser').waitFor();
    expect(await phonePush()).toEqual({ publicKey: endpoint.agentKey, subscribed: true, settings: { approvals: true, needsInput: true, review: true } });
    // The app subscribed with the agent's key, as bytes.
    expect(await page.evaluate(() => localStorage.getItem('pm-test-push-key'))).toBe(endpoint.agentKey);
    for (const name of ['Approvals and questions', 'Waiting in the terminal', 'Ready for review']) {
      expect(await section.getByRole('switch', { name }).isChecked(), name).toBe(true);
    }
    await expectNoSidewaysScroll(page);
    await shoot(page, 'on-phone');

    await section.getByRole('button', { name: 'Send a test notification' }).tap();
    await section.getByText(/^Sent\. It should arrive/).waitFor();
    const test = await eventually(() => shows(subscription.id).find((p) => p.tag === 'test'), 10_000, 'the test push');
    expect(test).toMatchObject({ title: 'pocketmux notifications work', approvalId: null });
    expect(endpoint.refused).toEqual([]);
  });

  withNotifications('saves what is pushed: "ready for review" off stays off after a reload', async () => {
    const section = settings(page);
    const review = section.getByRole('switch', { name: 'Ready for review' });
    await review.tap();
    await eventually(async () => (await phonePush()).settings.review === false, 10_000, 'the PUT');
    expect((await phonePush()).settings).toEqual({ approvals: true, needsInput: true, review: false });
    await page.reload();
    await settings(page).getByRole('switch', { name: 'Ready for review' }).waitFor();
    expect(await settings(page).getByRole('switch', { name: 'Ready for review' }).isChecked()).toBe(false);
    expect(await settings(page).getByRole('switch', { name: 'Approvals and questions' }).isChecked()).toBe(true);
    await shoot(page, 'review-off-phone');
  });

  withNotifications('hands the agent again, quietly, a subscription this browser has and the agent lost', async () => {
    expect((await browserApi(page, 'DELETE', '/api/push/subscription')).status).toBe(204);
    expect((await phonePush()).subscribed).toBe(false);
    await openSettings(page);
    await settings(page).getByText('On for this browser').waitFor();
    expect((await phonePush()).subscribed).toBe(true);
    expect(await settings(page).locator('[role="alert"]').count()).toBe(0);
  });

  withNotifications('sends nothing about a tab on screen, and pushes it once the person looks away', async () => {
    const shell = await createTab(session);
    const hook = await hookSender(shell);
    const tag = `tab-${shell.id}`;
    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    const onTab = presences(shell.id);
    await page.locator(`pm-tab-row[data-tab-id="${shell.id}"] button.open`).tap();
    await expect.poll(() => page.evaluate(() => location.pathname)).toBe(`/t/${shell.id}`);
    await page.locator('.xterm-rows').waitFor();
    expect(await page.evaluate(() => document.visibilityState === 'visible' && document.hasFocus())).toBe(true);
    // The presence message goes out on the route change: the agent has taken it.
    await eventually(() => presences(shell.id) > onTab, 10_000, 'the agent to take the tab on screen', () => agent.stderr().slice(-2000));

    expect((await hook('UserPromptSubmit')).status).toBe(204);
    expect((await hook('Notification')).status).toBe(204);
    await eventually(async () => (await tabState(shell.id)) === 'needs-input', 10_000, 'needs-input');
    // The agent decides on the push as it takes the hook, and logs a push it sends.
    expect(agent.stderr()).not.toContain(` debug pushed {"tag":"${tag}"`);
    // A test push asked for now queues behind one the hook would have sent: once it came, that one would have too.
    const tests = () => shows(subscription.id).filter((p) => p.tag === 'test').length;
    const testsBefore = tests();
    expect((await browserApi(page, 'POST', '/api/push/test')).status).toBe(202);
    await eventually(() => tests() > testsBefore, 10_000, 'the test push sent after the hook');
    expect(shows(subscription.id).filter((p) => p.tag === tag)).toEqual([]);

    // Back on the list: the same wait is pushed.
    const offTab = presences(null);
    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    await expect.poll(() => page.evaluate(() => location.pathname)).toBe('/');
    await eventually(() => presences(null) > offTab, 10_000, 'the agent to take no tab on screen', () => agent.stderr().slice(-2000));
    expect((await hook('UserPromptSubmit')).status).toBe(204);
    await eventually(async () => (await tabState(shell.id)) !== 'needs-input', 10_000, 'the tab to leave needs-input');
    expect((await hook('Notification')).status).toBe(204);
    const pushed = await eventually(() => shows(subscription.id).find((p) => p.tag === tag), 10_000, 'the needs-input push');
    expect(pushed).toMatchObject({ title: 'Claude is waiting for you', url: `/t/${shell.id}` });
    expect((await hook('PostToolUse')).status).toBe(204);
  });

  withNotifications('turns notifications off: the browser unsubscribes and the agent forgets it', async () => {
    await openSettings(page);
    const section = settings(page);
    await section.getByRole('button', { name: 'Turn off' }).tap();
    await section.getByRole('button', { name: 'Enable notifications' }).waitFor();
    expect((await phonePush()).subscribed).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('pm-test-push-key'))).toBeNull();
    // Its choices stay for the next time.
    expect((await phonePush()).settings.review).toBe(false);
    expect((await browserApi(page, 'POST', '/api/push/test')).status).toBe(409);
  });

  it('explains a denied permission, and how to allow it again', async () => {
    for (const [options, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const context = await pairedContext(options, `Denied ${name}`);
      await context.grantPermissions([]);
      await context.addInitScript(fakePush, { json: endpoint.subscribe().json, deny: true } satisfies FakePushOptions);
      const p = await context.newPage();
      await openSettings(p);
      await settings(p).getByRole('button', { name: 'Enable notifications' }).click();
      const card = settings(p).locator('.card[data-state="blocked-denied"]');
      await card.getByText('Notifications are blocked for pocketmux').waitFor();
      await card.getByText(name === 'phone' ? /Site settings → Notifications/ : /icon left of the address bar/).waitFor();
      expect(await settings(p).getByRole('button', { name: 'Enable notifications' }).count()).toBe(0);
      // Still so after a reload: the browser remembers the answer.
      await p.reload();
      await settings(p).locator('.card[data-state="blocked-denied"]').waitFor();
      await expectNoSidewaysScroll(p);
      await shoot(p, `denied-${name}`);
      await context.close();
    }
  });

  it('sends iOS Safari to the home screen first, with no button that cannot work', async () => {
    for (const [options, name] of [
      [IPHONE, 'phone'],
      [IPAD, 'desktop'],
    ] as const) {
      const context = await pairedContext(options, `iOS ${name}`);
      const p = await context.newPage();
      await openSettings(p);
      const card = settings(p).locator('.card[data-state="blocked-ios-home-screen"]');
      await card.getByText('Add pocketmux to your home screen (Share → Add to Home Screen), open it from there, then enable notifications.').waitFor();
      expect(await settings(p).getByRole('button', { name: 'Enable notifications' }).count()).toBe(0);
      await expectNoSidewaysScroll(p);
      await shoot(p, `ios-${name}`);
      await context.close();
    }
  });

  withNotifications('shows the browser’s error when subscribing fails, and the agent’s when it refuses', async () => {
    const context = await pairedContext(DESKTOP, 'Refused');
    await context.grantPermissions(['notifications'], { origin: agent.url });
    const bad = { ...endpoint.subscribe().json, endpoint: 'https://push.example.com/send/1' };
    await context.addInitScript(fakePush, { json: bad, deny: false } satisfies FakePushOptions);
    const p = await context.newPage();
    await openSettings(p);
    await p.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    const enable = settings(p).getByRole('button', { name: 'Enable notifications' });

    await p.evaluate(() => {
      (window as unknown as { pmTestSubscribeFails?: string }).pmTestSubscribeFails = 'Registration failed - push service not available';
    });
    await enable.click();
    await settings(p).getByRole('alert').getByText('The browser could not subscribe to notifications: Registration failed - push service not available').waitFor();

    await p.evaluate(() => {
      (window as unknown as { pmTestSubscribeFails?: string }).pmTestSubscribeFails = undefined;
    });
    await enable.click();
    await settings(p).getByRole('alert').getByText(/^The agent did not take this browser's subscription: refused push endpoint: push\.example\.com is not a known push service/).waitFor();
    // A subscription the agent refused is not kept.
    expect(await p.evaluate(() => localStorage.getItem('pm-test-push-key'))).toBeNull();
    await shoot(p, 'refused-desktop');
    await context.close();
  });

  withNotifications('shows the switches on a desktop too', async () => {
    const context = await pairedContext(DESKTOP, 'Laptop');
    await context.grantPermissions(['notifications'], { origin: agent.url });
    const desk = endpoint.subscribe();
    await context.addInitScript(fakePush, { json: desk.json, deny: false } satisfies FakePushOptions);
    const p = await context.newPage();
    await openSettings(p);
    await p.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    await settings(p).getByRole('button', { name: 'Enable notifications' }).click();
    await settings(p).getByRole('switch', { name: 'Ready for review' }).waitFor();
    await p.mouse.move(0, 0);
    await shoot(p, 'on-desktop');
    await settings(p).getByRole('button', { name: 'Turn off' }).click();
    await settings(p).getByRole('button', { name: 'Enable notifications' }).waitFor();
    await context.close();
  });
});

describe('a notification’s link to an approval', () => {
  it('opens the inbox at that card, highlighted, and forgets the link', async () => {
    // Four tabs ask at once: the linked card (the newest, so the last) is below the fold.
    const tabs: TabView[] = [];
    for (let i = 0; i < 4; i++) tabs.push(await createTab(session));
    for (const tab of tabs) {
      const hook = await hookSender(tab);
      held.push(hook('PermissionRequest'));
      await eventually(async () => (await openApprovals()).some((a) => a.tabId === tab.id), 10_000, 'the approval');
    }
    const approvals = await openApprovals();
    const last = approvals.find((a) => a.tabId === tabs.at(-1)?.id) as Approval;

    await page.goto(new URL(`/?approval=${last.id}`, agent.url).href);
    const card = page.locator(`pm-inbox pm-approval-card[data-approval-id="${last.id}"]`);
    await page.locator(`pm-inbox pm-approval-card[data-approval-id="${last.id}"][highlight]`).waitFor();
    expect(await page.evaluate(() => location.href)).toBe(agent.url);
    await expect
      .poll(() => card.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 56 && r.bottom <= window.innerHeight;
      }), { timeout: 5_000 })
      .toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // The only ringed card, and the ring goes.
    expect(await page.locator('pm-inbox pm-approval-card[highlight]').count()).toBe(1);
    await scrollSettled(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-notifications-link-phone.png') });
    await page.locator('pm-inbox pm-approval-card[highlight]').waitFor({ state: 'detached', timeout: 6_000 });

    // A reload follows nothing.
    await page.reload();
    await card.waitFor();
    // The app follows a link once the list and the statuses are in, in the render after: let it have rendered that.
    await page.locator('pm-session-list[loaded]').waitFor();
    await page.evaluate(async () => {
      for (const name of ['pm-app', 'pm-inbox']) await (document.querySelector(name) as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    });
    expect(await page.locator('pm-inbox pm-approval-card[highlight]').count()).toBe(0);
  });

  it('says a request was already answered, and the note goes on a tap or by itself', async () => {
    const [first] = await openApprovals();
    if (!first) throw new Error('no open approval');
    expect((await api(session, 'POST', `/api/approvals/${first.id}`, { decision: 'deny' })).status).toBe(200);

    await page.goto(new URL(`/?approval=${first.id}`, agent.url).href);
    const note = page.locator('pm-inbox .link-note');
    await note.getByText('That request was already answered').waitFor();
    expect(await page.evaluate(() => location.search)).toBe('');
    await note.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-notifications-answered-phone.png') });
    await note.tap();
    await note.waitFor({ state: 'detached' });

    await page.goto(new URL(`/?approval=${first.id}`, agent.url).href);
    await note.waitFor();
    await note.waitFor({ state: 'detached', timeout: 10_000 });

    // The rest are answered too: their held hooks come back.
    for (const a of await openApprovals()) expect((await api(session, 'POST', `/api/approvals/${a.id}`, { decision: 'deny' })).status).toBe(200);
    for (const res of await Promise.all(held)) expect(res.status).toBe(200);
  });
});
