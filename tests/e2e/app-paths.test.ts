/**
 * The PWA paths no other browser test walks, in real Chromium against a real agent and its
 * real tmux (no Claude here): renaming and closing a tab and a workspace from their menus,
 * adding a workspace (a real directory, and ones the agent refuses), the phone's key bar
 * down to the bytes the pane receives, the update toast over a real service worker update,
 * and the unreachable screen when the agent stops, until it comes back by itself.
 * Screenshots: test-artifacts/e2e-app-<state>-<size>.png.
 */
import { appendFileSync, cpSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspacesResponse, WorkspaceView } from '../../protocol/api.js';
import { sessionNameFor } from '../../agent/tmux/commands.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, REPO_ROOT, startAgent, tmux } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, pairPage, screenLines, typeCommand, waitForLine } from '../support/browser.js';
import { api, createTab, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';

let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let page: Page;
let session: Session;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [agent, browser] = await Promise.all([startAgent(), launchBrowser()]);
  phone = await browser.newContext(PHONE);
  page = await phone.newPage();
  await pairPage(page, { link: agent.link }, 'Pixel 8');
  session = await localDevice(agent);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
});

function shot(p: Page, name: string): Promise<Buffer> {
  return p.screenshot({ path: join(ARTIFACTS, `e2e-app-${name}.png`) });
}

async function workspaces(s: Session = session): Promise<WorkspaceView[]> {
  const res = await api<WorkspacesResponse>(s, 'GET', '/api/workspaces');
  expect(res.status).toBe(200);
  return res.body.workspaces;
}

async function tabOnAgent(id: string): Promise<TabView | undefined> {
  return (await workspaces()).flatMap((w) => w.tabs).find((t) => t.id === id);
}

/** The names of the tmux sessions on the agent's own server: one per tab. */
async function tmuxSessions(): Promise<string[]> {
  const out = await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}').catch(() => '');
  return out.split('\n').filter(Boolean);
}

function tabRow(p: Page, id: string): Locator {
  return p.locator(`pm-tab-row[data-tab-id="${id}"]`);
}

function workspaceCard(p: Page, name: string): Locator {
  return p.getByRole('region', { name: `Workspace ${name}`, exact: true });
}

/** The id in a terminal URL (`/t/<id>`). */
function tabIdOf(p: Page): string {
  const m = /\/t\/([a-z0-9-]+)$/.exec(new URL(p.url()).pathname);
  if (!m) throw new Error(`not a terminal URL: ${p.url()}`);
  return m[1] as string;
}

/** The page's terminal rows joined: a line the phone's narrow screen wrapped reads whole again. */
async function screenText(p: Page): Promise<string> {
  return (await screenLines(p)).join('');
}

/** The pane's screen from tmux, wrapped lines joined. */
async function paneText(target: string): Promise<string> {
  return tmux(agent.tmuxSocket, 'capture-pane', '-p', '-J', '-t', `=${target}:`);
}

describe('tabs and workspaces from their menus, on a phone', () => {
  it('renames a tab: the list, the agent and a reload all have the new name', async () => {
    const tab = await createTab(session);
    await page.goto(agent.url);
    const row = tabRow(page, tab.id);
    await row.getByRole('button', { name: /^Open / }).waitFor();

    await row.getByRole('button', { name: /^Actions for / }).tap();
    await row.getByRole('button', { name: 'Rename', exact: true }).tap();
    const field = row.getByRole('textbox', { name: 'Tab name' });
    await expect.poll(() => field.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await field.fill('build watcher');
    await shot(page, 'rename-tab-phone');
    await row.getByRole('button', { name: 'Save', exact: true }).tap();

    await row.getByRole('button', { name: /^Open build watcher in / }).waitFor();
    expect(await row.getByRole('textbox', { name: 'Tab name' }).count()).toBe(0);
    await eventually(async () => (await tabOnAgent(tab.id))?.name === 'build watcher', 10_000, 'the agent to have the new tab name');

    await page.reload();
    await tabRow(page, tab.id).getByRole('button', { name: /^Open build watcher in / }).waitFor();
  });

  it('closes a tab after its confirmation: gone from the list, the agent and tmux; Cancel keeps it', async () => {
    const tab = await createTab(session);
    const tmuxName = sessionNameFor(tab.workspaceId, tab.id);
    await eventually(async () => (await tmuxSessions()).includes(tmuxName), 10_000, "the tab's tmux session");
    const row = tabRow(page, tab.id);
    await row.getByRole('button', { name: /^Open / }).waitFor();

    // Cancel on the confirmation leaves everything as it was.
    await row.getByRole('button', { name: /^Actions for / }).tap();
    await row.getByRole('button', { name: 'Close tab' }).tap();
    const confirm = row.getByRole('alertdialog');
    await confirm.getByText('Its shell and everything running in it will end.').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).tap();
    await confirm.waitFor({ state: 'detached' });
    expect(await tabOnAgent(tab.id)).toBeDefined();
    expect(await tmuxSessions()).toContain(tmuxName);

    await row.getByRole('button', { name: /^Actions for / }).tap();
    await row.getByRole('button', { name: 'Close tab' }).tap();
    await confirm.waitFor();
    await shot(page, 'close-tab-confirm-phone');
    await confirm.getByRole('button', { name: 'Close tab' }).tap();

    await row.waitFor({ state: 'detached' });
    await eventually(async () => (await tabOnAgent(tab.id)) === undefined, 10_000, 'the tab to leave the agent');
    await eventually(async () => !(await tmuxSessions()).includes(tmuxName), 10_000, "the tab's tmux session to end");
    await page.reload();
    await workspaceCard(page, 'Home').waitFor();
    expect(await tabRow(page, tab.id).count()).toBe(0);
  });
});

