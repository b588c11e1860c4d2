/**
 * The light and dark themes in real Chromium against a real agent: the theme follows the
 * system until one is chosen in the settings, and is on the page before its first paint;
 * then axe-core scans every view (the pair screen, the list with an approval card and a
 * review card, the New Claude sheet, a terminal with its find bar and its text size, a
 * timeline, a composer with its slash commands listed, the Changes view's list and diff, the desktop split with its menu of tabs
 * to open beside, the keyboard shortcuts, the settings, and the offline view of the list and
 * of a timeline, with the network gone) on a phone and a desktop, in both themes, and no
 * serious or critical violation may be left. On the phone every control must also be a touch
 * target of at least 44×44 px. A screenshot of each is kept as
 * test-artifacts/e2e-theme-<view>-<size>-<theme>.png.
 *
 * The cards come without Claude: the agent's installed hook script reports three Claude
 * sessions started outside pocketmux, as in outside-sessions-ui.test.ts. One runs a claude
 * stand-in in a tmux server of the test's own and has finished its turn (a review card with
 * a reply field); one, in no tmux, asks to run a command (an approval card, held open); the
 * third, a stand-in in that tmux too, has just started and takes prompts (a live composer).
 * A fourth, in a git repository, is in a turn that changed two files: its Changes view, the
 * list and a file's diff, is scanned too.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type axe from 'axe-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, pairedPhone, typeCommand, waitForLine } from '../support/browser.js';
import { api, createTab, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { type OutsideFixture, outsideFixture } from '../support/hook-script.js';
import { OutsideClaudes } from '../support/outside-claudes.js';
import { TmuxServer } from '../support/tmux-server.js';
import { git } from '../support/git.js';
import { describeSmallTargets, smallTapTargets, TAP_MIN } from '../support/tap-targets.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const THEME_KEY = 'pm-theme';
const BACKGROUND = { dark: '#0e1116', light: '#f5f7f9' } as const;

type Theme = 'light' | 'dark';
type Size = 'phone' | 'desktop';
const SIZES: Record<Size, BrowserContextOptions> = { phone: PHONE, desktop: DESKTOP };

let agent: AgentHandle;
let browser: Browser;
let session: Session;
let tab: TabView;
const own = TmuxServer.named('own');
/** The Claudes outside pocketmux whose cards, rows and timelines are scanned. */
let claudes: OutsideClaudes;

let reviewed: OutsideFixture;
let asking: OutsideFixture;
let composing: OutsideFixture;
let changing: OutsideFixture;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  reviewed = outsideFixture(env.home, 'api-server');
  asking = outsideFixture(env.home, 'web-app');
  composing = outsideFixture(env.home, 'docs-site');
  changing = outsideFixture(env.home, 'cli-tool');
  mkdirSync(join(changing.cwd, 'src'));
  writeFileSync(join(changing.cwd, 'src', 'main.ts'), 'import { run } from "./run";\n\nconst verbose = false;\nrun({ verbose });\n');
  git(changing.cwd, 'init', '-q', '-b', 'main');
  git(changing.cwd, 'add', '-A');
  git(changing.cwd, 'commit', '-q', '-m', 'start');
  [agent, browser] = await Promise.all([startAgent({ reuse: env }), launchBrowser()]);
  ({ session } = await pairedPhone(browser, agent));
  claudes = new OutsideClaudes(agent, session, own);
  tab = await createTab(session);

  // A claude (a stand-in) in a tmux of the person's own, that finished its turn: a review card with a reply field.
  const inPane = await claudes.standIn(reviewed);
  await claudes.hook(reviewed, 'SessionStart', inPane);
  await claudes.hook(reviewed, 'UserPromptSubmit', inPane);
  await claudes.hook(reviewed, 'Stop', inPane, { last_assistant_message: 'The API server is refactored: **3 files** changed, tests pass.' });

  // Another, just started, whose composer is scanned: opening the first one's timeline would take its review card off the list.
  await claudes.hook(composing, 'SessionStart', await claudes.standIn(composing));

  // One in its turn, which has changed two files since its prompt (no Stop: no second review card on the list).
  await claudes.hook(changing, 'SessionStart');
  await claudes.hook(changing, 'UserPromptSubmit');
  // The hook waits two seconds at most for the turn's start to be recorded; a busy machine can
  // take longer, and an edit made before it is not this turn's. The edits wait for it.
  await eventually(
    async () => (await api<{ reason?: string }>(session, 'GET', `/api/changes/${changing.key}?scope=turn`)).body.reason === undefined,
    30_000,
    'the turn’s start to be recorded',
  );
  writeFileSync(join(changing.cwd, 'src', 'main.ts'), 'import { run } from "./run";\n\nconst verbose = process.argv.includes("--verbose");\nrun({ verbose });\n');
  writeFileSync(join(changing.cwd, 'src', 'run.ts'), 'export function run(options: { verbose: boolean }) {\n  if (options.verbose) console.log("running");\n}\n');

  // A claude in no tmux asking to run a command: an approval card, open while the hook waits.
  await claudes.askApproval(asking, 'npm run check-web');
}, 90_000);

