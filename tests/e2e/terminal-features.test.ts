/**
 * The browser terminal as a desktop keeps it open all day, in real Chromium against a real
 * agent and tmux: find in the pane's history, links, copy on selection and bracketed paste, a text
 * size that sticks, the app's theme, the page title, and the WebGL renderer (through
 * SwiftShader) drawing what the DOM renderer draws.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { sessionNameFor } from '../../agent/tmux/commands.js';
import { tmux } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, screenLines, typeCommand, useAgentAndBrowser, waitForLine } from '../support/browser.js';
import { api, createTab, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { findDecorations } from '../../pwa/terminal/terminal-theme.js';

const env = useAgentAndBrowser();
const CLIPBOARD = ['clipboard-read', 'clipboard-write'];
/** A desktop whose system asks for the dark theme (headless Chromium reports light otherwise). */
const DARK_DESKTOP: BrowserContextOptions = { ...DESKTOP, colorScheme: 'dark' };

let session: Session;

beforeAll(async () => {
  session = await localDevice(env.agent);
});

/** A browser paired as a device of its own, allowed the clipboard. */
async function context(browser: Browser, options: BrowserContextOptions): Promise<BrowserContext> {
  const c = await browser.newContext(options);
  await pairBrowser(c, env.agent);
  await c.grantPermissions(CLIPBOARD, { origin: env.agent.url });
  return c;
}

/** A new shell tab, open on `page`, its prompt shown. */
async function openNewTab(page: Page): Promise<TabView> {
  const tab = await createTab(session);
  await openTab(page, tab);
  return tab;
}

async function openTab(page: Page, tab: TabView): Promise<void> {
  await page.goto(new URL(`/t/${tab.id}`, env.agent.url).href);
  await page.locator('.pm-term-host .xterm-screen').waitFor();
  await expect.poll(() => renderer(page), { timeout: 10_000 }).not.toBe('');
}

/** Types a command into the tab through the agent, as the CLI's `tab send` does. */
async function send(tab: TabView, text: string): Promise<void> {
  const res = await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text });
  expect(res.status).toBe(204);
}

function renderer(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector<HTMLElement>('.pm-term-host')?.dataset.renderer ?? '');
}

/** The size tmux gives the tab's window: what the browser told it. */
async function tmuxSize(tab: TabView): Promise<string> {
  return (await tmux(env.agent.tmuxSocket, 'display-message', '-p', '-t', `=${sessionNameFor(tab.workspaceId, tab.id)}:`, '#{window_width}x#{window_height}')).trim();
}

function findBar(page: Page) {
  return page.getByRole('search', { name: 'Find in the terminal' });
}

async function terminalHasFocus(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea') ?? false);
}

/** The rows find's snapshot of the pane's history shows now (DOM renderer), trailing blanks trimmed. */
async function historyLines(page: Page): Promise<string[]> {
  const rows = await page.locator('.pm-history-host .xterm-rows > div').allTextContents();
  return rows.map((r) => r.replace(/\u00a0/g, ' ').trimEnd());
}

/** Colours as the page computes them: `rgb(r, g, b)`. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 0xff}, ${n & 0xff})`;
}

/**
 * The current match on the snapshot's screen: its row shown, a find decoration on that row
 * outlined in the theme's colour for the current match, and the match's cells painted in its
 * background (find selects the match, and the snapshot's selection takes that colour).
 */
