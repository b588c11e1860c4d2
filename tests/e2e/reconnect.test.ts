
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAgent } from '../support/agent.js';
import { ARTIFACTS, PHONE, pairPage, typeCommand, useAgentAndBrowser, waitForLine } from '../support/browser.js';

const env = useAgentAndBrowser();

describe('reconnecting in Chromium', () => {
  it('shows the list and the terminal reconnecting while the agent restarts, then carries on in the same shell', async () => {
    const { agent, browser } = env;
    const context = await browser.newContext(PHONE);
    const list = await context.newPage();
    await pairPage(list, { link: agent.link });
    await list.getByRole('heading', { name: 'Home' }).waitFor();

    const term = await context.newPage();
    await term.goto(agent.url);
    await term.getByRole('button', { name: 'New tab' }).click();
    await term.waitForURL(/\/t\/[a-z0-9-]+$/);
    await waitForLine(term, /[$#]$/);
    await typeCommand(term, 'echo before-$((6*7))');
    await waitForLine(term, 'before-42');

    await agent.stop();
    await list.locator('pm-connection-note').getByRole('status').filter({ hasText: 'Reconnecting…' }).waitFor();
    await term.locator('pm-connection-note').getByRole('status').filter({ hasText: 'Offline' }).waitFor();
    await term.locator('.banner').filter({ hasText: 'Reconnecting…' }).getByRole('button', { name: 'Retry now' }).waitFor();
    await term.screenshot({ path: join(ARTIFACTS, 'e2e-phone-terminal-reconnecting.png') });

    await startAgent({ reuse: agent, args: ['--port', String(agent.port)] });
    // The network coming back wakes every channel at once instead of waiting out its backoff.
    for (const page of [list, term]) await page.evaluate(() => window.dispatchEvent(new Event('online')));

    await expect.poll(() => term.locator('pm-connection-note').getByRole('status').count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => term.locator('.banner').count()).toBe(0);
    await waitForLine(term, 'before-42');
    await typeCommand(term, 'echo after-$((6*8))');
    await waitForLine(term, 'after-48');
    await expect.poll(() => list.locator('pm-connection-note').getByRole('status').count(), { timeout: 10_000 }).toBe(0);
    await list.getByRole('button', { name: /^Open bash/ }).waitFor();
    await context.close();
  });
});