afterAll(async () => {
  claudes?.stop();
  await browser?.close();
  await cleanupAgents();
  await own.stop();
});

/** What `<html>` says of the theme, and the browser's bar colour. */
async function shownTheme(page: Page): Promise<{ theme: string | undefined; bar: string | null; scheme: string }> {
  return page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    bar: document.querySelector('meta[name="theme-color"]')?.getAttribute('content') ?? null,
    scheme: getComputedStyle(document.documentElement).colorScheme,
  }));
}

describe('the theme', () => {
  it('follows the system, live, until Light or Dark is chosen in the settings; on the page before its first paint', async () => {
    const context = await browser.newContext({ ...PHONE, colorScheme: 'dark' });
    await pairBrowser(context, agent, 'Themed phone');
    // Each document records the theme <html> had when the body was not parsed yet: before any paint.
    await context.addInitScript(() => {
      const w = window as unknown as { firstTheme?: string | null };
      w.firstTheme = null;
      new MutationObserver((_, observer) => {
        const theme = document.documentElement?.dataset.theme;
        if (!theme) return;
        if (document.body === null) w.firstTheme = theme;
        observer.disconnect();
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-theme'] });
    });
    const page = await context.newPage();
    const firstTheme = () => page.evaluate(() => (window as unknown as { firstTheme?: string | null }).firstTheme);
    await page.goto(new URL('/settings', agent.url).href);
    const setting = page.locator('pm-theme-setting');
    await setting.getByRole('radio', { name: 'System' }).waitFor();
    expect(await firstTheme()).toBe('dark');
    expect(await shownTheme(page)).toEqual({ theme: 'dark', bar: BACKGROUND.dark, scheme: 'dark' });
    expect(await setting.getByRole('radio', { name: 'System' }).isChecked()).toBe(true);
    await setting.getByText("Follows this device's setting: dark now.").waitFor();

    // The system turns light: the app follows without a reload, and says so.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => shownTheme(page)).toEqual({ theme: 'light', bar: BACKGROUND.light, scheme: 'light' });
    await setting.getByText("Follows this device's setting: light now.").waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(245, 247, 249)');

    // Dark, chosen here, holds whatever the system says, across a reload from the first paint.
    await setting.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(() => shownTheme(page)).toEqual({ theme: 'dark', bar: BACKGROUND.dark, scheme: 'dark' });
    expect(await page.evaluate((key) => localStorage.getItem(key), THEME_KEY)).toBe('dark');
    await page.reload();
    await setting.getByRole('radio', { name: 'Dark' }).waitFor();
    expect(await firstTheme()).toBe('dark');
    expect(await setting.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(14, 17, 22)');

    // Light on a dark system.
    await page.emulateMedia({ colorScheme: 'dark' });
    await setting.getByRole('radio', { name: 'Light' }).check();
    await expect.poll(() => shownTheme(page)).toEqual({ theme: 'light', bar: BACKGROUND.light, scheme: 'light' });
    await page.reload();
    await setting.getByRole('radio', { name: 'Light' }).waitFor();
    expect(await firstTheme()).toBe('light');
    await setting.getByText("Light, whatever this device's setting.").waitFor();

    // Back to System: nothing kept, the system's dark again.
    await setting.getByRole('radio', { name: 'System' }).check();
    await expect.poll(() => shownTheme(page)).toEqual({ theme: 'dark', bar: BACKGROUND.dark, scheme: 'dark' });
    expect(await page.evaluate((key) => localStorage.getItem(key), THEME_KEY)).toBeNull();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-theme-setting-phone.png'), fullPage: true });
    await context.close();
  }, 60_000);
});

describe('the status marks', () => {
  it('tell needs-input and ready-for-review apart by shape, with motion reduced too', async () => {
    const context = await browser.newContext({ ...PHONE, reducedMotion: 'reduce' });
    await pairBrowser(context, agent, 'Calm phone');
    const page = await context.newPage();
    await page.goto(agent.url);
    const mark = (key: string) => page.locator(`pm-outside-row[data-key="${key}"] pm-status-dot`);
    // The list may come before the statuses: a row's mark says unknown until they arrive.
    await expect.poll(() => mark(asking.key).getAttribute('state')).toBe('needs-input');
    await expect.poll(() => mark(reviewed.key).getAttribute('state')).toBe('ready-for-review');
    const shape = (key: string) =>
      mark(key).evaluate((dot) => {
        const span = dot.shadowRoot?.querySelector('span');
        if (!span) throw new Error('no mark drawn');
        const s = getComputedStyle(span);
        return { state: dot.getAttribute('state'), radius: s.borderTopLeftRadius, ring: s.borderTopWidth, centre: s.backgroundImage !== 'none', turned: s.transform !== 'none', moving: s.animationName !== 'none' };
      });
    // Needs input: a diamond (a turned square); ready for review: a ring round a dot. Neither moves.
    expect(await shape(asking.key)).toEqual({ state: 'needs-input', radius: '2px', ring: '0px', centre: false, turned: true, moving: false });
    expect(await shape(reviewed.key)).toEqual({ state: 'ready-for-review', radius: '50%', ring: '2px', centre: true, turned: false, moving: false });
    await context.close();
  }, 30_000);
});

type AxeViolation = axe.Result;

/**
 * Found in folders this change does not touch (the terminal's and the timeline's, owned
 * apart), and reported to their owners: printed on every run, not failed on. An entry whose
 * finding is gone is said so, to be removed.
 */
const KNOWN: { rule: string; inside: string; why: string }[] = [];

const knownSeen = new Set<(typeof KNOWN)[number]>();
let scanned = 0;

function knownFor(v: AxeViolation, node: axe.NodeResult) {
  const path = JSON.stringify(node.target);
  const k = KNOWN.find((k) => k.rule === v.id && path.includes(k.inside));
  if (k) knownSeen.add(k);
  return k;
}

afterAll(() => {
  const gone = KNOWN.filter((k) => !knownSeen.has(k));
  if (scanned > 0 && gone.length > 0) console.log(`Known axe findings no longer found (remove them from KNOWN):\n${gone.map((k) => `${k.rule} in ${k.inside}`).join('\n')}`);
});

/** Violations of impact serious or critical, one readable block each, the known ones apart. */
function describeViolations(where: string, violations: AxeViolation[], known: Set<string>): string[] {
  return violations.flatMap((v) => {
    const fresh = v.nodes.filter((n) => {
      const k = knownFor(v, n);
      if (k) known.add(`${where}: [${v.impact}] ${v.id} in ${k.inside}: ${k.why}`);
      return !k;
    });
    if (fresh.length === 0) return [];
    const nodes = fresh
      .slice(0, 6)
      .map((n) => `    at ${JSON.stringify(n.target)}\n      ${n.failureSummary?.replace(/\n/g, '\n      ') ?? ''}\n      ${n.html.slice(0, 200)}`)
      .join('\n');
    const more = fresh.length > 6 ? `\n    … and ${fresh.length - 6} more` : '';
    return [`${where}: [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`];
  });
}

/** axe-core over the whole page, shadow roots included; every violation it finds. */
async function scan(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE });
  const results = await page.evaluate(async () => {
    const runner = (window as unknown as { axe: typeof axe }).axe;
    return runner.run(document, { resultTypes: ['violations'] });
  });
  return results.violations;
}

interface View {
  name: string;
  /** Opens the view and waits until what is scanned is on it. */
  open(page: Page): Promise<void>;
  fullPage: boolean;
  /** Where only one size has this view (the desktop split needs a wide window). */
  only?: Size;
}

const VIEWS: View[] = [
  {
    name: 'list',
    fullPage: true,
    async open(page) {
      await page.goto(agent.url);
      await page.locator('pm-inbox pm-approval-card').getByText('npm run check-web').first().waitFor();
      await page.locator('pm-inbox pm-review-card').getByRole('textbox', { name: 'Reply to Claude' }).waitFor();
      await page.locator(`pm-tab-row[data-tab-id="${tab.id}"]`).waitFor();
      await page.locator('pm-outside-card').getByText('api-server', { exact: true }).waitFor();
    },
  },
  {
    // Starting Claude with choices, under the tab's workspace: the permission mode and the past sessions to resume.
    name: 'new-claude',
    fullPage: true,
    async open(page) {
      await page.goto(agent.url);
      const card = page.locator('pm-workspace-card').filter({ has: page.locator(`pm-tab-row[data-tab-id="${tab.id}"]`) });
      await card.getByRole('button', { name: 'Claude options: permission mode, resume a past session' }).click();
      const sheet = card.getByRole('group', { name: 'Start Claude' });
      await sheet.getByRole('button', { name: 'Start a new session' }).waitFor();
      await sheet.getByRole('combobox', { name: 'Permission mode' }).waitFor();
      await sheet.getByText('Looking for past sessions…').waitFor({ state: 'detached' });
    },
  },
  {
    name: 'terminal',
    fullPage: false,
    async open(page) {
      await openTerminal(page);
    },
  },
  {
    // Find, with a search typed, so the count of matches shows beside the field.
    name: 'terminal-find',
    fullPage: false,
    async open(page) {
      await openTerminal(page);
      await typeCommand(page, 'echo themes-a11y-find');
      await waitForLine(page, 'themes-a11y-find');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      const bar = page.getByRole('search', { name: 'Find in the terminal' });
      await bar.getByRole('textbox', { name: 'Find' }).fill('themes-a11y-find');
      await expect.poll(() => bar.getByRole('status').textContent(), { timeout: 10_000 }).toMatch(/^\d+ of \d+$/);
    },
  },
  {
    name: 'terminal-text-size',
    fullPage: false,
    async open(page) {
      await openTerminal(page);
      await page.getByRole('button', { name: 'Text size', exact: true }).click();
      await page.getByRole('group', { name: 'Text size' }).getByRole('button', { name: 'Bigger text' }).waitFor();
    },
  },
  {
    name: 'timeline',
    fullPage: false,
    async open(page) {
      await page.goto(new URL(`/t/${asking.key}/timeline`, agent.url).href);
      await page.locator('pm-timeline-view').getByText('please run it').first().waitFor({ timeout: 20_000 });
    },
  },
  {
    name: 'changes',
    fullPage: false,
    async open(page) {
      await page.goto(new URL(`/t/${changing.key}/changes`, agent.url).href);
      await page.locator('pm-changes-view').getByRole('list', { name: 'Changed files' }).getByRole('button', { name: /run\.ts/ }).waitFor({ timeout: 20_000 });
    },
  },
  {
    name: 'changes-diff',
    fullPage: false,
    async open(page) {
      await page.goto(new URL(`/t/${changing.key}/changes?file=${encodeURIComponent('src/main.ts')}`, agent.url).href);
      // Marks in the added line, one under the other on a phone, side by side on a desktop.
      await page.locator('pm-changes-view').getByRole('table', { name: 'Diff' }).locator('mark').first().waitFor({ timeout: 20_000 });
    },
  },
  {
    // The claude stand-in in a tmux pane takes prompts: its timeline has a live composer, and `/` lists Claude's commands.
    name: 'composer',
    fullPage: false,
    async open(page) {
      await page.goto(new URL(`/t/${composing.key}/timeline`, agent.url).href);
      const view = page.locator('pm-timeline-view');
      await view.getByText('please run it').first().waitFor({ timeout: 20_000 });
      await view.getByRole('button', { name: 'Attach a file or image' }).waitFor();
      await view.getByRole('textbox', { name: 'Prompt for Claude' }).pressSequentially('/');
      await view.getByRole('listbox', { name: 'Slash commands' }).getByRole('option').first().waitFor();
    },
  },
  {
    // The desktop split: the list as a sidebar, the tab's terminal and the outside session's timeline side by side.
    name: 'split',
    fullPage: false,
    only: 'desktop',
    async open(page) {
      await page.goto(new URL(`/t/${tab.id}`, agent.url).href);
      await page.locator('pm-workbench .xterm-rows').waitFor();
      await page.getByRole('button', { name: 'Open another tab beside' }).click();
      await page.getByRole('dialog', { name: 'Open another tab beside' }).getByRole('button', { name: /web-app/ }).click();
      // A Claude outside tmux opens beside on its timeline: there is no terminal to show.
      await page.waitForURL(new RegExp(`/t/${asking.key}/timeline$`));
      await page.locator('pm-workbench pm-timeline-view').getByText('please run it').first().waitFor({ timeout: 20_000 });
      await page.getByRole('separator').waitFor();
    },
  },
  {
    // The split the view before left: its first pane's menu of what to open beside it.
    name: 'split-menu',
    fullPage: false,
    only: 'desktop',
    async open(page) {
      await page.getByRole('button', { name: 'Open another tab beside' }).first().click();
      const menu = page.getByRole('dialog', { name: 'Open another tab beside' });
      await menu.getByRole('group', { name: 'Panes' }).getByRole('button', { name: 'Side by side' }).waitFor();
      await menu.getByRole('list', { name: 'Open beside' }).getByRole('button').first().waitFor();
    },
  },
  {
    // From a tab's screen: the list alone loads the app's keys only once the page is idle.
    name: 'shortcuts',
    fullPage: false,
    only: 'desktop',
    async open(page) {
      await page.goto(new URL(`/t/${tab.id}`, agent.url).href);
      await page.locator('pm-workbench .xterm-rows').first().waitFor();
      await page.keyboard.press('Control+Shift+Slash');
      const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await sheet.getByRole('rowheader', { name: 'Find in the terminal' }).waitFor();
    },
  },
  {
    name: 'settings',
    fullPage: true,
    async open(page) {
      await page.goto(new URL('/settings', agent.url).href);
      await page.locator('pm-devices-view li[data-device-id]').first().waitFor();
      await page.locator('pm-theme-setting').getByRole('radio', { name: 'System' }).waitFor();
      await page.locator('pm-user-hooks-status').getByText('Only Claude tabs started here report.', { exact: false }).waitFor();
      await page.locator('pm-notifications-settings [data-state]:not([data-state="loading"])').waitFor();
    },
  },
  {
    // The agent out of reach: the lists and the timeline this browser saved while it showed them.
    name: 'offline',
    fullPage: true,
    async open(page) {
      await offline(page, agent.url);
      await page.locator('pm-offline-view pm-approval-card').getByText('npm run check-web').first().waitFor();
      await page.locator('pm-offline-view pm-review-card').getByText('The API server is refactored', { exact: false }).waitFor();
      await page.locator(`pm-offline-view pm-tab-row[data-tab-id="${tab.id}"]`).waitFor();
    },
  },
  {
    name: 'offline-timeline',
    fullPage: false,
    async open(page) {
      const url = new URL(`/t/${asking.key}/timeline`, agent.url).href;
      await page.context().setOffline(false);
      await page.goto(url);
      await page.locator('pm-timeline-view').getByText('please run it').first().waitFor({ timeout: 20_000 });
      await offline(page, url, asking.key);
      await page.locator('pm-offline-tab pm-timeline-view').getByText('please run it').first().waitFor();
    },
  },
];

/** The shell tab's terminal, its prompt drawn. */
async function openTerminal(page: Page): Promise<void> {
  await page.goto(new URL(`/t/${tab.id}`, agent.url).href);
  await page.locator('.xterm-rows').waitFor();
  await waitForLine(page, /[$#]$/);
}

/**
 * Opens `url` with the network gone, under the service worker (as an installed app starts),
 * once this browser saved the lists it showed (and the timeline of `timeline`).
 */
async function offline(page: Page, url: string, timeline?: string): Promise<void> {
  const context = page.context();
  await context.setOffline(false);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => savedKeys(page), { timeout: 10_000 }).toEqual(expect.arrayContaining(['snapshot', ...(timeline ? [timeline] : [])]));
  await context.setOffline(true);
  await page.goto(url);
  await page.locator('pm-offline-bar').getByRole('status').filter({ hasText: 'Offline' }).first().waitFor({ timeout: 15_000 });
}

/** The keys of what the offline store holds: `snapshot` for the lists, and each saved timeline's. */
function savedKeys(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'pocketmux-offline')) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('pocketmux-offline');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const keys = (store: string) =>
      new Promise<string[]>((resolve, reject) => {
        const r = db.transaction(store, 'readonly').objectStore(store).getAllKeys();
        r.onsuccess = () => resolve(r.result.map(String));
        r.onerror = () => reject(r.error);
      });
    try {
      return [...(await keys('lists')), ...(await keys('timelines'))];
    } finally {
      db.close();
    }
  });
}

