/**
 * The PWA over HTTPS with a certificate made in the test: it loads, its service worker
 * registers (which browsers allow only in a secure context), and the terminal runs on wss.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, testCertificate } from '../support/agent.js';
import { launchBrowser, PHONE, pairPage, typeCommand, waitForLine } from '../support/browser.js';

let agent: AgentHandle;
let browser: Browser;

beforeAll(async () => {
  const env = newTestEnvironment();
  const { cert, key } = testCertificate(env.root);
  agent = await startAgent({ reuse: env, args: ['--tls-cert', cert, '--tls-key', key] });
  // The test's own certificate is not signed by a CA the browser knows.
  browser = await launchBrowser(['--ignore-certificate-errors']);
});

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
});

describe('the PWA over HTTPS', () => {
  it('loads, registers its service worker, and runs a terminal over wss', async () => {
    expect(agent.link.startsWith('https://')).toBe(true);
    const context = await browser.newContext({ ...PHONE, ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await pairPage(page, { link: agent.link }, 'tls phone');
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(agent.url);

    await page.getByRole('button', { name: 'New tab' }).first().click();
    await page.waitForURL(/\/t\/[a-z0-9-]+$/);
    await page.locator('.xterm-rows').waitFor();
    // The shell's prompt (`#` as root) says the terminal is attached.
    await waitForLine(page, /[$#]$/);
    await typeCommand(page, 'echo over-$((6*7))-tls');
    await waitForLine(page, 'over-42-tls');
    expect(sockets.some((u) => u.startsWith('wss://') && u.includes('/api/terminal'))).toBe(true);
    await context.close();
  });
});
