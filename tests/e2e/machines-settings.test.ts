/**
 * Linked machines in the phone's Settings, in real Chromium against real agents on this
 * machine: the home agent (the one the phone is paired with) links another that serves HTTPS
 * with a certificate of its own, from a code pasted into the page; a third stopped shows as
 * unreachable, saying why; a machine is unlinked with a confirmation; and the agent that was
 * linked lists the home agent among its devices as a linked machine.
 * Screenshots: test-artifacts/e2e-machines-<what>-<size>.png.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MachineLinkResponse } from '../../protocol/machines.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, testCertificate } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser } from '../support/browser.js';

let home: AgentHandle;
let other: AgentHandle;
let spare: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let page: Page;

async function linkCode(agent: AgentHandle): Promise<string> {
  const run = await runCli(['machines', 'link-code', '--json', '--data-dir', agent.dataDir], agentEnv(agent), 30_000);
  if (run.code !== 0) throw new Error(`link-code: ${run.stderr}`);
  return (JSON.parse(run.stdout) as MachineLinkResponse).code;
}

async function withCertificate(): Promise<AgentHandle> {
  const env = newTestEnvironment();
  const files = testCertificate(env.root, 30);
  return startAgent({ reuse: env, args: ['--tls-cert', files.cert, '--tls-key', files.key] });
}

beforeAll(async () => {
  [home, other, spare] = await Promise.all([startAgent(), withCertificate(), withCertificate()]);
  browser = await launchBrowser();
  phone = await browser.newContext(PHONE);
  await pairBrowser(phone, home, 'Pixel 8');
  page = await phone.newPage();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
});

function section(p: Page) {
  return p.locator('pm-machines-section');
}

describe('linked machines in Settings', () => {
  it('links a machine from a pasted code, and lists it as answering over its pinned certificate', async () => {
    await page.goto(new URL('/settings', home.url).href);
    const machines = section(page);
    await machines.getByRole('heading', { name: 'Machines' }).waitFor();
    await machines.getByRole('button', { name: 'Link a machine' }).tap();
    const form = machines.getByRole('form', { name: 'Link a machine' });
    // A code a chat app broke over lines still links.
    const code = await linkCode(other);
    await form.getByRole('textbox', { name: /paste its code here/ }).fill(`${code.slice(0, 60)}\n${code.slice(60)}`);
    await form.getByRole('textbox', { name: 'Name (optional)' }).fill('Build box');
    await form.getByRole('button', { name: 'Link' }).tap();
    await machines.getByRole('status').getByText('“Build box” is linked.').waitFor();
    const row = machines.getByRole('list', { name: 'Machines' }).getByRole('listitem').filter({ hasText: 'Build box' });
    await row.getByText('Answers').waitFor();
    expect(await row.locator('.meta').textContent()).toMatch(new RegExp(`^127\\.0\\.0\\.1:${other.port} · its own certificate, pinned · answered `));
  });

  it('says what is wrong with a code that is not one, and links nothing', async () => {
    const machines = section(page);
    await machines.getByRole('button', { name: 'Link a machine' }).tap();
    const form = machines.getByRole('form', { name: 'Link a machine' });
    await form.getByRole('textbox', { name: /paste its code here/ }).fill('ABCD-EFGH');
    await form.getByRole('button', { name: 'Link' }).tap();
    await form.getByRole('alert').getByText(/^Not a link code: it starts with pmlink1\./).waitFor();
    await form.getByRole('button', { name: 'Cancel' }).tap();
    expect(await machines.getByRole('listitem').count()).toBe(1);
  });

  it('shows a machine that stopped as unreachable, saying why, at phone and desktop sizes', async () => {
    const added = await runCli(['machines', 'add', await linkCode(spare), '--name', 'Laptop', '--data-dir', home.dataDir], agentEnv(home), 30_000);
    expect(added.code).toBe(0);
    // Bounded, so a stop that hangs says so rather than outlasting the test.
    const stopped = await Promise.race([spare.stop().then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 20_000))]);
    expect(stopped, 'the linked agent to stop within 20 s').toBe(true);
    await page.reload();
    const machines = section(page);
    const row = machines.getByRole('listitem').filter({ hasText: 'Laptop' });
    // Once it was asked (not "Checking…"), what it says, whatever it is, is what is checked.
    const reach = row.locator('.reach');
    await expect.poll(() => reach.textContent(), { timeout: 30_000 }).not.toMatch(/^(Checking…|Answers)$/);
    expect(await reach.textContent()).toBe('Unreachable');
    expect(await row.locator('.problem').textContent()).toBe(`Cannot reach the agent at 127.0.0.1:${spare.port}: ECONNREFUSED`);
    await machines.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-machines-settings-phone.png'), fullPage: true });

    const desktop = await browser.newContext(DESKTOP);
    try {
      await pairBrowser(desktop, home, 'Desk');
      const wide = await desktop.newPage();
      await wide.goto(new URL('/settings', home.url).href);
      await section(wide).getByRole('listitem').filter({ hasText: 'Laptop' }).getByText('Unreachable').waitFor();
      await wide.screenshot({ path: join(ARTIFACTS, 'e2e-machines-settings-desktop.png'), fullPage: true });
    } finally {
      await desktop.close();
    }
  }, 120_000);

  it('unlinks with a confirmation, and the other agent forgets this one', async () => {
    const machines = section(page);
    const row = machines.getByRole('listitem').filter({ hasText: 'Build box' });
    await row.getByRole('button', { name: 'Unlink Build box' }).tap();
    await row.getByRole('button', { name: 'Unlink' }).tap();
    await machines.getByRole('status').getByText('“Build box” is unlinked, and no longer lists this computer among its devices.').waitFor();
    expect(await machines.getByRole('listitem').filter({ hasText: 'Build box' }).count()).toBe(0);
    const devices = await runCli(['devices', '--json', '--data-dir', other.dataDir], agentEnv(other), 30_000);
    expect((JSON.parse(devices.stdout) as { kind: string }[]).filter((d) => d.kind === 'machine')).toEqual([]);
  });

  it('the linked agent lists the home agent among its devices as a linked machine, revocable there', async () => {
    // The home agent links one on loopback, whose own Settings a browser on this machine opens.
    const local = await startAgent();
    expect((await runCli(['machines', 'add', await linkCode(local), '--data-dir', home.dataDir], agentEnv(home), 30_000)).code).toBe(0);
    const context = await browser.newContext(PHONE);
    try {
      await pairBrowser(context, local, 'Pixel 8');
      const there = await context.newPage();
      await there.goto(new URL('/settings', local.url).href);
      const list = there.getByRole('list', { name: 'Devices' });
      const machine = list.getByRole('listitem').filter({ hasText: 'Linked machine' });
      await machine.waitFor();
      expect(await machine.locator('.meta').first().textContent()).toMatch(/^pocketmux agent · paired /);
      await machine.getByRole('button', { name: /^Revoke / }).tap();
      await machine.getByText("That computer stops following this one's sessions until it is linked again.", { exact: false }).waitFor();
      await there.screenshot({ path: join(ARTIFACTS, 'e2e-machines-linked-device-phone.png'), fullPage: true });
      await machine.getByRole('button', { name: 'Revoke', exact: true }).tap();
      await list.getByRole('listitem').filter({ hasText: 'Linked machine' }).waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
    // The home agent is told so the next time it asks.
    const listed = await runCli(['machines', '--json', '--data-dir', home.dataDir], agentEnv(home), 30_000);
    const machines = JSON.parse(listed.stdout) as { url: string; reach: string }[];
    expect(machines.find((m) => m.url === local.url)?.reach).toBe('revoked');
  }, 60_000);
});
