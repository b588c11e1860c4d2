/**
 * The offline read-only view in real Chromium, against a real agent, made real without Claude:
 * a Claude tab whose claude is a stand-in, told about by the agent's installed hook script
 * (its session's transcript, and a permission request held open: an approval card). The
 * phone sees the list, the card and the tab's timeline once, under the service worker; then
 * the network goes (and, apart, the agent stops), and a reload shows the last-known inbox
 * and sessions, read-only, under the offline bar, and the timeline this device saved. When
 * the agent answers again the live app takes over by itself, with no reload. A device that
 * loses its access keeps nothing: its database is deleted.
 * Screenshots: test-artifacts/e2e-offline-<view>-<size>-<theme>.png.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionResponse, TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { ARTIFACTS, browserApi, DESKTOP, launchBrowser, PHONE, pairBrowser, pairPage } from '../support/browser.js';
import { api, createTab, localDevice, pairAnother, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { type OutsideFixture, outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { claudeStandIn } from '../support/claude-stand-in.js';
import { paneEnv } from '../support/status.js';
import { HISTORY_STORAGE_KEY } from '../../pwa/timeline/composer-history.js';

const DB_NAME = 'pocketmux-offline';
/** A line of the captured transcript: the first prompt of the saved conversation. */
const SAVED_PROMPT = 'please run it';
const COMMAND = 'npm run check-offline';

let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let page: Page;
let session: Session;
let claudeBin: string;
let project: OutsideFixture;
let claudeTab: TabView;
let otherClaude: TabView;
let shellTab: TabView;
let approval: Approval;
/** A second device, paired by the phone: it revokes the phone. */
let laptop: Session;
/** Hook scripts held open on an approval; any still running at the end is stopped. */
const held: ChildProcess[] = [];

/**
 * A claude for the agent to start in a Claude tab: it answers `--version` as the real one
 * does, then runs the stand-in (a `claude` that echoes lines), so the tab's pane runs a
 * process named claude.
 */
function writeClaudeBin(root: string): string {
  const bin = join(root, 'claude-bin');
  writeFileSync(bin, `#!/bin/sh\nif [ "$1" = --version ]; then echo '2.1.332 (Claude Code)'; exit 0; fi\nexec '${claudeStandIn(root)}'\n`, { mode: 0o755 });
  return bin;
}

async function tabHook(event: string, fields: Record<string, unknown> = {}): Promise<void> {
  const run = await runHookScript(agent.dataDir, event, outsidePayload(project, event, fields), await paneEnv(agent, claudeTab));
  expect(run).toMatchObject({ code: 0, stderr: '' });
}

/** What this browser keeps in IndexedDB: the saved lists' tabs and approvals, and the timelines' keys; null with no database. */
async function saved(p: Page): Promise<{ savedAt: number; tabs: string[]; approvals: string[]; timelines: string[] } | null> {
  return p.evaluate(async (name) => {
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(name);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const get = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    try {
      const tx = db.transaction(['lists', 'timelines'], 'readonly');
      const lists = (await get(tx.objectStore('lists').get('snapshot'))) as
        | { savedAt: number; workspaces: { tabs: { id: string }[] }[]; approvals: { id: string }[] }
        | undefined;
      const timelines = (await get(tx.objectStore('timelines').getAllKeys())).map(String);
      return {
        savedAt: lists?.savedAt ?? 0,
        tabs: lists?.workspaces.flatMap((w) => w.tabs.map((t) => t.id)) ?? [],
        approvals: lists?.approvals.map((a) => a.id) ?? [],
        timelines,
      };
    } finally {
      db.close();
    }
  }, DB_NAME);
}

/** Registers the service worker, then reloads so that it controls the page, as an installed app's next start. */
async function underServiceWorker(p: Page): Promise<void> {
  await p.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await p.reload();
  await expect.poll(() => p.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 10_000 }).toBe(true);
}

