/**
 * The desktop split in real Chromium against a real agent and tmux: the list as a sidebar, two
 * live terminals side by side (each typed into, each its own tmux window at its own size), a
 * divider dragged, the layout remembered across a reload, stacked panes, the app's keyboard
 * shortcuts (next tab, tab N, the sidebar, the help sheet) never reaching the shell.
 */
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { sessionNameFor } from '../../agent/tmux/commands.js';
import { tmux } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, PHONE, pairPage, sessionOf, useAgentAndBrowser } from '../support/browser.js';
import { api, createTab, eventually, type Session } from '../support/client.js';

const env = useAgentAndBrowser();

let session: Session;
let context: BrowserContext;
let page: Page;
let first: TabView;
let second: TabView;

beforeAll(async () => {
  context = await env.browser.newContext(DESKTOP);
  page = await context.newPage();
  await pairPage(page, { link: env.agent.link });
  session = await sessionOf(context, env.agent);
  first = await createTab(session);
  second = await createTab(session);
  // Named, so the sidebar, the split menu and the shortcuts can be told apart by name.
  for (const [tab, name] of [
    [first, 'alpha'],
    [second, 'beta'],
  ] as const) {
    const res = await api(session, 'PATCH', `/api/tabs/${tab.id}`, { name });
    expect(res.status).toBeLessThan(300);
  }
});

afterAll(async () => {
  await context?.close();
});

function pane(tab: TabView): Locator {
  return page.locator(`pm-workbench pm-terminal-view[data-tab-id="${tab.id}"]`);
}

/** What the pane's terminal shows, row by row. */
async function paneLines(tab: TabView): Promise<string[]> {
  const rows = await pane(tab).locator('.xterm-rows > div').allTextContents();
  return rows.map((r) => r.replace(/\u00a0/g, ' ').trimEnd());
}

async function capture(tab: TabView): Promise<string> {
  return tmux(env.agent.tmuxSocket, 'capture-pane', '-p', '-t', `=${sessionNameFor(tab.workspaceId, tab.id)}:`);
}

async function windowWidth(tab: TabView): Promise<number> {
  return Number((await tmux(env.agent.tmuxSocket, 'display-message', '-p', '-t', `=${sessionNameFor(tab.workspaceId, tab.id)}:`, '#{window_width}')).trim());
}

async function typeInto(tab: TabView, command: string): Promise<void> {
  await pane(tab).locator('.xterm-screen').click();
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
}

async function activeTab(): Promise<string | null> {
  return page.evaluate(() => {
    for (const view of document.querySelectorAll('pm-workbench pm-terminal-view')) {
      if (view.contains(document.activeElement)) return view.getAttribute('data-tab-id');
    }
    return null;
  });
}

