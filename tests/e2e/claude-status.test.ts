/**
 * Claude status in real Chromium against a real agent: hook payloads captured from Claude
 * Code go into the agent's real hook intake for a tab, and the PWA must show them on the
 * tab's row, the workspace, the document title and the tab's own screen; opening a finished
 * tab marks it seen. The timeline reads a real transcript the hooks point at.
 */
import { appendFileSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspacesResponse } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, pairPage, xtermAssets } from '../support/browser.js';
import { api, createTab, localDevice, type Session } from '../support/client.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332');

interface HookPayload {
  hook_event_name: string;
  session_id: string;
  transcript_path?: string;
  [key: string]: unknown;
}

const captured = readFileSync(join(FIXTURES, 'hooks.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as HookPayload);

function payload(event: string, extra: Partial<HookPayload> = {}): HookPayload {
  const found = captured.find((p) => p.hook_event_name === event);
  if (!found) throw new Error(`no captured ${event}`);
  return { ...found, ...extra };
}

/** Claude Code's project folder for a directory: everything but letters and digits becomes `-`. */
const projectSlug = (dir: string) => dir.replace(/[^A-Za-z0-9]/g, '-');

let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let page: Page;
let session: Session;
let hookToken: string;
let transcript: string;
let waiting: TabView;
let working: TabView;
/** Held hook requests (a PermissionRequest may be answered only later); cut off at the end. */
const inFlight = new AbortController();

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  [agent, browser] = await Promise.all([
    startAgent({
      reuse: env,
      // No claude here: "New Claude" must show the agent's refusal as it is.
      args: ['--claude-bin', 'pmx-no-such-claude'],
      // The safety net would find no claude in these shell tabs and reset them to idle.
      env: { POCKETMUX_SAFETY_POLL_MS: '3600000' },
    }),
    launchBrowser(),
  ]);
  hookToken = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
});

afterAll(async () => {
  inFlight.abort();
  await browser?.close();
  await cleanupAgents();
});

async function paneHeaders(tab: TabView): Promise<Record<string, string>> {
  const out = await tmux(agent.tmuxSocket, 'display', '-p', '-t', `=pm_${tab.workspaceId}_${tab.id}:`, '#{pane_id}\t#{socket_path}\t#{pid}');
  const [pane = '', socketPath = '', pid = ''] = out.trim().split('\t');
  return {
    'content-type': 'application/json',
    'x-pocketmux-token': hookToken,
    'x-pocketmux-pane': pane,
    'x-pocketmux-tmux': `${socketPath},${pid},0`,
  };
}

/** What Claude's hook script does: the payload as it came, to the agent's intake. */
async function sendHook(tab: TabView, body: HookPayload): Promise<Response> {
  return fetch(new URL(`hooks/${body.hook_event_name}`, agent.url), {
    method: 'POST',
    headers: await paneHeaders(tab),
    body: JSON.stringify(body),
    signal: inFlight.signal,
  });
}

async function hook(tab: TabView, body: HookPayload): Promise<void> {
  if (body.hook_event_name === 'PermissionRequest') {
    // Approvals may hold this request until someone answers; the status moves at once.
    sendHook(tab, body).catch(() => undefined);
    return;
  }
  const res = await sendHook(tab, body);
  expect(res.status, `${body.hook_event_name}: ${await res.clone().text()}`).toBeLessThan(300);
}

function row(p: Page, tab: TabView): Locator {
  return p.locator(`pm-tab-row[data-tab-id="${tab.id}"]`);
}

async function dotOf(scope: Locator): Promise<string | null> {
  return scope.locator('pm-status-dot').first().getAttribute('aria-label');
}

async function expectDot(scope: Locator, label: string): Promise<void> {
  await expect.poll(() => dotOf(scope), { timeout: 10_000, interval: 100 }).toBe(label);
}

async function expectTitle(p: Page, title: string): Promise<void> {
  await expect.poll(() => p.title(), { timeout: 10_000, interval: 100 }).toBe(title);
}

