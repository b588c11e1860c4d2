/**
 * A Codex tab in real Chromium, against a real agent running the real Codex CLI (0.169.0)
 * against the stand-in Responses API: New Codex on a workspace starts Codex in a tab; its
 * permission request is a card on the phone that names Codex, and Approve runs the command;
 * the finished turn is a review card that replies to Codex, and the timeline shows the turn read
 * from Codex's rollout, with a composer whose prompt reaches Codex.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, REPO_ROOT, startAgent, tmux } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, pairPage, waitForLine } from '../support/browser.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { api, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { codexConfigToml, command, FakeOpenAI, message } from '../support/fake-openai.js';
import { StatusClient } from '../support/status.js';

const CODEX_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'codex');

let fake: FakeOpenAI;
let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let page: Page;
let session: Session;
let status: StatusClient;
let project: string;
let tab: TabView;
let pane: ClaudeTabPane;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  mkdirSync(join(env.home, 'project'), { recursive: true });
  project = realpathSync(join(env.home, 'project'));
  fake = await FakeOpenAI.start();
  const codexHome = join(env.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, 'config.toml'), codexConfigToml(fake.url, [project]));
  [agent, browser] = await Promise.all([
    startAgent({ reuse: env, args: ['--codex-bin', CODEX_BIN], env: { CODEX_HOME: codexHome, PM_STAND_IN_KEY: 'sk-stand-in' } }),
    launchBrowser(),
  ]);
  phone = await browser.newContext(PHONE);
  page = await phone.newPage();
  await pairPage(page, { link: agent.link }, 'Pixel 8');
  session = await localDevice(agent);
  expect((await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project, name: 'project' })).status).toBe(201);
  status = new StatusClient(session);
  await status.opened;
}, 90_000);

afterAll(async () => {
  status?.ws.close();
  await browser?.close();
  await cleanupAgents();
  await fake?.close();
});

describe('a Codex tab with the real Codex CLI', () => {
  it('starts from New Codex on a workspace, and its permission request is a card that names Codex; Approve runs the command', async () => {
    await page.goto(agent.url);
    await page.getByRole('region', { name: 'Workspace project' }).getByRole('button', { name: 'New Codex' }).click();
    await page.waitForURL(/\/t\/tb-[a-z0-9]+$/);
    const tabId = page.url().split('/').pop() as string;
    tab = (await api<{ tabs: TabView[] }>(session, 'GET', '/api/tabs')).body.tabs.find((t) => t.id === tabId) as TabView;
    expect(tab.kind).toBe('codex');
    pane = new ClaudeTabPane(agent, tab);
    await pane.waitScreen('the Codex prompt', (s) => s.includes('Ask Codex to do anything'), 60_000);
    // The tab's own screen names it Codex until it is given a name.
    await page.locator('pm-terminal-view').getByText('Codex', { exact: true }).first().waitFor();
    // The phone leaves the terminal: with none open, Codex's request is held for the card (with
    // one open, Codex's own dialog would show and the card answer it by keys).
    await page.goto(agent.url);
    await eventually(async () => (await tmux(agent.tmuxSocket, 'list-clients', '-t', `=pm_${tab.workspaceId}_${tab.id}`)).trim() === '', 15_000, "the page's terminal closed");

    const marker = join(project, 'marker.txt');
    fake.onPrompt('please write the marker', command(`echo marker > ${marker}`, 'Write the marker file'));
    fake.afterToolOutput(message('The marker is written.'));
    await pane.keys('-l', 'please write the marker');
    await pane.waitScreen('the prompt typed', (s) => s.includes('please write the marker'));
    await pane.keys('Enter');
    const approval = await status.waitApproval(tab.id, 60_000);
    expect(approval.kind).toBe('permission');
    const card = page.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`);
    await card.waitFor();
    await card.locator('pre').getByText(`echo marker > ${marker}`).waitFor();
    await card.getByText('Write the marker file').waitFor();
    expect(await card.locator('.where').textContent()).toMatch(/project\s*·\s*Codex\s*·\s*just now/);
    await page.locator(`pm-tab-row[data-tab-id="${tab.id}"]`).getByText('Codex', { exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-codex-approval-phone.png') });
    // Deny asks for a reason to tell Codex, by its name; going back sends nothing.
    await card.getByRole('button', { name: 'Deny' }).tap();
    await card.getByRole('textbox', { name: 'Reason for Codex (optional)' }).waitFor();
    await card.getByRole('button', { name: 'Cancel' }).tap();

    await card.getByRole('button', { name: 'Approve' }).tap();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    await eventually(() => existsSync(marker) && readFileSync(marker, 'utf8') === 'marker\n', 30_000, 'the command to run');
    await status.waitState(tab.id, 'ready-for-review', undefined, 60_000);
    expect(await status.waitResolution(approval.id)).toMatchObject({ outcome: 'approved', by: { kind: 'device', name: 'Pixel 8' } });
  }, 180_000);

  it('shows the finished turn as a review card that replies to Codex, and its timeline with a composer that writes to Codex', async () => {
    const review = page.locator('pm-inbox pm-review-card').filter({ hasText: 'The marker is written.' });
    await review.waitFor({ timeout: 20_000 });
    await review.getByRole('textbox', { name: 'Reply to Codex' }).waitFor();
    expect(await review.locator('.kind').textContent()).toContain('Codex');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-codex-review-phone.png') });
    const desktop = await browser.newContext(DESKTOP);
    try {
      await pairBrowser(desktop, agent, 'Desktop');
      const wide = await desktop.newPage();
      await wide.goto(agent.url);
      await wide.locator('pm-inbox pm-review-card').filter({ hasText: 'The marker is written.' }).waitFor({ timeout: 20_000 });
      await wide.screenshot({ path: join(ARTIFACTS, 'e2e-codex-review-desktop.png') });
    } finally {
      await desktop.close();
    }
    // The review push links the timeline: Codex's conversation, read from its rollout.
    await page.goto(new URL(`/t/${tab.id}/timeline`, agent.url).href);
    const timeline = page.locator('pm-timeline-view');
    await timeline.getByText('please write the marker').waitFor({ timeout: 20_000 });
    await timeline.getByText(`echo marker > ${join(project, 'marker.txt')}`).first().waitFor();
    await timeline.getByText('The marker is written.').waitFor();
    const field = timeline.getByRole('textbox', { name: 'Prompt for Codex' });
    expect(await field.getAttribute('placeholder')).toBe('Message Codex…');
    // Codex's own slash commands are not listed, and the menu says so rather than offer Claude's.
    await field.fill('/');
    await timeline.getByText("Codex's commands are not listed here: type one and send it.").waitFor();
    await field.fill('');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-codex-timeline-phone.png') });
    // A prompt from the phone's composer reaches Codex, and its answer shows in the timeline.
    fake.onPrompt('hello from the phone', message('Hello back from Codex.'));
    await field.fill('hello from the phone');
    await timeline.getByRole('button', { name: 'Send' }).tap();
    await timeline.getByText('Hello back from Codex.').waitFor({ timeout: 60_000 });
    await status.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Hello back from Codex.', 60_000);
  }, 120_000);

  it("with the terminal open on a desktop, Codex's own dialog is the phone's card, answered by its keys", async () => {
    const desktop = await browser.newContext(DESKTOP);
    try {
      await pairBrowser(desktop, agent, 'Desktop');
      const wide = await desktop.newPage();
      await wide.goto(new URL(`/t/${tab.id}`, agent.url).href);
      await eventually(async () => (await tmux(agent.tmuxSocket, 'list-clients', '-t', `=pm_${tab.workspaceId}_${tab.id}`)).trim() !== '', 15_000, "the desktop's terminal");
      const marker = join(project, 'watched.txt');
      fake.onPrompt('please write while watched', command(`echo watched > ${marker}`, 'Write while watched'));
      fake.afterToolOutput(message('Written while you watched.'));
      await pane.keys('-l', 'please write while watched');
      await pane.waitScreen('the prompt typed', (s) => s.includes('please write while watched'));
      await pane.keys('Enter');
      await pane.waitScreen("Codex's own dialog", (s) => s.includes('Would you like to run the following command?'), 60_000);
      const approval = await status.waitApproval(tab.id, 60_000);
      expect(approval.kind).toBe('dialog');
      await page.goto(agent.url);
      const card = page.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`);
      await card.waitFor();
      await card.getByText("On Codex's screen").waitFor();
      await card.getByRole('button', { name: /Yes, proceed/ }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(ARTIFACTS, 'e2e-codex-dialog-phone.png') });
      await waitForLine(wide, /Would you like to run the following command\?/);
      await wide.screenshot({ path: join(ARTIFACTS, 'e2e-codex-dialog-desktop.png') });
      await card.getByRole('button', { name: /Yes, proceed/ }).tap();
      await eventually(() => existsSync(marker) && readFileSync(marker, 'utf8') === 'watched\n', 30_000, 'the command to run');
      await status.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Written while you watched.', 60_000);
      expect(await status.waitResolution(approval.id)).toMatchObject({ outcome: 'answered', by: { kind: 'device', name: 'Pixel 8' } });
    } finally {
      await desktop.close();
    }
  }, 180_000);
});