describe('the desktop split', () => {
  it('opens a tab beside the list, then a second one beside it, and both take typing at once', async () => {
    await page.goto(new URL(`/t/${first.id}`, env.agent.url).href);
    await pane(first).locator('.xterm-screen').waitFor();
    // The whole main area's width, in columns, before it is shared.
    const whole = await eventually(async () => ((await windowWidth(first)) > 0 ? windowWidth(first) : null), 10_000, 'tmux to learn the width');
    // The list stands beside the tab as a sidebar, with its inbox bell.
    const sidebar = page.locator('pm-session-list');
    await sidebar.getByRole('button', { name: /^Open beta/ }).waitFor();
    expect((await sidebar.boundingBox())?.width).toBe(360);

    await pane(first).getByRole('button', { name: 'Open another tab beside' }).click();
    const menu = page.getByRole('dialog', { name: 'Open another tab beside' });
    await menu.getByRole('button', { name: /beta/ }).click();
    await pane(second).locator('.xterm-screen').waitFor();
    await page.waitForURL(new RegExp(`/t/${second.id}$`));
    await expect.poll(() => page.title()).toBe('beta · pocketmux');

    // The sidebar marks both tabs as on screen.
    for (const tab of [first, second]) {
      await expect.poll(() => page.locator(`pm-tab-row[data-tab-id="${tab.id}"] button.open`).getAttribute('aria-current')).toBe('true');
    }
    const [a, b] = [await pane(first).boundingBox(), await pane(second).boundingBox()];
    if (!a || !b) throw new Error('panes not laid out');
    expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
    expect(Math.abs(a.width - b.width)).toBeLessThan(4);

    // Output into both at once, each pane showing only its own.
    const loop = (tag: string) => `for i in 1 2 3 4 5 6; do echo ${tag}-$i; sleep 0.1; done`;
    await Promise.all([
      api(session, 'POST', `/api/tabs/${first.id}/input`, { text: loop('left') }),
      api(session, 'POST', `/api/tabs/${second.id}/input`, { text: loop('right') }),
    ]);
    await expect.poll(async () => (await paneLines(first)).includes('left-6'), { timeout: 10_000 }).toBe(true);
    await expect.poll(async () => (await paneLines(second)).includes('right-6'), { timeout: 10_000 }).toBe(true);
    expect((await paneLines(first)).some((l) => l.startsWith('right-'))).toBe(false);
    expect((await paneLines(second)).some((l) => l.startsWith('left-'))).toBe(false);

    // Typed from the keyboard into each, by clicking it: each reaches its own tmux pane.
    await typeInto(first, 'echo typed-$((20+1))');
    await typeInto(second, 'echo typed-$((40+2))');
    await eventually(async () => (await capture(first)).includes('typed-21'), 10_000, 'the left pane to run what was typed');
    await eventually(async () => (await capture(second)).includes('typed-42'), 10_000, 'the right pane to run what was typed');
    expect(await capture(first)).not.toContain('typed-42');
    expect(await capture(second)).not.toContain('typed-21');
    expect(await activeTab()).toBe(second.id);
    await page.waitForURL(new RegExp(`/t/${second.id}$`));

    // Each terminal told tmux its own size: two halves of the main area.
    const [wa, wb] = [await windowWidth(first), await windowWidth(second)];
    expect(Math.abs(wa - wb)).toBeLessThanOrEqual(2);
    expect(wa).toBeGreaterThan(whole * 0.4);
    expect(wa).toBeLessThan(whole * 0.6);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-split-desktop.png') });
  }, 60_000);

  it('resizes the panes by dragging the divider and by its arrow keys, and tells tmux', async () => {
    const divider = page.getByRole('separator', { name: 'Resize alpha and beta' });
    const before = Number(await divider.getAttribute('aria-valuenow'));
    expect(before).toBe(50);
    const box = await divider.boundingBox();
    if (!box) throw new Error('no divider');
    const widthBefore = await windowWidth(first);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 200, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    const after = Number(await divider.getAttribute('aria-valuenow'));
    expect(after).toBeGreaterThan(before + 10);
    await eventually(async () => (await windowWidth(first)) > widthBefore + 5, 10_000, 'tmux to learn the wider pane');

    // The keyboard moves it too, in steps of 5%, never past 15% from an edge.
    await divider.focus();
    await page.keyboard.press('ArrowLeft');
    expect(Number(await divider.getAttribute('aria-valuenow'))).toBe(after - 5);
    await page.keyboard.press('End');
    expect(Number(await divider.getAttribute('aria-valuenow'))).toBe(85);
    await page.keyboard.press('Enter');
    expect(Number(await divider.getAttribute('aria-valuenow'))).toBe(50);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(Number(await divider.getAttribute('aria-valuenow'))).toBe(60);
  }, 30_000);

  it('remembers the layout on this device across a reload', async () => {
    await page.reload();
    await pane(first).locator('.xterm-screen').waitFor();
    await pane(second).locator('.xterm-screen').waitFor();
    expect(await page.getByRole('separator', { name: 'Resize alpha and beta' }).getAttribute('aria-valuenow')).toBe('60');
    // The address named the focused pane; it has the keyboard again.
    expect(page.url()).toMatch(new RegExp(`/t/${second.id}$`));
    await expect.poll(() => activeTab()).toBe(second.id);
  }, 30_000);

  it('stacks the panes, and a tab opened from the sidebar goes in the focused pane', async () => {
    await pane(first).getByRole('button', { name: 'Open another tab beside' }).click();
    const menu = page.getByRole('dialog', { name: 'Open another tab beside' });
    await menu.getByRole('button', { name: 'Stacked' }).click();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect
      .poll(async () => {
        const [a, b] = [await pane(first).boundingBox(), await pane(second).boundingBox()];
        return a && b ? b.y >= a.y + a.height && Math.abs(a.x - b.x) < 2 : false;
      })
      .toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-split-stacked-desktop.png') });

    // A third tab, opened from the sidebar: it replaces what the focused pane (alpha, clicked last) showed.
    const third = await createTab(session);
    await page.locator(`pm-tab-row[data-tab-id="${third.id}"] button.open`).click();
    await pane(third).locator('.xterm-screen').waitFor();
    await page.waitForURL(new RegExp(`/t/${third.id}$`));
    expect(await pane(first).count()).toBe(0);
    expect(await pane(second).count()).toBe(1);
    // Back to side by side, and alpha again in the pane third took.
    await pane(third).getByRole('button', { name: 'Open another tab beside' }).click();
    await menu.getByRole('button', { name: 'Side by side' }).click();
    await page.keyboard.press('Escape');
    await page.locator(`pm-tab-row[data-tab-id="${first.id}"] button.open`).click();
    await pane(first).locator('.xterm-screen').waitFor();
    const res = await api(session, 'DELETE', `/api/tabs/${third.id}`);
    expect(res.status).toBeLessThan(300);
  }, 30_000);

  it('moves between tabs with the keyboard, and the keys never reach the shell', async () => {
    await pane(first).locator('.xterm-screen').click();
    await page.waitForURL(new RegExp(`/t/${first.id}$`));
    await typeInto(first, 'clear');
    await eventually(async () => !(await capture(first)).includes('clear'), 10_000, 'the screen to clear');
    // Next tab: beta, already in the other pane, takes the focus (and the address).
    await page.keyboard.press('Control+Shift+BracketRight');
    await page.waitForURL(new RegExp(`/t/${second.id}$`));
    await expect.poll(() => activeTab()).toBe(second.id);
    // Tab 1 of the list: alpha.
    await page.keyboard.press('Control+Shift+Digit1');
    await page.waitForURL(new RegExp(`/t/${first.id}$`));
    await expect.poll(() => activeTab()).toBe(first.id);
    // Previous tab, from the first: wraps to the last of the list (beta).
    await page.keyboard.press('Control+Shift+BracketLeft');
    await page.waitForURL(new RegExp(`/t/${second.id}$`));
    // Nothing of these keys was typed into alpha's shell: its prompt line is bare.
    await typeInto(first, 'echo after-keys');
    await eventually(async () => (await capture(first)).includes('after-keys'), 10_000, 'the shell to answer');
    const lines = (await capture(first)).split('\n').filter((l) => l.trim() !== '');
    expect(lines.some((l) => /\^\]|\^\[|\u001d/.test(l))).toBe(false);
    expect(lines.filter((l) => l.includes('echo after-keys'))).toHaveLength(1);

    // The sidebar: the row of the tab on screen takes the focus.
    await page.keyboard.press('Control+Shift+KeyE');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.tagName.toLowerCase()))
      .toBe('pm-session-list');
    const focusedRow = await page.evaluate(() => {
      // Down through the shadow roots to the element that has the focus, noting the row on the way.
      let el: Element | null | undefined = document.activeElement;
      let row: string | null = null;
      while (el) {
        if (el.tagName === 'PM-TAB-ROW') row = el.getAttribute('data-tab-id');
        el = el.shadowRoot?.activeElement;
      }
      return row;
    });
    expect(focusedRow).toBe(first.id);

    // The help sheet lists the app's keys and the terminal's; Escape closes it.
    await page.keyboard.press('Control+Shift+Slash');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    await sheet.getByRole('rowheader', { name: 'Next tab' }).waitFor();
    await sheet.getByRole('rowheader', { name: 'Find in the terminal' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-shortcuts-sheet-desktop.png') });
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  }, 30_000);

  it('closes a pane and the other takes the whole main area', async () => {
    await pane(second).getByRole('button', { name: 'Close the pane of beta' }).click();
    await pane(second).waitFor({ state: 'detached' });
    await page.waitForURL(new RegExp(`/t/${first.id}$`));
    const main = await page.locator('pm-workbench').boundingBox();
    const only = await pane(first).boundingBox();
    if (!main || !only) throw new Error('not laid out');
    expect(Math.abs(main.width - only.width)).toBeLessThan(2);
    expect(await page.getByRole('separator').count()).toBe(0);
    // Alone, the pane closes no more: its way out leads back to the list, as on a phone.
    await page.getByRole('button', { name: 'Close the pane of alpha' }).waitFor({ state: 'detached' });
    await pane(first).getByRole('button', { name: 'Back to sessions' }).click();
    await page.waitForURL(env.agent.url);
    expect(await page.locator('pm-workbench').count()).toBe(0);
  }, 30_000);

  it('on a narrow window and on a phone, a tab fills the screen with a way back, as before', async () => {
    const phone = await env.browser.newContext(PHONE);
    await phone.addCookies(await context.cookies());
    const small = await phone.newPage();
    await small.goto(new URL(`/t/${first.id}`, env.agent.url).href);
    await small.locator('.pm-term-host .xterm-screen').waitFor();
    expect(await small.locator('pm-workbench').count()).toBe(0);
    expect(await small.locator('pm-session-list').isHidden()).toBe(true);
    await small.getByRole('button', { name: 'Back to sessions' }).waitFor();
    // The keys switch tabs there too.
    await small.keyboard.press('Control+Shift+BracketRight');
    await small.waitForURL(new RegExp(`/t/${second.id}$`));
    await phone.close();
  }, 30_000);
});
