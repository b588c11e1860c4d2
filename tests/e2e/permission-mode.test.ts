/**
 * A Claude session's permission mode on the phone, in real Chromium against a real agent running
 * the real Claude Code CLI (against the stand-in API): the tab's header names the mode (quietly
 * for manual), its menu switches it, and Claude's own footer follows; the list's row marks every
 * mode but manual; bypass is asked for with a confirmation, and the agent's refusal (this session
 * was not started with bypass) is shown in its words.
 * Screenshots: test-artifacts/e2e-permission-mode-<state>-<size>.png.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type axe from 'axe-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { CLAUDE_MODE_TEXT, type ClaudeMode } from '../../protocol/claude-mode.js';
import type { AgentHandle } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, PHONE, pairBrowser } from '../support/browser.js';
import { startClaudePage, stopClaudePage } from '../support/claude-page.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { api, type Session } from '../support/client.js';
import type { FakeAnthropic } from '../support/fake-anthropic.js';
import { StatusClient } from '../support/status.js';
import { describeSmallTargets, smallTapTargets } from '../support/tap-targets.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const NO_BYPASS = "Bypass permissions is not among this session's modes (Plan, Auto, Manual, Accept edits)";

let fake: FakeAnthropic;
let agent: AgentHandle;
let browser: Browser;
let page: Page;
let session: Session;
let status: StatusClient;
let tab: TabView;
let pane: ClaudeTabPane;

beforeAll(async () => {
  let project: string;
  ({ fake, agent, browser, page, session, project } = await startClaudePage());
  const workspace = (await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project, name: 'project' })).body;
  status = new StatusClient(session);
  await status.opened;
  tab = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: workspace.id, kind: 'claude', claude: { permissionMode: 'default' } })).body;
  pane = new ClaudeTabPane(agent, tab);
  await pane.waitScreen('the prompt in manual mode', (s) => s.includes('manual mode on'), 30_000);
  await status.waitState(tab.id, 'idle', (s) => s.permissionMode === 'manual' && s.claudeRunning);
}, 120_000);

afterAll(async () => {
  status?.ws.close();
  await stopClaudePage({ browser, fake });
});

/** The mode Claude's own footer names, as a person reads it. */
function footerMode(screen: string): ClaudeMode | null {
  const footers: [string, ClaudeMode][] = [
    ['⏸ manual mode on', 'manual'],
    ['⏵⏵ accept edits on', 'accept-edits'],
    ['⏸ plan mode on', 'plan'],
    ['⏵⏵ auto mode on', 'auto'],
    ['⏵⏵ bypass permissions on', 'bypass'],
  ];
  return footers.find(([words]) => screen.includes(words))?.[1] ?? null;
}

/** What axe-core finds serious or critical in the tab screen (the menu, its header), shadow roots included. */
async function seriousFindings(p: Page): Promise<string[]> {
  await p.addScriptTag({ path: AXE });
  const results = await p.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.filter((n) => JSON.stringify(n.target).includes('"pm-terminal-view"')).map((n) => `${v.id}: ${JSON.stringify(n.target)} ${n.failureSummary}`));
}

function shot(p: Page, name: string): Promise<Buffer> {
  return p.screenshot({ path: join(ARTIFACTS, `e2e-permission-mode-${name}.png`) });
}

function modeButton(p: Page): Locator {
  return p.locator('pm-terminal-view header').getByRole('button', { name: /^Permission mode: / });
}

function menu(p: Page): Locator {
  return p.locator('pm-terminal-view').getByRole('group', { name: 'Permission mode' });
}

function choice(p: Page, text: string): Locator {
  return menu(p).getByRole('button', { name: new RegExp(`^${text}`) });
}