describe('the same menus on a desktop, in the list beside a terminal', () => {
  it('fits the rename form and the confirmation in the narrow sidebar', async () => {
    const tab = await createTab(session);
    const desktop = await browser.newContext(DESKTOP);
    await pairBrowser(desktop, agent, 'Laptop');
    const wide = await desktop.newPage();
    await wide.goto(new URL(`/t/${tab.id}`, agent.url).toString());
    await waitForLine(wide, /[$#]$/);
    const sidebar = wide.locator('pm-session-list');
    const row = tabRow(wide, tab.id);
    /** Nothing in the sidebar is wider than the sidebar. */
    const fits = () => sidebar.evaluate((el) => el.scrollWidth <= el.clientWidth);

    await row.getByRole('button', { name: /^Actions for / }).click();
    await row.getByRole('button', { name: 'Rename', exact: true }).click();
    await row.getByRole('textbox', { name: 'Tab name' }).fill('a rather long name for a tab');
    expect(await fits()).toBe(true);
    await shot(wide, 'rename-tab-desktop');
    await row.getByRole('textbox', { name: 'Tab name' }).press('Escape');
    await row.getByRole('textbox', { name: 'Tab name' }).waitFor({ state: 'detached' });
    expect((await tabOnAgent(tab.id))?.name).toBeNull();

    const card = workspaceCard(wide, 'Home');
    await card.getByRole('button', { name: 'Actions for workspace Home' }).click();
    await card.getByRole('button', { name: 'Close workspace' }).click();
    await card.getByRole('alertdialog').waitFor();
    expect(await fits()).toBe(true);
    await shot(wide, 'close-workspace-confirm-desktop');
    await card.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await card.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect((await workspaces()).some((w) => w.name === 'Home')).toBe(true);
    await desktop.close();
    await api(session, 'DELETE', `/api/tabs/${tab.id}`);
  });
});

describe('adding a workspace, then renaming and closing it, on a phone', () => {
  let dir: string;
  let added: WorkspaceView;
  let tabInIt: string;

  it('refuses a directory that does not exist, or a file, with the agent\'s words, and adds nothing', async () => {
    const before = (await workspaces()).map((w) => w.id);
    await page.goto(agent.url);
    await page.getByRole('button', { name: 'Add workspace' }).tap();
    const form = page.locator('pm-add-workspace');
    const dirField = form.getByRole('textbox', { name: "Directory on the agent's machine" });
    const missing = join(agent.home, 'no-such-dir');
    await dirField.fill(missing);
    await form.getByRole('button', { name: 'Add', exact: true }).tap();
    await form.getByRole('alert').getByText(`dir ${missing} does not exist`).waitFor();
    await shot(page, 'add-workspace-error-phone');

    const file = join(agent.home, 'notes.txt');
    writeFileSync(file, 'a file, not a directory\n');
    await dirField.fill(file);
    await form.getByRole('button', { name: 'Add', exact: true }).tap();
    await form.getByRole('alert').getByText(`dir ${file} is not a directory`).waitFor();

    expect((await workspaces()).map((w) => w.id)).toEqual(before);
    await form.getByRole('button', { name: 'Cancel' }).tap();
    await page.getByRole('button', { name: 'Add workspace' }).waitFor();
    expect(await workspaceCard(page, 'no-such-dir').count()).toBe(0);
  });

  it('adds a real directory: it shows in the list and on the agent, and a tab opened in it starts there', async () => {
    dir = join(agent.home, 'alpha');
    mkdirSync(dir);
    dir = realpathSync(dir);
    await page.goto(agent.url);
    await page.getByRole('button', { name: 'Add workspace' }).tap();
    const form = page.locator('pm-add-workspace');
    // Written as people write it: from the home directory.
    await form.getByRole('textbox', { name: "Directory on the agent's machine" }).fill('~/alpha');
    await shot(page, 'add-workspace-phone');
    await form.getByRole('button', { name: 'Add', exact: true }).tap();

    const card = workspaceCard(page, 'alpha');
    await card.waitFor();
    await card.getByText('~/alpha', { exact: true }).waitFor();
    await card.getByText('No tabs yet.').waitFor();
    added = await eventually(async () => (await workspaces()).find((w) => w.dir === dir), 10_000, 'the workspace on the agent');
    expect(added.name).toBe('alpha');
    await shot(page, 'added-workspace-phone');

    await card.getByRole('button', { name: 'New tab' }).tap();
    await page.waitForURL(/\/t\/[a-z0-9-]+$/);
    tabInIt = tabIdOf(page);
    expect((await tabOnAgent(tabInIt))?.workspaceId).toBe(added.id);
    await waitForLine(page, /[$#]$/);
    await typeCommand(page, 'echo "cwd=$(pwd)"');
    await expect.poll(() => screenText(page), { timeout: 10_000 }).toContain(`cwd=${dir}`);
    expect((await tmux(agent.tmuxSocket, 'display-message', '-p', '-t', `=${sessionNameFor(added.id, tabInIt)}:`, '#{pane_current_path}')).trim()).toBe(dir);
    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    await card.waitFor();
  });

  it('renames the workspace: the list, the agent and a reload all have the new name', async () => {
    const card = workspaceCard(page, 'alpha');
    await card.getByRole('button', { name: 'Actions for workspace alpha' }).tap();
    await card.getByRole('button', { name: 'Rename', exact: true }).tap();
    const field = card.getByRole('textbox', { name: 'Workspace name' });
    expect(await field.inputValue()).toBe('alpha');
    await field.fill('Alpha project');
    await shot(page, 'rename-workspace-phone');
    await card.getByRole('button', { name: 'Save', exact: true }).tap();

    const renamed = workspaceCard(page, 'Alpha project');
    await renamed.getByRole('heading', { name: 'Alpha project' }).waitFor();
    await eventually(async () => (await workspaces()).find((w) => w.id === added.id)?.name === 'Alpha project', 10_000, 'the agent to have the new name');
    await page.reload();
    await renamed.getByRole('heading', { name: 'Alpha project' }).waitFor();
    expect(await workspaceCard(page, 'alpha').count()).toBe(0);
    // Its tab is still there, in it.
    await renamed.locator(`pm-tab-row[data-tab-id="${tabInIt}"]`).waitFor();
  });

  it('closes the workspace after its confirmation: it, its tab and the tab\'s tmux session are gone', async () => {
    const tmuxName = sessionNameFor(added.id, tabInIt);
    expect(await tmuxSessions()).toContain(tmuxName);
    const card = workspaceCard(page, 'Alpha project');
    await card.getByRole('button', { name: 'Actions for workspace Alpha project' }).tap();
    await card.getByRole('button', { name: 'Close workspace' }).tap();
    const confirm = card.getByRole('alertdialog');
    await confirm.getByText('Close workspace “Alpha project”? Its tab and everything running in it will end.').waitFor();
    await shot(page, 'close-workspace-confirm-phone');
    await confirm.getByRole('button', { name: 'Close workspace' }).tap();

    await card.waitFor({ state: 'detached' });
    await eventually(async () => !(await workspaces()).some((w) => w.id === added.id), 10_000, 'the workspace to leave the agent');
    expect(await tabOnAgent(tabInIt)).toBeUndefined();
    await eventually(async () => !(await tmuxSessions()).includes(tmuxName), 10_000, "the tab's tmux session to end");
    await page.reload();
    await workspaceCard(page, 'Home').waitFor();
    expect(await workspaceCard(page, 'Alpha project').count()).toBe(0);
  });
});

describe("the phone's key bar", () => {
  it('sends Esc, Tab, the arrows and Ctrl+C to the pane as the bytes a keyboard sends', async () => {
    await page.goto(agent.url);
    await workspaceCard(page, 'Home').getByRole('button', { name: 'New tab' }).tap();
    await page.waitForURL(/\/t\/[a-z0-9-]+$/);
    const id = tabIdOf(page);
    const tab = await eventually(() => tabOnAgent(id), 10_000, 'the tab on the agent');
    const target = sessionNameFor(tab.workspaceId, id);
    await waitForLine(page, /[$#]$/);

    // `od -c` shows every byte it reads; without `isig` Ctrl+C is a byte rather than a signal.
    await typeCommand(page, 'stty -isig; od -c; stty isig');
    await eventually(
      async () => (await tmux(agent.tmuxSocket, 'display-message', '-p', '-t', `=${target}:`, '#{pane_current_command}')).trim() === 'od',
      10_000,
      'od to run in the pane',
    );
    const bar = page.getByRole('toolbar', { name: 'Terminal keys' });
    for (const key of ['Esc (Escape)', 'Tab', 'Up', 'Down', 'Left', 'Right']) await bar.getByRole('button', { name: key, exact: true }).tap();
    const ctrl = bar.getByRole('button', { name: 'Ctrl (Control)' });
    await ctrl.tap();
    await expect.poll(() => ctrl.getAttribute('aria-pressed')).toBe('true');
    await shot(page, 'key-bar-ctrl-phone');
    await page.keyboard.type('c');
    await expect.poll(() => ctrl.getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Enter');
    // Ctrl, then d: end of input, and od prints what it read.
    await ctrl.tap();
    await page.keyboard.type('d');

    const line = await eventually(async () => (await paneText(target)).split('\n').find((l) => l.startsWith('0000000 ')), 10_000, "od's first line");
    expect(line.slice('0000000'.length).trim().split(/\s+/)).toEqual(['033', '\\t', '033', '[', 'A', '033', '[', 'B', '033', '[', 'D', '033', '[', 'C', '003', '\\n']);
    // The page shows the same: od's end offset (16 bytes, octal 20) and the shell back.
    await waitForLine(page, '0000020');
    await waitForLine(page, /[$#]$/);
    await shot(page, 'key-bar-bytes-phone');
  });
});

describe('a tab address the agent does not know', () => {
  it('says there is no such tab, offers only the way back, and no Find or Text size, at phone and desktop size', async () => {
    const desktop = await browser.newContext(DESKTOP);
    await pairBrowser(desktop, agent, 'Wide');
    const wide = await desktop.newPage();
    for (const [size, p] of [
      ['phone', page],
      ['desktop', wide],
    ] as const) {
      for (const path of ['/t/no-such-tab', '/t/no-such-tab/timeline']) {
        await p.goto(new URL(path, agent.url).href);
        const card = p.getByRole('alert').filter({ hasText: 'No such tab' });
        await card.getByText('pocketmux has no tab at this address').waitFor();
        expect(await p.getByRole('button', { name: 'Find' }).count(), `${size} ${path}`).toBe(0);
        expect(await p.getByRole('button', { name: 'Text size' }).count(), `${size} ${path}`).toBe(0);
        expect(await p.getByRole('group', { name: 'Show' }).count(), `${size} ${path}`).toBe(0);
        expect(await p.getByPlaceholder(/nothing to type into/).count(), `${size} ${path}`).toBe(0);
        if (path.endsWith('/timeline')) continue;
        await shot(p, `no-such-tab-${size}`);
        await card.getByRole('button', { name: 'Back to sessions' }).click();
        await p.waitForURL(new URL('/', agent.url).href);
        await p.getByRole('heading', { name: 'Home' }).first().waitFor();
      }
    }
    await desktop.close();
  });
});

describe('the update toast', () => {
  it('offers a new service worker once it waits, and its button reloads the page under it', async () => {
    // A copy of the built package, so its sw.js can change between two loads as after an upgrade.
    const env = newTestEnvironment();
    const pkg = join(env.root, 'package');
    for (const part of ['bin', 'package.json', join('dist', 'agent'), join('dist', 'protocol'), join('dist', 'pwa')]) {
      cpSync(join(REPO_ROOT, part), join(pkg, part), { recursive: true });
    }
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    const copy = await startAgent({ reuse: env, bin: join(pkg, 'bin', 'pocketmux.js') });

    const pages: { p: Page; size: string }[] = [];
    for (const [options, size] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const context = await browser.newContext(options);
      await pairBrowser(context, copy, `Updating ${size}`);
      const p = await context.newPage();
      await p.goto(copy.url);
      await workspaceCard(p, 'Home').waitFor();
      // Only a page loaded under a service worker has one to update from.
      await p.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await p.reload();
      await expect.poll(() => p.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 10_000 }).toBe(true);
      await workspaceCard(p, 'Home').waitFor();
      pages.push({ p, size });
    }
    expect(await pages[0]?.p.getByText('A new version of pocketmux is ready.').count()).toBe(0);

    // The next build: its worker answers which build it is.
    appendFileSync(
      join(pkg, 'dist', 'pwa', 'sw.js'),
      "\n// The next build.\nself.addEventListener('message', (e) => { if (e.data === 'pm-which-build') e.source?.postMessage('next-build'); });\n",
    );
    for (const { p, size } of pages) {
      // The app looks for a new version when it comes back into view, as an installed app
      // brought back from the background does.
      await p.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      const toast = p.locator('pm-update-toast').getByRole('status');
      // The new worker precaches every file of the app before it waits: on a machine running
      // several browsers at once that took longer than 15 s.
      await toast.getByText('A new version of pocketmux is ready.').waitFor({ timeout: 45_000 });
      await expect.poll(() => p.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null), { timeout: 10_000 }).toBe(true);
      await shot(p, `update-toast-${size}`);
    }

    const { p } = pages[0] as { p: Page };
    await p.evaluate(() => {
      (window as unknown as { beforeUpdate?: boolean }).beforeUpdate = true;
    });
    const reloaded = p.waitForEvent('load');
    await p.locator('pm-update-toast').getByRole('button', { name: 'Reload' }).tap();
    await reloaded;
    expect(await p.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
    await workspaceCard(p, 'Home').waitFor();
    const build = await p.evaluate(
      () =>
        new Promise<string>((resolve) => {
          navigator.serviceWorker.addEventListener('message', (e) => resolve(String(e.data)));
          navigator.serviceWorker.controller?.postMessage('pm-which-build');
          setTimeout(() => resolve('no answer'), 5_000);
        }),
    );
    expect(build).toBe('next-build');
    expect(await p.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull();
    expect(await p.getByText('A new version of pocketmux is ready.').count()).toBe(0);
    for (const { p: each } of pages) await each.context().close();
  }, 90_000);
});

describe('the unreachable screen', () => {
  it('shows when the agent stops before a fresh device saved anything, and gives way to the app when it is back', async () => {
    const env = newTestEnvironment();
    let down = await startAgent({ reuse: env });
    const port = down.port;

    // The agent stops while the next page of each device is on its way: the check of the
    // device's access is held until then. Pairing showed each device the lists, and it kept
    // them for the offline view; that is deleted first, so nothing of the sessions is saved.
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const hold = async (route: Route) => {
      await released;
      await route.continue().catch(() => undefined);
    };
    const pages: { p: Page; size: string }[] = [];
    for (const [options, size] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const context = await browser.newContext(options);
      await pairBrowser(context, down, `Fresh ${size}`);
      await context.route('**/api/session', hold);
      const p = await context.newPage();
      const asked = p.waitForRequest('**/api/session');
      await p.goto(down.url);
      await asked;
      await p.evaluate(
        () =>
          new Promise<void>((resolve, reject) => {
            const deleting = indexedDB.deleteDatabase('pocketmux-offline');
            deleting.onsuccess = () => resolve();
            deleting.onerror = () => reject(deleting.error);
          }),
      );
      expect(await p.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).not.toContain('pocketmux-offline');
      pages.push({ p, size });
    }
    expect(await down.stop()).toBe(0);
    release();

    for (const { p, size } of pages) {
      const screen = p.locator('pm-unreachable-screen');
      await screen.getByRole('heading', { name: "Can't reach pocketmux" }).waitFor({ timeout: 15_000 });
      await screen.getByRole('alert').getByText('Could not reach the agent. Is pocketmux still running?').waitFor();
      await screen.getByText('This page keeps trying. If the agent stopped, start it again on its machine:').waitFor();
      await screen.locator('code').first().getByText('pocketmux start', { exact: true }).waitFor();
      // No broken image where the logo goes: the agent that serves it is down.
      await expect
        .poll(() => screen.locator('img.logo').evaluate((img: HTMLImageElement) => img.hidden || (img.complete && img.naturalWidth > 0)))
        .toBe(true);
      expect(await p.locator('pm-session-list').count()).toBe(0);
      expect(await p.locator('pm-offline-view').count()).toBe(0);
      await shot(p, `unreachable-${size}`);
    }

    // Back on the same port, with the same data: each page comes in by itself, no reload.
    for (const { p } of pages) {
      await p.evaluate(() => {
        (window as unknown as { sameDocument?: boolean }).sameDocument = true;
      });
    }
    down = await startAgent({ reuse: env, args: ['--port', String(port)] });
    expect(down.port).toBe(port);
    for (const { p } of pages) {
      await workspaceCard(p, 'Home').waitFor({ timeout: 30_000 });
      expect(await p.locator('pm-unreachable-screen').count()).toBe(0);
      expect(await p.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await p.context().close();
    }
  }, 90_000);
});