async function expectCurrentMatchShown(page: Page, text: string): Promise<void> {
  await expect.poll(() => historyLines(page)).toContain(text);
  const theme = (await page.evaluate(() => document.documentElement.dataset.theme)) === 'light' ? 'light' : 'dark';
  const colours = findDecorations(theme);
  const current = await eventually(
    () =>
      page.evaluate(
        ({ text, outline, background }) => {
          const host = document.querySelector('.pm-history-host');
          const screen = host?.querySelector('.xterm-screen')?.getBoundingClientRect();
          const row = [...(host?.querySelectorAll('.xterm-rows > div') ?? [])].find((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd() === text);
          if (!screen || !row) return null;
          const at = row.getBoundingClientRect();
          const mark = [...(host?.querySelectorAll<HTMLElement>('.xterm-find-result-decoration') ?? [])].find((d) => {
            const r = d.getBoundingClientRect();
            return getComputedStyle(d).outlineColor === outline && r.width > 0 && Math.abs(r.top - at.top) < 2;
          });
          const painted = [...row.querySelectorAll('span')].some((s) => getComputedStyle(s).backgroundColor === background);
          const inside = at.top >= screen.top && at.bottom <= screen.bottom + 1;
          return mark && painted && inside ? { width: mark.getBoundingClientRect().width } : null;
        },
        { text, outline: rgb(colours.activeMatchBorder ?? ''), background: rgb(colours.activeMatchBackground ?? '') },
      ),
    10_000,
    `the current match "${text}" highlighted on the snapshot's screen`,
  );
  expect(current.width).toBeGreaterThan(0);
}

/** Prints a marker, then 300 lines: the marker scrolls off the screen into tmux's history. */
async function printPastTheScreen(page: Page, tab: TabView): Promise<string> {
  // Letters only: the search for numbers below must find none of them in the marker's lines.
  const id = [...randomBytes(8)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
  // Printed by the shell, so the command line never holds the marker itself, nor (wrapped on a
  // narrow terminal) a row reading like the last line.
  await send(tab, `printf '%s-%s\\n' scrolled-marker ${id}; seq 1 300; printf '%s-%s\\n' printed ${id}`);
  await waitForLine(page, `printed-${id}`);
  const marker = `scrolled-marker-${id}`;
  expect((await screenLines(page)).some((l) => l.includes(marker))).toBe(false);
  return marker;
}

/** Prints 12 numbered lines, all on the screen. */
async function printNumberedLines(page: Page, tab: TabView): Promise<void> {
  await send(tab, `clear; for i in $(seq 1 12); do printf 'line-%04d\\n' "$i"; done; echo printed-$((6*2))`);
  await expect.poll(async () => (await screenLines(page)).includes('printed-12'), { timeout: 30_000, interval: 200 }).toBe(true);
}

/**
 * Where (in the page) a piece of text sits on the DOM renderer's rows. A row may be split into
 * several spans (a font whose glyphs are not all a cell wide gets one per character).
 */
async function textBox(page: Page, text: string): Promise<{ x: number; y: number; left: number; right: number }> {
  const box = await page.evaluate((wanted) => {
    for (const row of document.querySelectorAll('.xterm-rows > div')) {
      const nodes: { node: Text; from: number }[] = [];
      let all = '';
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        nodes.push({ node: node as Text, from: all.length });
        all += node.textContent ?? '';
      }
      const at = all.indexOf(wanted);
      if (at < 0) continue;
      const locate = (index: number) => {
        let hit = nodes[0];
        for (const n of nodes) if (n.from <= index) hit = n;
        return hit ? { node: hit.node, offset: index - hit.from } : null;
      };
      const start = locate(at);
      const end = locate(at + wanted.length - 1);
      if (!start || !end) continue;
      const range = document.createRange();
      range.setStart(start.node, start.offset);
      range.setEnd(end.node, end.offset + 1);
      const r = range.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, left: r.left, right: r.right };
    }
    return null;
  }, text);
  if (!box) throw new Error(`"${text}" is not on the screen`);
  return box;
}