describe("a Claude tab's permission mode, with the real Claude Code CLI", () => {
  it('shows manual in the header, switches to Plan from the phone, and Claude’s footer and the list follow', async () => {
    await page.goto(new URL(`/t/${tab.id}/timeline`, agent.url).toString());
    await expect.poll(() => modeButton(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Permission mode: Manual');
    await shot(page, 'manual-phone');

    await modeButton(page).tap();
    expect(await modeButton(page).getAttribute('aria-expanded')).toBe('true');
    const names = await menu(page).locator('.mode-choice .chip').allTextContents();
    expect(names).toEqual(['Manual', 'Accept edits', 'Plan', 'Auto', 'Bypass permissions']);
    expect(await choice(page, 'Manual').getAttribute('aria-current')).toBe('true');
    expect(await choice(page, 'Plan').getAttribute('aria-current')).toBe('false');
    expect(describeSmallTargets('the mode menu', await smallTapTargets(page))).toEqual([]);
    await shot(page, 'menu-phone');

    // The request is held in the browser until the pending state has been seen; the agent then answers it as ever.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**/api/tabs/${tab.id}/mode`, async (route) => {
      await held;
      await route.continue();
    });
    await choice(page, 'Plan').tap();
    await page.locator('pm-terminal-view').getByRole('status').getByText('Pressing Shift+Tab until Claude shows Plan…').waitFor();
    expect(await choice(page, 'Auto').isDisabled()).toBe(true);
    await shot(page, 'switching-phone');
    release();

    await expect.poll(() => modeButton(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Permission mode: Plan');
    await expect.poll(() => menu(page).count()).toBe(0);
    expect(await pane.screen()).toContain('⏸ plan mode on');
    await status.waitState(tab.id, 'idle', (s) => s.permissionMode === 'plan');
    await page.unroute(`**/api/tabs/${tab.id}/mode`);
    await shot(page, 'plan-phone');

    await page.goto(agent.url);
    const row = page.locator(`pm-tab-row[data-tab-id="${tab.id}"]`);
    await row.locator('.chip', { hasText: 'Plan' }).waitFor({ timeout: 15_000 });
    expect(await row.getByRole('button', { name: /^Open Claude in .*, Plan mode$/ }).count()).toBe(1);
    await shot(page, 'plan-list-phone');
  }, 120_000);

  it('asks before bypass, sends nothing on Cancel, and shows the agent’s refusal when the session has no bypass', async () => {
    await page.goto(new URL(`/t/${tab.id}/timeline`, agent.url).toString());
    await expect.poll(() => modeButton(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Permission mode: Plan');
    await modeButton(page).tap();

    await choice(page, 'Bypass permissions').tap();
    const confirm = page.locator('pm-terminal-view pm-confirm-bar');
    await confirm.getByRole('alertdialog', { name: /^Switch to bypass permissions\?/ }).waitFor();
    await shot(page, 'bypass-confirm-phone');
    await confirm.getByRole('button', { name: 'Cancel' }).tap();
    expect(await confirm.count()).toBe(0);
    expect(await pane.screen()).toContain('⏸ plan mode on');

    await choice(page, 'Bypass permissions').tap();
    await confirm.getByRole('button', { name: 'Switch to bypass' }).tap();
    const refusal = page.locator('pm-terminal-view').getByRole('alert');
    await refusal.getByText(NO_BYPASS, { exact: false }).waitFor({ timeout: 30_000 });
    expect(await pane.screen()).not.toContain('bypass permissions on');
    // Wherever the tour of the cycle stopped, the header says what the footer and the status say,
    // and the refusal says where Claude is when that is not where it was.
    const after = footerMode(await pane.screen());
    if (after === null) throw new Error('Claude’s footer names no mode after the refusal');
    expect(after).not.toBe('bypass');
    await status.waitState(tab.id, 'idle', (s) => s.permissionMode === after);
    await expect.poll(() => modeButton(page).getAttribute('aria-label')).toBe(`Permission mode: ${CLAUDE_MODE_TEXT[after]}`);
    expect(await refusal.textContent()).toBe(after === 'plan' ? `${NO_BYPASS}.` : `${NO_BYPASS}. Claude is in ${CLAUDE_MODE_TEXT[after]} now.`);
    await shot(page, 'bypass-refused-phone');
  }, 120_000);

  it('switches from a desktop browser too: the menu beside the header at 1280×800', async () => {
    let desktop: BrowserContext | undefined;
    try {
      // axe-core is added to the page as an inline script, which the app's CSP refuses.
      desktop = await browser.newContext({ ...DESKTOP, bypassCSP: true });
      await pairBrowser(desktop, agent, 'Desktop');
      const wide = await desktop.newPage();
      await wide.goto(new URL(`/t/${tab.id}/timeline`, agent.url).toString());
      await expect.poll(() => modeButton(wide).getAttribute('aria-label'), { timeout: 15_000 }).toMatch(/^Permission mode: /);
      await modeButton(wide).click();
      await choice(wide, 'Auto').waitFor();
      expect(await seriousFindings(wide)).toEqual([]);
      await shot(wide, 'menu-desktop');
      await choice(wide, 'Auto').click();
      await expect.poll(() => modeButton(wide).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Permission mode: Auto');
      expect(await pane.screen()).toContain('⏵⏵ auto mode on');
      await status.waitState(tab.id, 'idle', (s) => s.permissionMode === 'auto');
      await shot(wide, 'auto-desktop');
    } finally {
      await desktop?.close();
    }
  }, 120_000);

  it('has nothing serious or critical for axe in the open menu on a phone, in the dark theme', async () => {
    let dark: BrowserContext | undefined;
    try {
      dark = await browser.newContext({ ...PHONE, colorScheme: 'dark', bypassCSP: true });
      await pairBrowser(dark, agent, 'Pixel 8 dark');
      const p = await dark.newPage();
      await p.goto(new URL(`/t/${tab.id}/timeline`, agent.url).toString());
      await expect.poll(() => modeButton(p).getAttribute('aria-label'), { timeout: 15_000 }).toMatch(/^Permission mode: /);
      await modeButton(p).tap();
      await choice(p, 'Bypass permissions').tap();
      await p.locator('pm-terminal-view pm-confirm-bar').getByRole('alertdialog').waitFor();
      expect(await seriousFindings(p)).toEqual([]);
      await shot(p, 'menu-dark-phone');
    } finally {
      await dark?.close();
    }
  }, 120_000);

  it('keeps the name whole in a phone’s terminal header beside a long mode, Accept edits', async () => {
    await page.goto(new URL(`/t/${tab.id}`, agent.url).toString());
    await expect.poll(() => modeButton(page).getAttribute('aria-label'), { timeout: 15_000 }).toMatch(/^Permission mode: (Manual|Plan|Auto)$/);
    await modeButton(page).tap();
    await choice(page, 'Accept edits').tap();
    await expect.poll(() => modeButton(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Permission mode: Accept edits');
    expect(await pane.screen()).toContain('⏵⏵ accept edits on');
    await shot(page, 'accept-edits-terminal-phone');
    const name = page.locator('pm-terminal-view header .primary-text');
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth && el.textContent === 'Claude')).toBe(true);
    const button = await modeButton(page).boundingBox();
    expect(button?.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }, 120_000);
});
