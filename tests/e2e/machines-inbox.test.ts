/**
 * The inbox across machines, in real Chromium against real agents: a phone paired only with
 * the home agent sees the permission prompt of the real Claude Code CLI running on a linked
 * machine (against the stand-in API), its card naming that machine, and Approve there makes
 * the command run on that machine. The sessions list groups the linked machine's workspace
 * under its name. Screenshots: test-artifacts/e2e-machines-inbox-<size>.png.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import type { MachineLinkResponse } from '../../protocol/machines.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser } from '../support/browser.js';
import { CLAUDE_BIN, prepareClaudeEnv } from '../support/claude-env.js';
import { eventually } from '../support/eventually.js';
import { bash, FakeAnthropic } from '../support/fake-anthropic.js';

let fake: FakeAnthropic;
let home: AgentHandle;
let build: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let page: Page;
let project: string;
let tab: TabView;

async function cli(agent: AgentHandle, ...args: string[]): Promise<string> {
  const run = await runCli([...args, '--json', '--data-dir', agent.dataDir], agentEnv(agent), 30_000);
  if (run.code !== 0) throw new Error(`pocketmux ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

beforeAll(async () => {
  fake = await FakeAnthropic.start();
  const env = newTestEnvironment();
  mkdirSync(join(env.home, 'shop'), { recursive: true });
  project = realpathSync(join(env.home, 'shop'));
  const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  [home, build] = await Promise.all([startAgent(), startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: claude.env })]);
  tab = JSON.parse(await cli(build, 'tab', 'new', '--claude', '--permission-mode', 'default', project)) as TabView;
  const { code } = JSON.parse(await cli(build, 'machines', 'link-code')) as MachineLinkResponse;
  await cli(home, 'machines', 'add', code, '--name', 'Build box');
  browser = await launchBrowser();
  phone = await browser.newContext(PHONE);
  await pairBrowser(phone, home, 'Pixel 8');
  page = await phone.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
  await fake?.close();
});

describe('the inbox across machines', () => {
  it('shows a linked machine’s workspace under its name, and its Claude’s permission prompt, answered from the phone', async () => {
    await page.goto(home.url);
    const workspace = page.getByRole('region', { name: 'Workspace Build box · shop' });
    await workspace.getByRole('heading', { name: 'Build box · shop' }).waitFor({ timeout: 60_000 });
    // Claude on the build machine is ready: asked through its own CLI, as a person at it would.
    await eventually(async () => /"state": "idle"/.test(await cli(build, 'tab', 'status', tab.id)), 60_000, 'Claude idle on the build machine');

    const marker = join(project, 'from-the-phone.txt');
    fake.onPrompt('write the marker', bash(`echo approved > ${marker}`, 'Write the marker'));
    await cli(build, 'tab', 'send', tab.id, 'write the marker');
    const card = page.locator('pm-approval-card').filter({ hasText: 'echo approved' });
    await card.waitFor({ timeout: 60_000 });
    expect(await card.locator('.where').textContent()).toMatch(/Build box · shop\s*·\s*Claude/);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-machines-inbox-phone.png') });
    await card.getByRole('button', { name: 'Approve' }).tap();
    await eventually(() => existsSync(marker), 30_000, 'the command to run on the build machine');
    expect(readFileSync(marker, 'utf8')).toBe('approved\n');
    await card.waitFor({ state: 'detached', timeout: 20_000 });
  }, 180_000);

  it('looks right on a desktop too', async () => {
    const desktop = await browser.newContext(DESKTOP);
    try {
      await pairBrowser(desktop, home, 'Desk');
      const wide = await desktop.newPage();
      await wide.goto(home.url);
      await wide.getByRole('heading', { name: 'Build box · shop' }).waitFor();
      await wide.screenshot({ path: join(ARTIFACTS, 'e2e-machines-inbox-desktop.png') });
    } finally {
      await desktop.close();
    }
  });
});