describe('find in the terminal', () => {
  it('finds a line on the screen and counts the matches; Esc closes and gives the focus back', async () => {
    const desktop = await context(env.browser, DARK_DESKTOP);
    const page = await desktop.newPage();
    const tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    expect(await renderer(page)).toBe('dom');

    await printNumberedLines(page, tab);

    // The shortcut, with the terminal focused.
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.press('Control+Shift+F');
    const bar = findBar(page);
    await bar.waitFor();
    const field = bar.getByRole('textbox', { name: 'Find' });
    await expect.poll(() => field.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await page.keyboard.type('line-0007');
    const count = bar.getByRole('status');
    await expect.poll(() => count.textContent(), { timeout: 10_000 }).toBe('1 of 1');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-terminal-find-desktop.png') });

    // Many matches: Enter and Shift+Enter move through them.
    await field.fill('line-001');
    await expect.poll(() => count.textContent()).toMatch(/^\d+ of 3$/);
    const first = Number((await count.textContent())?.split(' ')[0]);
    await field.press('Enter');
    await expect.poll(() => count.textContent()).toBe(`${(first % 3) + 1} of 3`);
    await field.press('Shift+Enter');
    await expect.poll(() => count.textContent()).toBe(`${first} of 3`);
    await bar.getByRole('button', { name: 'Next match' }).click();
    await expect.poll(() => count.textContent()).toBe(`${(first % 3) + 1} of 3`);
    await field.fill('no-such-line');
    await expect.poll(() => count.textContent()).toBe('No results');

    await field.press('Escape');
    await bar.waitFor({ state: 'detached' });
    await expect.poll(() => terminalHasFocus(page)).toBe(true);
    await waitForLine(page, 'printed-12');

    // The header's button opens it too, and its × closes it.
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await bar.waitFor();
    await bar.getByRole('button', { name: 'Close find' }).click();
    await bar.waitFor({ state: 'detached' });
    await expect.poll(() => terminalHasFocus(page)).toBe(true);

    // The window title names the tab.
    const name = (await page.locator('pm-terminal-view .primary-text').textContent())?.trim();
    expect(name).toBeTruthy();
    await expect.poll(() => page.title()).toBe(`${name} · pocketmux`);
    await page.getByRole('button', { name: 'Back to sessions' }).click();
    await expect.poll(() => page.title()).toBe('pocketmux');
    await desktop.close();
  });

  it('fits a phone: the find bar across the top, above the key bar', async () => {
    const phone = await context(env.browser, PHONE);
    const page = await phone.newPage();
    const tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    await printNumberedLines(page, tab);
    await page.getByRole('button', { name: 'Find', exact: true }).tap();
    const bar = findBar(page);
    await bar.getByRole('textbox', { name: 'Find' }).fill('line-0011');
    await expect.poll(() => bar.getByRole('status').textContent(), { timeout: 10_000 }).toBe('1 of 1');
    await waitForLine(page, 'line-0011');
    const box = await bar.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-terminal-find-phone.png') });
    await phone.close();
  });
});

describe("find in the pane's history", () => {
  it('finds a line scrolled off the screen, in a snapshot over the terminal; closing it returns to the live terminal', async () => {
    const desktop = await context(env.browser, DARK_DESKTOP);
    const page = await desktop.newPage();
    const tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    const marker = await printPastTheScreen(page, tab);

    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.press('Control+Shift+F');
    const bar = findBar(page);
    await bar.waitFor();
    await page.keyboard.type(marker);
    const count = bar.getByRole('status');
    await expect.poll(() => count.textContent(), { timeout: 10_000 }).toBe('1 of 1');
    // The whole history came: nothing more to say under the field.
    await expect.poll(() => bar.locator('.note').isHidden()).toBe(true);

    // The snapshot lies over the live terminal, the same size, scrolled to the match.
    const snapshot = page.locator('.pm-history-host');
    const [over, under] = await Promise.all([snapshot.boundingBox(), page.locator('.pm-term-host:not(.pm-history-host)').boundingBox()]);
    expect(over).toEqual(under);
    await expect.poll(() => historyLines(page)).toContain(marker);
    // The match is highlighted, as the current one, on the snapshot's screen.
    await expectCurrentMatchShown(page, marker);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-terminal-find-history-desktop.png') });

    // Many matches: the newest first, Enter goes up to older ones, Shift+Enter back down.
    const field = bar.getByRole('textbox', { name: 'Find' });
    await field.fill('29');
    // 29, 129, 229 and 290 to 299 (the command line holds none): 13, counted from the newest.
    await expect.poll(() => count.textContent()).toBe('1 of 13');
    await expect.poll(async () => (await historyLines(page)).includes('299')).toBe(true);
    await field.press('Enter');
    await expect.poll(() => count.textContent()).toBe('2 of 13');
    await field.press('Shift+Enter');
    await expect.poll(() => count.textContent()).toBe('1 of 13');
    // Next is the arrow pointing up.
    await bar.getByRole('button', { name: 'Next match' }).click();
    await expect.poll(() => count.textContent()).toBe('2 of 13');

    await field.press('Escape');
    await bar.waitFor({ state: 'detached' });
    expect(await snapshot.count()).toBe(0);
    await expect.poll(() => terminalHasFocus(page)).toBe(true);
    // The live terminal, at its bottom, typing as before.
    await typeCommand(page, 'echo back-$((40+2))');
    await waitForLine(page, 'back-42');
    await desktop.close();
  });

  it('fits a phone: the find bar across the top of the snapshot', async () => {
    const phone = await context(env.browser, PHONE);
    const page = await phone.newPage();
    const tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    const marker = await printPastTheScreen(page, tab);
    await page.getByRole('button', { name: 'Find', exact: true }).tap();
    const bar = findBar(page);
    await bar.getByRole('textbox', { name: 'Find' }).fill(marker);
    await expect.poll(() => bar.getByRole('status').textContent(), { timeout: 10_000 }).toBe('1 of 1');
    await expectCurrentMatchShown(page, marker);
    const box = await bar.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-terminal-find-history-phone.png') });
    await bar.getByRole('button', { name: 'Close find' }).tap();
    await bar.waitFor({ state: 'detached' });
    expect(await page.locator('.pm-history-host').count()).toBe(0);
    await phone.close();
  });

  it('searches the screen, saying why, when the history cannot be had', async () => {
    const desktop = await context(env.browser, DESKTOP);
    const page = await desktop.newPage();
    const tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    await printNumberedLines(page, tab);
    await page.route('**/api/tabs/*/history', (route) => route.abort());
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    const bar = findBar(page);
    const note = bar.locator('.note');
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toBe('Searching the screen only: Could not reach the agent. Is pocketmux still running?');
    await bar.getByRole('textbox', { name: 'Find' }).fill('line-0007');
    await expect.poll(() => bar.getByRole('status').textContent(), { timeout: 10_000 }).toBe('1 of 1');
    // No snapshot over the screen: the live terminal shows, and is what was searched.
    expect(await page.locator('.pm-history-host .xterm').count()).toBe(0);
    expect(await page.locator('.pm-history-host').isHidden()).toBe(true);
    await waitForLine(page, 'line-0007');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-terminal-find-screen-only-desktop.png') });
    await bar.getByRole('button', { name: 'Close find' }).click();
    await bar.waitFor({ state: 'detached' });
    await desktop.close();
  });
});

describe('links, copy and paste', () => {
  it('opens a printed http(s) link in a new tab that cannot reach back', async () => {
    const desktop = await context(env.browser, DESKTOP);
    const page = await desktop.newPage();
    const tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    const url = new URL('/pm-link-target?from=terminal', env.agent.url).href;
    await send(tab, `clear; echo 'see ${url} here'`);
    await waitForLine(page, `see ${url} here`);

    const at = await textBox(page, url);
    await page.mouse.move(at.x, at.y);
    // The link provider found it: the pointer turns into a hand over it.
    await page.locator('.xterm-cursor-pointer').waitFor({ timeout: 10_000 });
    const [popup] = await Promise.all([desktop.waitForEvent('page'), page.mouse.click(at.x, at.y)]);
    await expect.poll(() => popup.url(), { timeout: 10_000 }).toBe(url);
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    await popup.close();

    // Words that only look like addresses are not links.
    await send(tab, `clear; echo 'javascript:alert(1) file:///etc/passwd'`);
    await waitForLine(page, 'javascript:alert(1) file:///etc/passwd');
    const bad = await textBox(page, 'javascript:alert(1)');
    await page.mouse.move(bad.x, bad.y);
    await page.mouse.move(bad.x + 2, bad.y);
    expect(await page.locator('.xterm-cursor-pointer').count()).toBe(0);
    await desktop.close();
  });

  it('copies a selection when the mouse button comes up: xterm’s (Shift+drag) and tmux’s (a plain drag)', async () => {
    const desktop = await context(env.browser, DESKTOP);
    const page = await desktop.newPage();
    const tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    await send(tab, `clear; printf '%s\\n' copy-alpha copy-beta`);
    await waitForLine(page, 'copy-beta');

    const start = await textBox(page, 'copy-alpha');
    const end = await textBox(page, 'copy-beta');
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await page.keyboard.down('Shift');
    await page.mouse.move(start.left + 1, start.y);
    await page.mouse.down();
    await page.mouse.move(end.x, end.y, { steps: 5 });
    await page.mouse.move(end.right + 40, end.y, { steps: 2 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await expect.poll(clipboard, { timeout: 10_000 }).toBe('copy-alpha\ncopy-beta');
    // Ctrl+Shift+C copies it again (and sends no Ctrl-C to the shell).
    await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await page.keyboard.press('Control+Shift+C');
    await expect.poll(clipboard, { timeout: 10_000 }).toBe('copy-alpha\ncopy-beta');

    // A plain drag selects in tmux's copy mode; tmux hands the text over (OSC 52) when it ends.
    await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await page.mouse.move(start.left + 1, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x, start.y, { steps: 3 });
    await page.mouse.move(start.right + 40, start.y, { steps: 3 });
    await page.mouse.up();
    // (Where tmux ends a selection within a cell is its own business.)
    await expect.poll(clipboard, { timeout: 10_000 }).toMatch(/^copy-alph/);
    await desktop.close();
  });

  it('pastes as one bracketed paste, never typed: from the keyboard’s paste and the phone’s Paste key', async () => {
    const phone = await context(env.browser, PHONE);
    const page = await phone.newPage();
    const tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    const file = join(env.agent.root, `pasted-${tab.id}.txt`);
    // A program that turned bracketed paste on, and shows every byte it receives as it comes.
    await send(tab, `clear; stty -echo -icanon; printf '\\033[?2004h'; sleep 0.5; echo paste-ready; cat -v > '${file}'`);
    await eventually(async () => (await tmux(env.agent.tmuxSocket, 'display-message', '-p', '-t', `=${sessionNameFor(tab.workspaceId, tab.id)}:`, '#{pane_current_command}')).trim() === 'cat', 10_000, 'cat');
    // tmux passes the mode on to the browser's terminal as it takes it, well before the line printed after it.
    await waitForLine(page, 'paste-ready');

    // The browser's paste event (Ctrl+V, Cmd+V, a menu), into xterm's textarea.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'echo first\necho second\n');
      const target = document.querySelector('.xterm-helper-textarea');
      target?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    // The Paste key on the phone's key bar reads the clipboard.
    await page.evaluate(() => navigator.clipboard.writeText('from the phone\nsecond line\n'));
    await page.getByRole('toolbar', { name: 'Terminal keys' }).getByRole('button', { name: 'Paste' }).tap();
    // Ctrl+Shift+V is left to the browser, whose paste lands in xterm the same way.
    await page.evaluate(() => navigator.clipboard.writeText('keyboard\npaste\n'));
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.press('Control+Shift+V');

    const expected = '^[[200~echo first\necho second\n^[[201~^[[200~from the phone\nsecond line\n^[[201~^[[200~keyboard\npaste\n^[[201~';
    await eventually(() => {
      try {
        return readFileSync(file, 'utf8') === expected;
      } catch {
        return false;
      }
    }, 10_000, 'the pasted text in the file').catch(() => {
      expect(readFileSync(file, 'utf8')).toBe(expected);
    });
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-terminal-paste-phone.png') });
    await phone.close();
  });
});

describe('text size and theme', () => {
  it('changes the text size from the view and the keyboard, refits and tells tmux, and keeps it across a reload', async () => {
    const desktop = await context(env.browser, DESKTOP);
    const page = await desktop.newPage();
    const tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    const rowsFont = () => page.evaluate(() => getComputedStyle(document.querySelector('.xterm-rows') as Element).fontSize);
    expect(await rowsFont()).toBe('14px');
    const before = await tmuxSize(tab);

    await page.getByRole('button', { name: 'Text size' }).click();
    const panel = page.getByRole('group', { name: 'Text size' });
    await panel.getByText('14 px').waitFor();
    await panel.getByRole('button', { name: 'Bigger text' }).click();
    await panel.getByRole('button', { name: 'Bigger text' }).click();
    await panel.getByText('16 px').waitFor();
    await expect.poll(rowsFont).toBe('16px');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-terminal-size-desktop.png') });
    // Bigger cells: fewer of them, and tmux was told.
    await expect.poll(() => tmuxSize(tab), { timeout: 10_000 }).not.toBe(before);
    const [beforeCols, beforeRows] = before.split('x').map(Number) as [number, number];
    const [cols, rows] = (await tmuxSize(tab)).split('x').map(Number) as [number, number];
    expect(cols).toBeLessThan(beforeCols);
    expect(rows).toBeLessThanOrEqual(beforeRows);

    // The keyboard, with the terminal focused: Ctrl+Shift+= and Ctrl+Shift+-.
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.press('Control+Shift+Equal');
    await page.keyboard.press('Control+Shift+Equal');
    await page.keyboard.press('Control+Shift+Minus');
    await panel.getByText('17 px').waitFor();
    await expect.poll(rowsFont).toBe('17px');
    // Not a keystroke for the shell.
    await typeCommand(page, 'echo still-typing');
    await waitForLine(page, 'still-typing');

    await page.reload();
    await page.locator('.pm-term-host .xterm-screen').waitFor();
    await expect.poll(rowsFont, { timeout: 10_000 }).toBe('17px');
    expect(await page.evaluate(() => localStorage.getItem('pm-terminal-font-size'))).toBe('17');
    await page.getByRole('button', { name: 'Text size' }).click();
    await panel.getByText('17 px').waitFor();
    await panel.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(rowsFont).toBe('14px');
    expect(await page.evaluate(() => localStorage.getItem('pm-terminal-font-size'))).toBeNull();
    await expect.poll(() => tmuxSize(tab), { timeout: 10_000 }).toBe(before);
    await desktop.close();
  });

  it('follows the app theme: at open, and when it changes', async () => {
    const phone = await context(env.browser, PHONE);
    await phone.addInitScript(() => localStorage.setItem('pm-theme', 'light'));
    const page = await phone.newPage();
    await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    const colours = () =>
      page.evaluate(() => {
        const rows = document.querySelector('.xterm-rows') as Element;
        return { theme: document.documentElement.dataset.theme, text: getComputedStyle(rows).color };
      });
    await expect.poll(colours).toEqual({ theme: 'light', text: 'rgb(27, 33, 41)' });
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-terminal-light-phone.png') });
    await page.evaluate(() => {
      document.documentElement.dataset.theme = 'dark';
      window.dispatchEvent(new Event('pm-theme-change'));
    });
    await expect.poll(colours).toEqual({ theme: 'dark', text: 'rgb(230, 237, 243)' });
    await phone.close();
  });
});

describe('the WebGL renderer', () => {
  let gl: Browser;
  let tab: TabView;
  /** What the DOM renderer's run copied, for the WebGL run to match. */
  let domCopy = '';

  beforeAll(async () => {
    gl = await launchBrowser([], { webgl: true });
  });

  afterAll(async () => {
    await gl?.close();
  });

  /** Prints a block at the top of a cleared screen and copies its three rows with a Shift+drag. */
  async function copyBlock(page: Page): Promise<string> {
    const screen = page.locator('.pm-term-host .xterm-screen');
    const box = await screen.boundingBox();
    if (!box) throw new Error('no terminal screen');
    const [, rows] = (await tmuxSize(tab)).split('x').map(Number) as [number, number];
    const rowHeight = box.height / rows;
    await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await page.keyboard.down('Shift');
    await page.mouse.move(box.x + 2, box.y + rowHeight / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + rowHeight * 1.5, { steps: 4 });
    await page.mouse.move(box.x + box.width - 2, box.y + rowHeight * 2.5, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    return eventually(async () => {
      const text = await page.evaluate(() => navigator.clipboard.readText());
      return text === 'nothing yet' ? null : text;
    }, 10_000, 'the copied rows');
  }

  it('draws with the DOM renderer where there is no WebGL', async () => {
    const desktop = await context(env.browser, DESKTOP);
    const page = await desktop.newPage();
    tab = await openNewTab(page);
    await waitForLine(page, /[$#]$/);
    await send(tab, `clear; printf 'gl-%s\\n' alpha 'beta  two' gamma`);
    await waitForLine(page, 'gl-gamma');
    expect(await renderer(page)).toBe('dom');
    domCopy = await copyBlock(page);
    expect(domCopy).toBe('gl-alpha\ngl-beta  two\ngl-gamma');
    await desktop.close();
  });

  it('draws with WebGL (SwiftShader) by default, and holds the same text', async ({ skip }) => {
    const desktop = await context(gl, DARK_DESKTOP);
    const page = await desktop.newPage();
    const hasWebgl = await page.evaluate(() => document.createElement('canvas').getContext('webgl2') !== null);
    if (!hasWebgl) skip('this Chromium has no WebGL2, even with SwiftShader: the DOM renderer case above covers it');
    await openTab(page, tab);
    await expect.poll(() => renderer(page), { timeout: 10_000 }).toBe('webgl');
    // The rows are drawn on a canvas, not as text in the page.
    expect(await page.locator('.pm-term-host canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('.xterm-rows > div').count()).toBe(0);
    // tmux redraws the screen on attach: the same rows, read through a selection.
    await eventually(async () => (await copyBlock(page)) === domCopy, 15_000, 'the same rows as the DOM renderer');
    // Find works on the buffer whatever draws it.
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.press('Control+Shift+F');
    await findBar(page).getByRole('textbox', { name: 'Find' }).fill('gl-beta');
    await expect.poll(() => findBar(page).getByRole('status').textContent(), { timeout: 10_000 }).toBe('1 of 1');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-terminal-webgl-desktop.png') });
    // Over the WebGL canvases, the find bar still takes the click.
    await findBar(page).getByRole('button', { name: 'Close find' }).click();
    await findBar(page).waitFor({ state: 'detached' });

    // The GPU context lost for good: the terminal goes on with the DOM renderer, and says so once.
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    const lost = await page.evaluate(() => {
      for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.pm-term-host canvas')) {
        const gl = canvas.getContext('webgl2');
        const ext = gl?.getExtension('WEBGL_lose_context');
        if (ext) {
          ext.loseContext();
          return true;
        }
      }
      return false;
    });
    expect(lost).toBe(true);
    await expect.poll(() => renderer(page), { timeout: 15_000 }).toBe('dom');
    await waitForLine(page, 'gl-beta  two');
    await typeCommand(page, 'echo after-$((20+22))');
    await waitForLine(page, 'after-42');
    expect(warnings.filter((w) => w.includes('lost its WebGL context'))).toHaveLength(1);
    await desktop.close();
  });

  // Headless Chromium, the system's and the packaged one, gives a page an emulated scale factor
  // and then reports the WebGL canvas's device-pixel box in CSS pixels: xterm sizes the canvas
  // by it and draws a blank screen. The app sees the canvas sized wrong and draws with the DOM
  // renderer, as it would on a phone whose GPU failed it.
  it.each([2, 3])('on a screen of ratio %i where the WebGL canvas is sized wrong, draws with the DOM renderer, holds the same text, and says so once', async (ratio) => {
    const desktop = await context(gl, { ...DARK_DESKTOP, deviceScaleFactor: ratio });
    const page = await desktop.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await openTab(page, tab);
    await expect.poll(() => renderer(page), { timeout: 15_000 }).toBe('dom');
    await eventually(async () => (await copyBlock(page)) === domCopy, 15_000, 'the same rows as the DOM renderer');
    const givenUp = warnings.filter((w) => w.includes('drawing the terminal with the DOM renderer from here'));
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]).toContain(`devicePixelRatio ${ratio}`);
    await desktop.close();
  });
});
