/**
 * The inbox across machines, in real Chromium against real agents: a phone paired only with
 * the home agent sees the permission prompt of the real Claude Code CLI running on a linked
 * machine (against the stand-in API), its card naming that machine, and Approve there makes
 * the command run on that machine. The sessions list groups the linked machine's workspace
 * under its name. With the linked machine killed while its Claude asks, the card stays, says
 * since when the machine has not answered and offers no answer; back, the machine offers the
 * dialog again and the phone answers it. Screenshots:
 * test-artifacts/e2e-machines-inbox-<size>.png, e2e-machines-inbox-away.png.
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
/** Starts the build machine's agent (again, on `port`, after it was killed). */
let startBuild: (port?: number) => Promise<AgentHandle>;

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
  startBuild = (port) => startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN, ...(port ? ['--port', String(port)] : [])], env: claude.env });
  [home, build] = await Promise.all([startAgent(), startBuild()]);
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

  it('keeps the card of a machine that stops answering, read but not answered, and answers it once the machine is back', async () => {
    const marker = join(project, 'after-the-outage.txt');
    fake.onPrompt('across the outage', bash(`echo kept > ${marker}`, 'Write a file'));
    await cli(build, 'tab', 'send', tab.id, 'across the outage');
    const card = page.locator('pm-approval-card').filter({ hasText: 'after-the-outage' });
    await card.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 60_000 });
    // What the machine comes back to is what it wrote of the wait (a moment after each change).
    const written = () => JSON.parse(readFileSync(join(build.dataDir, 'status.json'), 'utf8')) as { tabs: Record<string, { state: string }> };
    await eventually(() => written().tabs[tab.id]?.state === 'needs-input', 10_000, 'the wait written on the build machine');

    await build.stop('SIGKILL');
    const note = card.getByRole('status').filter({ hasText: 'Build box has not answered since' });
    await note.waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toMatch(/since \d{1,2}:\d{2}.*: answer it here once it is back\./);
    // Nothing that would go to the machine is offered: no answer, no terminal, no timeline.
    expect(await card.getByRole('button').count()).toBe(0);
    // Its workspace is listed as it was last seen, with nothing that would make or change anything there.
    const away = page.getByRole('region', { name: 'Workspace Build box (unreachable) · shop' });
    await away.waitFor({ timeout: 10_000 });
    expect(await away.getByRole('button', { name: /New|Actions/ }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Workspace Home' }).getByRole('button', { name: 'New Claude' }).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-machines-inbox-away.png') });

    // Its Claude shows the dialog in its terminal (the hook it held failed with the agent);
    // the machine, back on its port, reads it off the screen and offers it again.
    build = await startBuild(build.port);
    await page.getByRole('region', { name: 'Workspace Build box · shop' }).getByRole('button', { name: 'New Claude' }).waitFor({ timeout: 30_000 });
    await card.waitFor({ state: 'detached', timeout: 60_000 });
    const again = page.locator('pm-approval-card').filter({ hasText: 'Do you want to proceed?' });
    const yes = again.getByRole('button', { name: /Yes/ }).first();
    await yes.waitFor({ timeout: 60_000 });
    await yes.tap();
    await eventually(() => existsSync(marker), 30_000, 'the command to run on the machine that came back');
    expect(readFileSync(marker, 'utf8')).toBe('kept\n');
    await again.waitFor({ state: 'detached', timeout: 20_000 });
  }, 240_000);

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