/** The live list with the approval card and the tabs, and the lists saved with them. */
async function liveListSaved(p: Page): Promise<void> {
  await p.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`).getByRole('button', { name: 'Approve' }).waitFor();
  await p.locator(`pm-tab-row[data-tab-id="${shellTab.id}"]`).waitFor();
  await expect
    .poll(async () => {
      const s = await saved(p);
      return s ? { approvals: s.approvals, tabs: [...s.tabs].sort() } : null;
    }, { timeout: 10_000 })
    .toEqual({ approvals: [approval.id], tabs: [claudeTab.id, otherClaude.id, shellTab.id].sort() });
}

function offlineBar(p: Page) {
  return p.locator('pm-offline-view pm-session-list pm-offline-bar');
}

/** The offline list: the bar, the card to read (not to answer), the sessions without their actions. */
async function expectOfflineList(p: Page): Promise<void> {
  const bar = offlineBar(p);
  await bar.getByRole('status').filter({ hasText: /Offline · last updated \d/ }).waitFor({ timeout: 15_000 });
  await bar.getByRole('button', { name: 'Retry now' }).waitFor();
  const card = p.locator(`pm-offline-view pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`);
  await card.locator('pre').getByText(COMMAND).waitFor();
  await card.getByText('Offline: answer it here once pocketmux is back.').waitFor();
  expect(await card.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  expect(await card.getByRole('button', { name: 'Deny' }).count()).toBe(0);
  expect(await card.getByRole('button', { name: 'Open terminal' }).count()).toBe(0);
  await card.getByRole('button', { name: 'Timeline' }).waitFor();
  for (const tab of [claudeTab, otherClaude, shellTab]) await p.locator(`pm-tab-row[data-tab-id="${tab.id}"]`).getByRole('button', { name: /^Open / }).waitFor();
  expect(await p.locator(`pm-tab-row[data-tab-id="${claudeTab.id}"]`).getByRole('button', { name: /^Open Claude.*Needs input/ }).count()).toBe(1);
  for (const gone of ['New tab', 'New Claude', 'Settings', /^Actions for/, /^Add/]) {
    expect(await p.getByRole('button', { name: gone }).count(), String(gone)).toBe(0);
  }
}

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(p: Page): Promise<void> {
  expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** Screenshots of what the page shows in both themes (it follows the system's here), dark last. */
async function screenshots(p: Page, view: string, size: 'phone' | 'desktop'): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme: theme });
    await expect.poll(() => p.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    await p.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))));
    await p.screenshot({ path: join(ARTIFACTS, `e2e-offline-${view}-${size}-${theme}.png`) });
  }
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  project = outsideFixture(env.home, 'web-app');
  claudeBin = writeClaudeBin(env.root);
  [agent, browser] = await Promise.all([startAgent({ reuse: env, args: ['--claude-bin', claudeBin] }), launchBrowser()]);
  phone = await browser.newContext({ ...PHONE, colorScheme: 'dark' });
  page = await phone.newPage();
  await pairPage(page, { link: agent.link }, 'Pixel 8');
  session = await localDevice(agent);

  const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project.cwd, name: 'web-app' });
  const claude = async (name?: string) => (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', ...(name ? { name } : {}) })).body;
  claudeTab = await claude();
  // A Claude tab never opened on the phone: nothing of it is saved.
  otherClaude = await claude('review');
  shellTab = await createTab(session, ws.body.id);
  expect([claudeTab.kind, otherClaude.kind]).toEqual(['claude', 'claude']);

  // The Claude tab's session, with the captured transcript, and a command it asks to run.
  await tabHook('SessionStart');
  await tabHook('UserPromptSubmit');
  const request = outsidePayload(project, 'PermissionRequest', { tool_input: { command: COMMAND, description: 'Run the checks' } });
  void runHookScript(agent.dataDir, 'PermissionRequest', request, await paneEnv(agent, claudeTab), (child) => held.push(child));
  approval = await eventually(async () => {
    const r = await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals');
    return r.body.approvals.find((a) => a.tabId === claudeTab.id);
  }, 10_000, 'the approval');
}, 90_000);

afterAll(async () => {
  for (const child of held) if (child.exitCode === null && child.signalCode === null) child.kill();
  await browser?.close();
  await cleanupAgents();
});

describe('the offline view', () => {
  it('keeps the list and a timeline seen, and shows them read-only with the network gone; the live app comes back by itself', async () => {
    await underServiceWorker(page);
    await liveListSaved(page);

    // The tab's timeline, seen once, is kept too.
    await page.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`).getByRole('button', { name: 'Timeline' }).click();
    await page.waitForURL(new RegExp(`/t/${claudeTab.id}/timeline$`));
    await page.locator('pm-timeline-view').getByText(SAVED_PROMPT).first().waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await saved(page))?.timelines, { timeout: 10_000 }).toEqual([claudeTab.id]);
    await page.goBack();
    await page.locator(`pm-tab-row[data-tab-id="${shellTab.id}"]`).waitFor();

    await phone.setOffline(true);
    await page.reload();
    await expectOfflineList(page);
    expect(await page.getByRole('heading', { name: "Can't reach pocketmux" }).count()).toBe(0);
    await expectNoSidewaysScroll(page);
    await screenshots(page, 'list', 'phone');

    // The saved timeline, read-only: no composer.
    await page.locator(`pm-approval-card[data-approval-id="${approval.id}"]`).getByRole('button', { name: 'Timeline' }).click();
    await page.waitForURL(new RegExp(`/t/${claudeTab.id}/timeline$`));
    const screen = page.locator('pm-offline-tab');
    await screen.locator('pm-timeline-view').getByText(SAVED_PROMPT).first().waitFor();
    await screen.getByRole('heading', { name: 'Claude' }).waitFor();
    await screen.locator('pm-offline-bar').getByRole('status').filter({ hasText: 'Offline' }).waitFor();
    expect(await screen.locator('pm-composer').count()).toBe(0);
    expect(await screen.getByRole('textbox').count()).toBe(0);
    await expectNoSidewaysScroll(page);
    await screenshots(page, 'timeline', 'phone');

    // A Claude tab never opened here has nothing saved; a shell tab's terminal needs the agent.
    await page.goBack();
    await page.locator(`pm-tab-row[data-tab-id="${otherClaude.id}"]`).getByRole('button', { name: /^Open review/ }).click();
    await screen.getByText('Nothing saved for this tab.', { exact: false }).waitFor();
    await page.goBack();
    await page.locator(`pm-tab-row[data-tab-id="${shellTab.id}"]`).getByRole('button', { name: /^Open / }).click();
    await screen.getByText('The terminal needs pocketmux', { exact: false }).waitFor();
    await screen.getByRole('button', { name: 'Back to sessions' }).click();
    await offlineBar(page).waitFor();

    // Every path of the app opens from the service worker's shell; nothing under /api comes from a cache.
    for (const path of [`/t/${claudeTab.id}`, `/t/${claudeTab.id}/timeline`, '/settings', '/']) {
      await page.goto(new URL(path, agent.url).href);
      await page.locator('pm-offline-bar').filter({ visible: true }).getByRole('status').filter({ hasText: 'Offline' }).waitFor({ timeout: 15_000 });
    }
    await page.goto(new URL('/settings', agent.url).href);
    await screen.getByRole('heading', { name: 'Settings' }).waitFor();
    await screen.getByText('Settings need pocketmux', { exact: false }).waitFor();
    await page.goto(new URL(`/t/${claudeTab.id}`, agent.url).href);
    await screen.locator('pm-timeline-view').getByText(SAVED_PROMPT).first().waitFor();
    expect(await page.evaluate(() => fetch('/api/session').then((r) => r.status, () => 'failed'))).toBe('failed');
    await page.goto(agent.url);
    await offlineBar(page).waitFor();

    // The network returns: the live app takes over in this same page, and the bar goes.
    await page.evaluate(() => {
      (window as unknown as { notReloaded?: boolean }).notReloaded = true;
    });
    await phone.setOffline(false);
    await page.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`).getByRole('button', { name: 'Approve' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('pm-offline-bar').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Settings' }).count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  }, 120_000);

  it('shows the same with the agent stopped, retries by itself, and hands over when it is back', async () => {
    await liveListSaved(page);
    await agent.stop();
    await page.reload();
    await offlineBar(page).getByRole('status').filter({ hasText: /Offline · last updated/ }).waitFor({ timeout: 15_000 });
    for (const tab of [claudeTab, otherClaude, shellTab]) await page.locator(`pm-offline-view pm-tab-row[data-tab-id="${tab.id}"]`).waitFor();

    // "Retry now" with the agent still down: the view stays.
    await offlineBar(page).getByRole('button', { name: 'Retry now' }).click();
    await offlineBar(page).getByText('Trying to reach pocketmux…').waitFor();
    await offlineBar(page).getByText("Can't reach pocketmux; retrying.").waitFor({ timeout: 10_000 });
    expect(await page.locator('pm-unreachable-screen').count()).toBe(0);

    await page.evaluate(() => {
      (window as unknown as { notReloaded?: boolean }).notReloaded = true;
    });
    agent = await startAgent({ reuse: agent, args: ['--port', String(agent.port), '--claude-bin', claudeBin] });
    // No `online` event here: the backoff finds the agent.
    await page.locator(`pm-session-list:not([offline]) pm-tab-row[data-tab-id="${shellTab.id}"]`).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('pm-offline-bar').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  }, 120_000);

  it('looks right on a desktop too, in both themes', async () => {
    const desktop = await browser.newContext({ ...DESKTOP, colorScheme: 'dark' });
    await pairBrowser(desktop, agent, 'Desktop');
    const p = await desktop.newPage();
    await p.goto(agent.url);
    // Another card to read: the restarted agent forgot the first.
    const request = outsidePayload(project, 'PermissionRequest', { tool_input: { command: COMMAND, description: 'Run the checks' } });
    void runHookScript(agent.dataDir, 'PermissionRequest', request, await paneEnv(agent, claudeTab), (child) => held.push(child));
    approval = await eventually(async () => {
      const r = await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals');
      return r.body.approvals.find((a) => a.tabId === claudeTab.id);
    }, 10_000, 'the approval');
    await underServiceWorker(p);
    await liveListSaved(p);
    await desktop.setOffline(true);
    await p.reload();
    await expectOfflineList(p);
    await screenshots(p, 'list', 'desktop');
    await desktop.close();
  }, 60_000);

  it('deletes everything saved when the device is revoked: a reload offline shows nothing of the sessions', async () => {
    await page.reload();
    await liveListSaved(page);
    // What the composer keeps of the prompts sent from here, as it writes it.
    const history = JSON.stringify({ v: 1, sessions: { "s-1": { at: Date.now(), entries: ['deploy with the staging token'] } } });
    await page.evaluate(([key, value]) => localStorage.setItem(key as string, value as string), [HISTORY_STORAGE_KEY, history]);
    const me = (await browserApi<SessionResponse>(page, 'GET', '/api/session')).body.deviceId;
    laptop = await pairAnother(agent, session, 'Laptop');
    expect((await api(laptop, 'DELETE', `/api/devices/${me}`)).status).toBe(204);

    await page.getByRole('heading', { name: 'This device was removed' }).waitFor({ timeout: 10_000 });
    await expect.poll(() => saved(page), { timeout: 10_000 }).toBeNull();
    expect(await page.evaluate((key) => localStorage.getItem(key), HISTORY_STORAGE_KEY)).toBeNull();
    await phone.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: "Can't reach pocketmux" }).waitFor({ timeout: 15_000 });
    expect(await page.locator('pm-offline-view').count()).toBe(0);
    expect(await page.locator('pm-session-list').count()).toBe(0);
    expect(await page.getByText('web-app').count()).toBe(0);
    expect(await saved(page)).toBeNull();
    await phone.setOffline(false);
  }, 60_000);

  it('deletes it too when a device revoked while away opens again', async () => {
    const tablet = await browser.newContext(PHONE);
    const p = await tablet.newPage();
    // Paired through a code, as another phone would.
    const pairing = await api<{ code: string }>(laptop, 'POST', '/api/pairings');
    await pairPage(p, { url: agent.url, code: pairing.body.code }, 'Tablet');
    await expect.poll(async () => ((await saved(p))?.tabs ?? []).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const id = (await browserApi<SessionResponse>(p, 'GET', '/api/session')).body.deviceId;
    await p.close();
    expect((await api(laptop, 'DELETE', `/api/devices/${id}`)).status).toBe(204);

    const again = await tablet.newPage();
    await again.goto(agent.url);
    await again.getByRole('heading', { name: 'This device was removed' }).waitFor();
    await expect.poll(() => saved(again), { timeout: 10_000 }).toBeNull();
    await tablet.close();
  }, 60_000);
});