/**
 * A browser of the size in one theme, chosen as the person would: in the settings. `paired`
 * false gives one that was never paired, for the pair screen (no settings there: the choice
 * is put where the settings keep it).
 */
async function themedPage(size: Size, theme: Theme, paired: boolean): Promise<{ context: BrowserContext; page: Page }> {
  // The system prefers the other theme: what shows is the choice, not the system's.
  const context = await browser.newContext({ ...SIZES[size], colorScheme: theme === 'light' ? 'dark' : 'light', bypassCSP: true });
  const page = await context.newPage();
  if (paired) {
    await pairBrowser(context, agent, `${theme} ${size}`);
    await page.goto(new URL('/settings', agent.url).href);
    await page.locator('pm-theme-setting').getByRole('radio', { name: theme === 'light' ? 'Light' : 'Dark' }).check();
  } else {
    await page.goto(agent.url);
    await page.evaluate(([key, value]) => localStorage.setItem(key as string, value as string), [THEME_KEY, theme]);
    await page.reload();
  }
  await expect.poll(async () => (await shownTheme(page)).theme).toBe(theme);
  return { context, page };
}

describe.each(['phone', 'desktop'] as const)('every view on a %s', (size) => {
  for (const theme of ['light', 'dark'] as const) {
    const touch = size === 'phone' ? `, and no control under ${TAP_MIN}×${TAP_MIN} px,` : '';
    it(`has no serious or critical accessibility violation${touch} in the ${theme} theme`, async () => {
      const found: string[] = [];
      const known = new Set<string>();
      const minor: string[] = [];
      const small: string[] = [];
      const check = async (page: Page, view: string, fullPage: boolean) => {
        expect((await shownTheme(page)).theme).toBe(theme);
        // Nothing mid-animation: a card or note fading in would be measured half drawn.
        await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))));
        await page.screenshot({ path: join(ARTIFACTS, `e2e-theme-${view}-${size}-${theme}.png`), fullPage });
        const violations = await scan(page);
        scanned++;
        const where = `${view} (${size}, ${theme})`;
        found.push(...describeViolations(where, violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), known));
        minor.push(
          ...violations
            .filter((v) => v.impact !== 'serious' && v.impact !== 'critical')
            .map((v) => `${where}: [${v.impact}] ${v.id}: ${v.help}, at ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`),
        );
        // A finger is what the phone is used with; a mouse on the desktop can hit smaller controls.
        if (size === 'phone') small.push(...describeSmallTargets(where, await smallTapTargets(page)));
      };

      const unpaired = await themedPage(size, theme, false);
      await unpaired.page.getByRole('heading', { name: 'Pair this device' }).waitFor();
      await check(unpaired.page, 'pair', false);
      await unpaired.context.close();

      const { context, page } = await themedPage(size, theme, true);
      for (const view of VIEWS) {
        if (view.only && view.only !== size) continue;
        await view.open(page);
        await check(page, view.name, view.fullPage);
      }
      await context.close();

      if (minor.length > 0) console.log(`axe, moderate and minor (not failed on):\n${minor.join('\n')}`);
      if (known.size > 0) console.log(`axe, serious or critical in folders owned apart (reported, not failed on):\n${[...known].join('\n')}`);
      const failures = [
        ...(found.length > 0 ? [`axe found ${found.length} serious or critical violations:\n\n${found.join('\n\n')}\n`] : []),
        ...(small.length > 0 ? [`${small.length} controls are smaller than ${TAP_MIN}×${TAP_MIN} px on a touch screen:\n${small.join('\n')}\n`] : []),
      ];
      if (failures.length > 0) throw new Error(failures.join('\n'));
    }, 120_000);
  }
});
