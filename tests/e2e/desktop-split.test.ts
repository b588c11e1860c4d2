/**
 * The desktop split in real Chromium against a real agent and tmux: the list as a sidebar, two
 * live terminals side by side (each typed into, each its own tmux window at its own size), a
 * divider dragged, the layout remembered across a reload, stacked panes, the app's keyboard
 * shortcuts (next tab, tab N, the sidebar, the help sheet) never reaching the shell. Then four
 * terminals at once (a fifth refused), a Claude-like tab's timeline beside a terminal, and the
 * inbox's key beside a plain Ctrl+H that stays the shell's.
 */
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { sessionNameFor } from '../../agent/tmux/commands.js';
import { tmux } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, PHONE, pairBrowser, pairPage, useAgentAndBrowser } from '../support/browser.js';
import { api, createTab, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { paneEnv } from '../support/status.js';

// Omega's finished turn below stands on hooks alone: no claude runs in its pane, and the agent's
// safety poll would rightly take the tab idle (30 s into a slow run, the review card gone).
const env = useAgentAndBrowser({ env: { POCKETMUX_SAFETY_POLL_MS: '3600000' } });

let session: Session;
let context: BrowserContext;
let page: Page;
let first: TabView;
let second: TabView;

beforeAll(async () => {
  context = await env.browser.newContext(DESKTOP);
  page = await context.newPage();
  await pairPage(page, { link: env.agent.link });
  session = await localDevice(env.agent);
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
    // The whole main area's width, in columns, before it is shared: once the window follows
    // the terminal's client and stays so (the window is made 80 wide, and the terminal may
    // attach before it has measured its room).
    let last = -1;
    const whole = await eventually(
      async () => {
        const name = `=${sessionNameFor(first.workspaceId, first.id)}`;
        const clients = (await tmux(env.agent.tmuxSocket, 'list-clients', '-t', name, '-F', '#{client_width}')).split('\n').filter(Boolean);
        const width = await windowWidth(first);
        const steady = clients.length === 1 && Number(clients[0]) === width && width === last;
        last = width;
        if (!steady) await new Promise((r) => setTimeout(r, 250));
        return steady ? width : null;
      },
      10_000,
      'tmux to learn the width',
    );
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
    await pairBrowser(phone, env.agent, 'Phone');
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

describe('four panes, a timeline beside a terminal, and the inbox key', () => {
  let third: TabView;
  let fourth: TabView;
  /** A shell tab whose hooks named a transcript: it has a timeline, and a review card in the inbox. */
  let reviewed: TabView;

  beforeAll(async () => {
    third = await createTab(session);
    fourth = await createTab(session);
    reviewed = await createTab(session);
    for (const [tab, name] of [
      [third, 'gamma'],
      [fourth, 'delta'],
      [reviewed, 'omega'],
    ] as const) {
      const res = await api(session, 'PATCH', `/api/tabs/${tab.id}`, { name });
      expect(res.status).toBeLessThan(300);
    }
    // The hooks Claude would send from omega's pane, through the agent's installed script: a turn
    // that ended, with the captured transcript where Claude keeps it.
    const conversation = outsideFixture(env.agent.home, 'omega-project');
    const inPane = await paneEnv(env.agent, reviewed);
    for (const event of ['SessionStart', 'UserPromptSubmit', 'Stop']) {
      const run = await runHookScript(env.agent.dataDir, event, outsidePayload(conversation, event), inPane);
      expect(run).toMatchObject({ code: 0, stderr: '' });
    }
  }, 30_000);

  /** Opens `tab` beside `from` through the pane's own menu, and waits for its pane to take the focus. */
  async function openBeside(from: TabView, tab: TabView, name: string): Promise<void> {
    await pane(from).getByRole('button', { name: 'Open another tab beside' }).click();
    await page
      .getByRole('dialog', { name: 'Open another tab beside' })
      .getByRole('button', { name: new RegExp(`^${name}`) })
      .click();
    await pane(tab).waitFor();
    await page.waitForURL(new RegExp(`/t/${tab.id}$`));
  }

  /** The boxes of the panes of `tabs`, in that order. */
  async function paneBoxes(tabs: TabView[]) {
    const boxes = [];
    for (const tab of tabs) {
      const box = await pane(tab).boundingBox();
      if (!box) throw new Error(`the pane of ${tab.id} is not laid out`);
      boxes.push(box);
    }
    return boxes;
  }

  /** The four panes stand side by side without overlapping, and with the dividers fill the main area. */
  async function expectFourAcross(tabs: TabView[]): Promise<void> {
    const main = await page.locator('pm-workbench').boundingBox();
    const sidebar = await page.locator('pm-session-list').boundingBox();
    const window = page.viewportSize();
    if (!main || !sidebar || !window) throw new Error('the split is not laid out');
    // The main area is all of the window right of the sidebar.
    expect(Math.abs(main.x - (sidebar.x + sidebar.width))).toBeLessThan(1);
    expect(Math.abs(main.x + main.width - window.width)).toBeLessThan(1);
    const boxes = await paneBoxes(tabs);
    for (const [i, box] of boxes.entries()) {
      expect(Math.abs(box.y - main.y)).toBeLessThan(1);
      expect(Math.abs(box.height - main.height)).toBeLessThan(1);
      const next = boxes[i + 1];
      if (next) expect(next.x).toBeGreaterThanOrEqual(box.x + box.width - 0.5);
    }
    const first = boxes[0];
    const last = boxes[boxes.length - 1];
    if (!first || !last) throw new Error('no panes');
    expect(Math.abs(first.x - main.x)).toBeLessThan(1);
    expect(Math.abs(last.x + last.width - (main.x + main.width))).toBeLessThan(1);
    // What the panes leave between them is only the three hairline dividers.
    const covered = boxes.reduce((sum, b) => sum + b.width, 0);
    expect(main.width - covered).toBeGreaterThanOrEqual(0);
    expect(main.width - covered).toBeLessThan(4);
  }

  it('opens four live terminals side by side, refuses a fifth visibly, and brings the four back after a reload', async () => {
    const four = [first, second, third, fourth];
    await page.goto(new URL(`/t/${first.id}`, env.agent.url).href);
    await pane(first).locator('.xterm-screen').waitFor();
    await openBeside(first, second, 'beta');
    await openBeside(second, third, 'gamma');
    await openBeside(third, fourth, 'delta');
    for (const tab of four) await pane(tab).locator('.xterm-screen').waitFor();
    expect(await page.locator('pm-workbench pm-terminal-view').evaluateAll((views) => views.map((v) => v.getAttribute('data-tab-id')))).toEqual(
      four.map((t) => t.id),
    );
    await expectFourAcross(four);

    // Enter on a divider shares the room equally among all four.
    await page.getByRole('separator', { name: 'Resize alpha and beta' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => {
        const widths = (await paneBoxes(four)).map((b) => b.width);
        return Math.max(...widths) - Math.min(...widths);
      })
      .toBeLessThan(2);
    await expectFourAcross(four);

    // Typed from the keyboard into each pane in turn: each command runs in its own tmux pane only.
    for (const [i, tab] of four.entries()) await typeInto(tab, `echo quad-$((${i + 1}0+${i + 1}))`);
    const outputs = four.map((_, i) => `quad-${(i + 1) * 11}`);
    for (const [i, tab] of four.entries()) {
      await eventually(async () => (await capture(tab)).includes(outputs[i] as string), 10_000, `pane ${i + 1} to run what was typed`);
    }
    for (const [i, tab] of four.entries()) {
      const screen = await capture(tab);
      for (const [j, output] of outputs.entries()) if (j !== i) expect(screen).not.toContain(output);
    }
    // Each terminal told tmux its own quarter of the main area.
    const widths = await Promise.all(four.map((t) => windowWidth(t)));
    expect(Math.max(...widths) - Math.min(...widths)).toBeLessThanOrEqual(2);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-split-four-desktop.png') });
    // A quarter of the main area still names its tab in full: the header's tools give way first.
    for (const tab of four) {
      const name = pane(tab).locator('header .primary-text');
      expect(await name.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    }
    // The sidebar's rows say a state in full while their path has room to give.
    const reviewState = page.locator(`pm-tab-row[data-tab-id="${reviewed.id}"] .state`);
    expect(await reviewState.textContent()).toBe('Ready for review');
    expect(await reviewState.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

    // A fifth is not offered: every pane's button is off and says why, though omega could open.
    for (const tab of four) {
      const split = pane(tab).getByRole('button', { name: 'Open another tab beside' });
      expect(await split.isDisabled()).toBe(true);
      expect(await split.getAttribute('title')).toBe('4 panes at most: close one first');
    }
    await page.locator(`pm-tab-row[data-tab-id="${reviewed.id}"]`).waitFor();
    expect(await pane(reviewed).count()).toBe(0);

    // Remembered on this device: after a reload the same four panes, in the same order and sizes.
    await page.reload();
    for (const tab of four) await pane(tab).locator('.xterm-screen').waitFor();
    expect(await page.getByRole('separator').count()).toBe(3);
    await expectFourAcross(four);
    const after = (await paneBoxes(four)).map((b) => b.width);
    expect(Math.max(...after) - Math.min(...after)).toBeLessThan(2);
    expect(page.url()).toMatch(new RegExp(`/t/${fourth.id}$`));
    await expect.poll(() => activeTab()).toBe(fourth.id);
  }, 90_000);

  it('opens the inbox with Ctrl+Shift+H, while a plain Ctrl+H typed in a terminal reaches the shell', async () => {
    await typeInto(fourth, 'clear');
    await eventually(async () => !(await capture(fourth)).includes('clear'), 10_000, 'the screen to clear');
    // od shows each byte the terminal sends it, so a stray one would show.
    await typeInto(fourth, 'od -c');
    // The sidebar's inbox holds omega's finished turn once the page's status socket, opened
    // again by the reload before, has it: only then has the key an inbox to go to.
    const card = page.locator(`pm-inbox pm-review-card[data-tab-id="${reviewed.id}"]`);
    await card.waitFor();
    await page.keyboard.press('Control+Shift+KeyH');
    // The sidebar's inbox takes the keyboard.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName.toLowerCase())).toBe('pm-inbox');
    const box = await card.boundingBox();
    const sidebar = await page.locator('pm-session-list').boundingBox();
    if (!box || !sidebar) throw new Error('the inbox is not laid out');
    expect(box.y + box.height).toBeLessThanOrEqual(sidebar.y + sidebar.height);
    expect(box.y).toBeGreaterThanOrEqual(sidebar.y);

    // Back in the terminal, Ctrl+H is the terminal's: a backspace byte for od.
    await pane(fourth).locator('.xterm-screen').click();
    await expect.poll(() => activeTab()).toBe(fourth.id);
    await page.keyboard.press('Control+KeyH');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+KeyD');
    const screen = await eventually(
      async () => {
        const text = await capture(fourth);
        return /^0000002$/m.test(text) ? text : null;
      },
      10_000,
      'od to print what it read',
    );
    expect(screen).toMatch(/^0000000\s+\\b\s+\\n$/m);
  }, 30_000);

  it("shows a Claude-like tab's timeline beside a terminal, and the terminal still takes typing", async () => {
    // Two panes closed, two left, then omega beside alpha.
    await pane(fourth).getByRole('button', { name: 'Close the pane of delta' }).click();
    await pane(third).getByRole('button', { name: 'Close the pane of gamma' }).click();
    await pane(third).waitFor({ state: 'detached' });
    await openBeside(first, reviewed, 'omega');
    // A shell tab whose hooks named a transcript offers its timeline in the pane's header.
    await pane(reviewed).getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Timeline' }).click();
    await page.waitForURL(new RegExp(`/t/${reviewed.id}/timeline$`));
    const timeline = pane(reviewed).locator('pm-timeline-view');
    await timeline.getByText('All done: the command ran.').first().waitFor({ timeout: 20_000 });
    expect(await timeline.locator('.prompt .text').allTextContents()).toEqual([
      'You: please run it',
      'You: please run it again',
      'You: do it slowly',
    ]);
    expect(await page.locator('pm-workbench pm-terminal-view').evaluateAll((views) => views.map((v) => v.getAttribute('data-tab-id')))).toEqual([
      first.id,
      reviewed.id,
      second.id,
    ]);

    // The terminal beside it takes the keyboard and runs what is typed; the timeline stays.
    await typeInto(first, 'echo beside-$((30+3))');
    await eventually(async () => (await capture(first)).includes('beside-33'), 10_000, 'the terminal beside the timeline to run what was typed');
    await page.waitForURL(new RegExp(`/t/${first.id}$`));
    expect(await timeline.getByText('All done: the command ran.').first().isVisible()).toBe(true);
    expect(await capture(reviewed)).not.toContain('beside-33');
  }, 60_000);

  it('takes a shortcut pressed on the list before the code of the shortcuts has come', async () => {
    // A browser of its own (no service worker to serve the code from its cache), whose tab
    // screen, which holds the shortcuts, is held back until the key has been pressed: the
    // list fetches it only when idle, up to 5 s after it shows.
    const fresh = await env.browser.newContext({ ...DESKTOP, serviceWorkers: 'block' });
    await pairBrowser(fresh, env.agent, 'Fresh desktop');
    const early = await fresh.newPage();
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let asked = false;
    await early.route(/\/assets\/tab-screen-[^/]*\.js$/, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await early.goto(env.agent.url);
    await early.locator(`pm-tab-row[data-tab-id="${first.id}"]`).waitFor();
    await early.keyboard.press('Control+Shift+Slash');
    await expect.poll(() => asked).toBe(true);
    release();
    await early.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await fresh.close();
  }, 30_000);

  it('with nothing waiting, Ctrl+Shift+H moves to the bell, which says so', async () => {
    // Omega's finished turn was seen when its timeline opened: the inbox is empty and takes no room.
    await page.locator('pm-inbox').waitFor({ state: 'hidden' });
    await pane(first).locator('.xterm-screen').click();
    await page.keyboard.press('Control+Shift+KeyH');
    const bell = page.locator('pm-session-list pm-inbox-bell').getByRole('button', { name: 'Inbox, nothing waits for you' });
    await expect.poll(() => bell.evaluate((el) => el.matches(':focus'))).toBe(true);
  }, 30_000);
});