describe('Claude status in Chromium', () => {
  it('shows needs-input and ready-for-review on the row, the workspace and the title', async () => {
    phone = await browser.newContext(PHONE);
    page = await phone.newPage();
    await pairPage(page, { link: agent.link });
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(await page.title()).toBe('pocketmux');
    session = await localDevice(agent);

    waiting = await createTab(session);
    working = await createTab(session);
    await expect.poll(() => page.locator('pm-tab-row').count()).toBe(2);
    // A plain shell has nothing to report: no dot.
    expect(await row(page, waiting).locator('pm-status-dot').count()).toBe(0);

    await hook(working, payload('UserPromptSubmit'));
    await expectDot(row(page, working), 'Working');

    await hook(waiting, payload('UserPromptSubmit'));
    await hook(waiting, payload('PermissionRequest'));
    await expectDot(row(page, waiting), 'Needs input');
    await expectTitle(page, '(1) pocketmux');
    await expectDot(page.locator('pm-workspace-card'), 'Home: needs input');
    await row(page, waiting).getByRole('button', { name: /^Open bash in .*, Needs input$/ }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-status-phone.png') });

    await hook(waiting, payload('Stop'));
    await expectDot(row(page, waiting), 'Ready for review');
    await expectTitle(page, '(1) pocketmux');
    // Busy outranks nothing that waits on the person: the workspace shows the review.
    await expectDot(page.locator('pm-workspace-card'), 'Home: ready for review');
  });

  it('marks a reviewed tab seen when its terminal opens', async () => {
    await row(page, waiting).getByRole('button', { name: /^Open bash/ }).click();
    await page.waitForURL(new RegExp(`/t/${waiting.id}$`));
    // Seen: nothing waits any more, and the title names the open tab.
    await expectTitle(page, 'bash · pocketmux');
    await expectDot(page.locator('pm-terminal-view header'), 'Idle');

    await page.getByRole('button', { name: 'Back to sessions' }).click();
    await expectDot(row(page, waiting), 'Idle');
    await expectDot(row(page, working), 'Working');
    await expectDot(page.locator('pm-workspace-card'), 'Home: working');
    expect(await page.title()).toBe('pocketmux');
  });

  it('shows the states on a desktop, and in the header of an open tab', async () => {
    const desktop = await browser.newContext(DESKTOP);
    await pairBrowser(desktop, agent, 'Desktop');
    const dpage = await desktop.newPage();
    await dpage.goto(agent.url);
    await dpage.getByRole('heading', { name: 'Home' }).waitFor();

    await hook(waiting, payload('UserPromptSubmit'));
    await hook(waiting, payload('Stop'));
    await expectDot(row(dpage, waiting), 'Ready for review');
    await expectTitle(dpage, '(1) pocketmux');
    // The other device sees the same.
    await expectTitle(page, '(1) pocketmux');
    await dpage.screenshot({ path: join(ARTIFACTS, 'e2e-status-desktop.png') });

    await row(dpage, working).getByRole('button', { name: /^Open bash/ }).click();
    await dpage.locator('.xterm-rows').waitFor();
    await expectDot(dpage.locator('pm-terminal-view header'), 'Working');
    await dpage.screenshot({ path: join(ARTIFACTS, 'e2e-status-terminal-desktop.png') });
    // Opening a busy tab dismisses nothing.
    await expectTitle(dpage, '(1) bash · pocketmux');
    await desktop.close();
  });

  it('shows the conversation of a tab as a timeline, live, without loading the terminal', async () => {
    const { body } = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces');
    const dir = body.workspaces[0]?.dir as string;
    const sessionId = payload('Stop').session_id;
    const folder = join(agent.home, '.claude', 'projects', projectSlug(dir));
    mkdirSync(folder, { recursive: true });
    transcript = join(folder, `${sessionId}.jsonl`);
    copyFileSync(join(FIXTURES, 'transcript.jsonl'), transcript);
    await hook(waiting, payload('UserPromptSubmit', { transcript_path: transcript }));
    await hook(waiting, payload('Stop', { transcript_path: transcript }));
    await expectDot(row(page, waiting), 'Ready for review');

    const fresh = await phone.newPage();
    const requested: string[] = [];
    fresh.on('request', (req) => requested.push(new URL(req.url()).pathname));
    await fresh.goto(new URL(`/t/${waiting.id}/timeline`, agent.url).toString());
    const timeline = fresh.locator('pm-timeline-view');
    await timeline.getByText('All done: the command ran.').first().waitFor();
    expect(await timeline.locator('.prompt .text').allTextContents()).toEqual([
      'You: please run it',
      'You: please run it again',
      'You: do it slowly',
    ]);
    await timeline.getByText('Interrupted by you').waitFor();
    await timeline.getByText('Tool call stopped by you').waitFor();
    expect(await timeline.locator('details.tool').count()).toBe(2);
    // Seeing the conversation is seeing the result, as the terminal is.
    await expectTitle(fresh, 'bash · pocketmux');
    const xterm = xtermAssets();
    expect(requested.filter((p) => xterm.includes(p))).toEqual([]);

    // A tool call opens to its command and result.
    await timeline.locator('details.tool summary').first().click();
    await timeline.getByText('(Bash completed with no output)').waitFor();

    // Claude goes on writing: the new lines arrive and the view follows them.
    const lines = readFileSync(transcript, 'utf8').split('\n');
    const prompt = JSON.parse(lines.find((l) => l.includes('"content":"please run it"')) as string);
    const answer = JSON.parse(lines.find((l) => l.includes('All done: the command ran.') && l.includes('"msg_1"')) as string);
    const now = new Date().toISOString();
    prompt.uuid = '11111111-2222-4333-8444-555555555555';
    prompt.timestamp = now;
    prompt.message.content = 'and now sum it up';
    answer.uuid = '66666666-7777-4888-9999-000000000000';
    answer.parentUuid = prompt.uuid;
    answer.timestamp = now;
    answer.message.id = 'msg_live';
    answer.message.content = [{ type: 'text', text: 'Summary:\n- the command ran\n- it printed nothing' }];
    appendFileSync(transcript, `${JSON.stringify(prompt)}\n${JSON.stringify(answer)}\n`);
    await timeline.getByText('and now sum it up').waitFor();
    const last = timeline.locator('.assistant .md').last();
    // Claude's answer is Markdown: its list is a list.
    await expect.poll(() => last.locator('li').allTextContents()).toEqual(['the command ran', 'it printed nothing']);
    expect(await last.textContent()).toContain('Summary:');
    await expect.poll(() => last.isVisible()).toBe(true);
    await expect
      .poll(() => timeline.locator('.scroller').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight))
      .toBeLessThan(64);
    await fresh.screenshot({ path: join(ARTIFACTS, 'e2e-status-timeline.png') });

    // Back to the terminal of the same tab: the switch keeps the place in history.
    await fresh.getByRole('button', { name: 'Terminal', exact: true }).click();
    await fresh.waitForURL(new RegExp(`/t/${waiting.id}$`));
    await fresh.locator('.xterm-rows').waitFor();
    await fresh.close();
  });

  it('starts Claude from a workspace, and shows why it could not', async () => {
    await page.getByRole('button', { name: 'New Claude' }).click();
    await page.getByRole('alert').getByText('was not found on the login PATH').waitFor();
    expect(page.url()).toBe(agent.url);

    await page.getByRole('button', { name: /^Claude options/ }).click();
    const sheet = page.locator('pm-new-claude-sheet');
    await sheet.getByRole('button', { name: /^Resume “please run it”/ }).waitFor();
    await sheet.getByLabel('Permission mode').selectOption('plan');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-new-claude-phone.png') });
    await sheet.getByRole('button', { name: /^Resume “please run it”/ }).click();
    await sheet.getByRole('alert').getByText('was not found on the login PATH').waitFor();
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    expect(await sheet.count()).toBe(0);
  });
});
