/**
 * A Claude tab started from the phone's list, in real Chromium, against a real agent running
 * the real Claude Code CLI (against the stand-in API): "New Claude"'s sheet starts claude in
 * a new tab whose terminal shows its prompt box; a prompt typed in that terminal reaches the
 * API and the answer shows; `/exit` ends claude, and the list's row, the tab's header and the
 * composer say Claude is not running.
 * Screenshots: test-artifacts/e2e-claude-tab-<state>-<size>.png.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspacesResponse, WorkspaceView } from '../../protocol/api.js';
import type { AgentHandle } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, pairBrowser, screenLines } from '../support/browser.js';
import { startClaudePage, stopClaudePage } from '../support/claude-page.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { api, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { type FakeAnthropic, text } from '../support/fake-anthropic.js';
import { StatusClient } from '../support/status.js';

let fake: FakeAnthropic;
let agent: AgentHandle;
let browser: Browser;
let page: Page;
let session: Session;
let status: StatusClient;
let workspace: WorkspaceView;

const PROMPT = 'which bird is it';
const ANSWER = 'It is a pelican, 42.';

beforeAll(async () => {
  let project: string;
  ({ fake, agent, browser, page, session, project } = await startClaudePage());
  workspace = (await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project, name: 'project' })).body;
  status = new StatusClient(session);
  await status.opened;
}, 90_000);

afterAll(async () => {
  status?.ws.close();
  await stopClaudePage({ browser, fake });
});

function shot(p: Page, name: string): Promise<Buffer> {
  return p.screenshot({ path: join(ARTIFACTS, `e2e-claude-tab-${name}.png`) });
}

/** Whether the tab header's name shows whole, not cut by the state beside it. */
async function headerNameWhole(p: Page): Promise<boolean> {
  return p.locator('pm-terminal-view header .primary-text').evaluate((el) => el.scrollWidth <= el.clientWidth && el.textContent === 'Claude');
}

/** Whether a row of the page's terminal passes `test`. */
async function someRow(p: Page, test: (row: string) => boolean): Promise<boolean> {
  return (await screenLines(p)).some(test);
}

describe('a Claude tab started from the list, with the real Claude Code CLI', () => {
  let tabId: string;

  it('starts Claude from the sheet: the terminal shows its prompt box, and a prompt typed there is answered', async () => {
    fake.onPrompt(PROMPT, text(ANSWER));
    await page.goto(agent.url);
    const card = page.getByRole('region', { name: 'Workspace project', exact: true });
    await card.getByRole('button', { name: /^Claude options/ }).tap();
    const sheet = card.locator('pm-new-claude-sheet');
    await sheet.getByRole('button', { name: 'Start a new session' }).waitFor();
    await sheet.getByLabel('Permission mode').selectOption('default');
    await sheet.getByRole('button', { name: 'Start a new session' }).tap();
    await page.waitForURL(/\/t\/[a-z0-9-]+$/);
    tabId = new URL(page.url()).pathname.split('/').at(-1) as string;

    const tab = await eventually(async () => {
      const res = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces');
      return res.body.workspaces.find((w) => w.id === workspace.id)?.tabs.find((t) => t.id === tabId);
    }, 10_000, 'the new tab on the agent');
    expect(tab.kind).toBe('claude');
    await status.waitState(tabId, 'idle', (s) => s.claudeRunning, 30_000);
    const pane = new ClaudeTabPane(agent, tab);

    // Claude's input box, drawn in the page's terminal: the prompt mark alone on its row.
    await expect.poll(() => someRow(page, (r) => /^❯\s*$/.test(r)), { timeout: 30_000 }).toBe(true);
    await shot(page, 'started-phone');

    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.type(PROMPT);
    // Claude may drop keys while it starts; Enter goes once the input box shows the whole prompt.
    await expect.poll(() => someRow(page, (r) => r.includes(`❯ ${PROMPT}`)), { timeout: 15_000 }).toBe(true);
    await page.keyboard.press('Enter');
    const request = await fake.waitForRequest((r) => !r.sideCall && r.prompt?.includes(PROMPT) === true, 30_000);
    expect(request.prompt).toBe(PROMPT);
    await expect.poll(() => someRow(page, (r) => r.includes(ANSWER)), { timeout: 30_000 }).toBe(true);
    await pane.waitScreen('the answer in the pane', (s) => s.includes(ANSWER));
    await status.waitState(tabId, 'ready-for-review', (s) => s.claudeRunning);
    await page.locator('pm-terminal-view header').getByText('Ready for review', { exact: true }).waitFor();
    expect(await headerNameWhole(page)).toBe(true);
    await shot(page, 'answered-phone');
  }, 120_000);

  it('says Claude is not running once /exit ended it: the row, the tab header and the composer', async () => {
    const tab = { id: tabId, workspaceId: workspace.id };
    const pane = new ClaudeTabPane(agent, tab);
    await page.goto(new URL(`/t/${tabId}`, agent.url).toString());
    await expect.poll(() => someRow(page, (r) => /^❯\s*$/.test(r)), { timeout: 20_000 }).toBe(true);
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.type('/exit');
    await expect.poll(() => someRow(page, (r) => r.includes('❯ /exit')), { timeout: 15_000 }).toBe(true);
    await page.keyboard.press('Enter');

    await status.waitState(tabId, 'idle', (s) => !s.claudeRunning, 30_000);
    // The pane is its shell again.
    await pane.waitScreen('the shell prompt', (s) => /[$#]\s*$/.test(s.trimEnd()));

    const header = page.locator('pm-terminal-view header');
    await header.getByText('Claude not running', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await headerNameWhole(page)).toBe(true);
    await shot(page, 'not-running-terminal-phone');

    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    const row = page.locator(`pm-tab-row[data-tab-id="${tabId}"]`);
    await row.getByRole('button', { name: /^Open Claude in .*, Claude not running$/ }).waitFor();
    await row.getByText('Claude not running', { exact: true }).waitFor();
    await shot(page, 'not-running-list-phone');

    await page.goto(new URL(`/t/${tabId}/timeline`, agent.url).toString());
    const composer = page.locator('pm-composer');
    await composer.getByRole('note').filter({ hasText: 'Claude is not running in this tab: start it again in the terminal.' }).waitFor({ timeout: 20_000 });
    expect(await composer.getByRole('textbox', { name: 'Prompt for Claude' }).count()).toBe(0);
    await shot(page, 'not-running-composer-phone');

    // The same words on a desktop, beside the list.
    const desktop = await browser.newContext(DESKTOP);
    await pairBrowser(desktop, agent, 'Desktop');
    const wide = await desktop.newPage();
    await wide.goto(new URL(`/t/${tabId}`, agent.url).toString());
    await wide.locator('pm-terminal-view header').getByText('Claude not running', { exact: true }).waitFor({ timeout: 15_000 });
    await wide.locator(`pm-tab-row[data-tab-id="${tabId}"]`).getByText('Claude not running', { exact: true }).waitFor();
    await expect.poll(() => screenLines(wide).then((rows) => rows.some((r) => /[$#]$/.test(r))), { timeout: 15_000 }).toBe(true);
    await shot(wide, 'not-running-desktop');
    await desktop.close();
  }, 120_000);
});
