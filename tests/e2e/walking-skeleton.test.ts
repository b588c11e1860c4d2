/**
 * The walking skeleton in real Chromium against a real agent: pair a phone with the printed
 * pairing URL, open a shell from the list, type into it, reload, and see the same device on
 * a desktop.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHandle, cleanupAgents, startAgent, tmux } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, pairPage, typeCommand, waitForLine, xtermAssets } from '../support/browser.js';
import { eventually } from '../support/eventually.js';

let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [agent, browser] = await Promise.all([startAgent(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
});


async function tmuxClients(): Promise<{ name: string; pid: string }[]> {
  const out = await tmux(agent.tmuxSocket, 'list-clients', '-F', '#{client_name} #{client_pid}');
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name = '', pid = ''] = line.split(' ');
      return { name, pid };
    });
}


describe('walking skeleton in Chromium', () => {
  it('pairs a phone with the printed URL, opens a shell from the list and runs a command', async () => {
    const xterm = xtermAssets();
    expect(xterm.some((a) => a.endsWith('.js'))).toBe(true);
    const index = await (await fetch(agent.url)).text();
    for (const asset of xterm) expect(index).not.toContain(asset);

    phone = await browser.newContext(PHONE);
    const page = await phone.newPage();
    const requested: string[] = [];
    page.on('request', (req) => requested.push(new URL(req.url()).pathname));

    await pairPage(page, { link: agent.link });
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(page.url()).toBe(agent.url);
    expect(await page.evaluate(() => location.hash)).toBe('');
    expect(await page.title()).toBe('pocketmux');
    // The first screen must not download the terminal.
    expect(requested.filter((p) => xterm.includes(p))).toEqual([]);

    await page.getByRole('button', { name: 'New tab' }).click();
    await page.waitForURL(/\/t\/[a-z0-9-]+$/);
    await page.locator('.xterm-rows').waitFor();
    expect(requested.filter((p) => xterm.includes(p)).length).toBeGreaterThan(0);
    // A prompt: `$`, or `#` when the tests run as root.
    await waitForLine(page, /[$#]$/);

    await typeCommand(page, 'echo hello-from-browser');
    await waitForLine(page, 'hello-from-browser');

    // The input bar sends its line as web stdin, then Enter.
    const line = page.getByRole('textbox', { name: 'Send a line to the terminal' });
    await line.fill('echo via-input-bar-$((1+1))');
    await line.press('Enter');
    await waitForLine(page, 'via-input-bar-2');

    // The key bar's sticky Ctrl turns the next typed key into a control character.
    await typeCommand(page, 'sleep 30');
    await page.getByRole('button', { name: 'Ctrl (Control)' }).tap();
    await page.keyboard.type('c');
    await waitForLine(page, '^C');
    await expect.poll(() => page.getByRole('toolbar', { name: 'Terminal keys' }).isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-phone-terminal.png') });

    await page.getByRole('button', { name: 'Back to sessions' }).click();
    await page.waitForURL(agent.url);
    await page.getByRole('button', { name: /^Open bash/ }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-phone-list.png') });
  });

  it('reconnects to the same shell after a reload on the terminal URL', async () => {
    const page = phone.pages()[0] as Page;
    await page.getByRole('button', { name: /^Open bash/ }).click();
    await page.waitForURL(/\/t\/[a-z0-9-]+$/);
    const terminalUrl = page.url();
    await waitForLine(page, 'hello-from-browser');

    await page.reload();
    expect(page.url()).toBe(terminalUrl);
    // tmux redraws the screen on attach, so the earlier output is there again.
    await waitForLine(page, 'hello-from-browser');
    await typeCommand(page, 'echo again-$((6*7))');
    await waitForLine(page, 'again-42');

    // A dropped connection (here: its tmux client detached) comes back by itself.
    const before = await tmuxClients();
    expect(before.length).toBeGreaterThan(0);
    for (const client of before) await tmux(agent.tmuxSocket, 'detach-client', '-t', client.name);
    await eventually(async () => (await tmuxClients()).some((c) => !before.some((b) => b.pid === c.pid)), 10_000, 'a new tmux client');
    await waitForLine(page, 'again-42');
    await typeCommand(page, 'echo back-after-drop');
    await waitForLine(page, 'back-after-drop');

    await page.goBack();
    await page.getByRole('heading', { name: 'Home' }).waitFor();
  });

  it('shows the same shell in a desktop browser, paired as a device of its own, without the key bar', async () => {
    const desktop = await browser.newContext(DESKTOP);
    await pairBrowser(desktop, agent, 'Desktop');
    const page = await desktop.newPage();
    await page.goto(agent.url);
    await page.getByRole('button', { name: /^Open bash/ }).waitFor();

    // A directory that does not exist: the agent's own message is shown.
    await page.getByRole('button', { name: 'Add workspace' }).click();
    await page.getByLabel("Directory on the agent's machine").fill('/no/such/dir');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('alert').getByText('dir /no/such/dir does not exist').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: /^Open bash/ }).click();
    await page.waitForURL(/\/t\/[a-z0-9-]+$/);
    await waitForLine(page, 'again-42');
    await typeCommand(page, 'printf "%s\\n" desktop-$((2+3))');
    await waitForLine(page, 'desktop-5');
    expect(await page.getByRole('toolbar', { name: 'Terminal keys' }).count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-desktop-terminal.png') });

    await page.getByRole('button', { name: 'Back to sessions' }).click();
    await page.getByRole('button', { name: /^Open bash/ }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-desktop-list.png') });

    // When the shell exits the terminal says so and offers the way back; no reconnecting.
    await page.getByRole('button', { name: /^Open bash/ }).click();
    await waitForLine(page, 'desktop-5');
    await typeCommand(page, 'exit');
    const ended = page.getByRole('alert').filter({ hasText: 'Session ended' });
    await ended.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-desktop-ended.png') });
    await ended.getByRole('button', { name: 'Back to sessions' }).click();
    await page.getByText('No tabs yet.').waitFor();
    await desktop.close();
  });

  it('refuses the pairing URL a second time and offers the code instead', async () => {
    const stranger = await browser.newContext(PHONE);
    const page = await stranger.newPage();
    await page.goto(agent.link);
    await page.getByRole('heading', { name: 'Pair this device' }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('');
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    // The agent's own words, and the way left: a fresh code.
    await page.getByRole('alert').filter({ hasText: /used|expired/i }).waitFor();
    await page.getByLabel('Pairing code').waitFor();
    await page.getByText(/open Settings on a browser that is already paired/).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-pair-link-used.png') });
    await stranger.close();
  });
});
