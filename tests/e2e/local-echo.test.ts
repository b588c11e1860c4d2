/**
 * Local echo in real Chromium against a real agent and tmux: keys typed into a program that
 * echoes slowly show at once, drawn over the terminal, and give way to the real echo; nothing
 * typed into a prompt that does not echo ever shows; the setting turns it off.
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { sessionNameFor } from '../../agent/tmux/commands.js';
import { LOCAL_ECHO_STORAGE_KEY } from '../../pwa/core/local-echo-choice.js';
import { LOCAL_ECHO } from '../../pwa/terminal/local-echo.js';
import { tmux } from '../support/agent.js';
import { ARTIFACTS, PHONE, pairBrowser, screenLines, typeCommand, useAgentAndBrowser, waitForLine } from '../support/browser.js';
import { createTab, localDevice, type Session } from '../support/client.js';

const env = useAgentAndBrowser();
let session: Session;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  session = await localDevice(env.agent);
});

afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
});

/** Each byte typed comes back after this long: a link far slower than this machine's loopback. */
const ECHO_DELAY_S = 0.7;
const READY = 'slow echo ready';

/** A program in the tab that takes the terminal raw and echoes each byte late. */
async function startSlowEcho(tab: TabView): Promise<void> {
  const target = `=${sessionNameFor(tab.workspaceId, tab.id)}:`;
  const program = `stty raw -echo; printf '%s\\r\\n' '${READY}'; while c=$(dd bs=1 count=1 2>/dev/null); do sleep ${ECHO_DELAY_S}; printf %s "$c"; done`;
  await tmux(env.agent.tmuxSocket, 'send-keys', '-t', target, '-l', program);
  await tmux(env.agent.tmuxSocket, 'send-keys', '-t', target, 'Enter');
}

/** A paired phone on a new shell tab; every text the local-echo layer shows is recorded in `window.__localEcho`. */
async function openPhone(off = false): Promise<{ page: Page; tab: TabView }> {
  const context = await env.browser.newContext(PHONE);
  contexts.push(context);
  await pairBrowser(context, env.agent);
  const page = await context.newPage();
  if (off) {
    // Turned off as a person does: the switch in Settings.
    await page.goto(new URL('/settings', env.agent.url).href);
    const toggle = page.getByRole('switch', { name: 'Show typing at once' });
    await expect.poll(() => toggle.isChecked(), { timeout: 10_000 }).toBe(true);
    await toggle.click();
    expect(await page.evaluate((key) => localStorage.getItem(key), LOCAL_ECHO_STORAGE_KEY)).toBe('off');
  }
  const tab = await createTab(session);
  await page.goto(new URL(`/t/${tab.id}`, env.agent.url).href);
  await page.locator('.pm-term-host .xterm-screen').waitFor();
  await expect.poll(() => screenLines(page).then((l) => l.some((x) => x.trim() !== '')), { timeout: 10_000 }).toBe(true);
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __localEcho: string[] }).__localEcho = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-local-echo]')?.textContent ?? '';
      if (text !== '') seen.push(text);
    }).observe(document.querySelector('.xterm-screen') as Element, { childList: true, subtree: true, characterData: true });
  });
  return { page, tab };
}

const layerText = (page: Page) => page.evaluate(() => document.querySelector('[data-local-echo]')?.textContent ?? '');
const layerSeen = (page: Page) => page.evaluate(() => (window as unknown as { __localEcho: string[] }).__localEcho);
/**
 * The row under the one that reads `marker` and nothing else: the command line that printed it
 * holds it too, and with a narrower font the whole of it can sit on one of its rows.
 */
const lineAfter = async (page: Page, marker: string) => {
  const lines = await screenLines(page);
  return lines[lines.indexOf(marker) + 1] ?? '';
};

describe('local echo', () => {
  it('draws keys at once over a slow echo once the line’s first echo was seen, and gives way to the real one', async () => {
    const { page, tab } = await openPhone();
    await startSlowEcho(tab);
    await waitForLine(page, READY);
    await page.locator('.xterm-helper-textarea').focus();

    // The first key of a line is not drawn: nothing has shown yet that this program echoes.
    await page.keyboard.press('a');
    expect(await layerText(page)).toBe('');
    await expect.poll(() => lineAfter(page, READY), { timeout: 5_000 }).toBe('a');

    // Now the program's echo is known: keys show at once, long before it comes back.
    await page.keyboard.type('bc');
    await expect.poll(() => layerText(page), { timeout: 1_000, interval: 20 }).toContain('bc');
    expect(await lineAfter(page, READY)).toBe('a');
    await page.screenshot({ path: join(ARTIFACTS, 'local-echo-phone.png') });

    // The real echo takes their place.
    await expect.poll(() => lineAfter(page, READY), { timeout: 5_000 }).toBe('abc');
    await expect.poll(() => layerText(page), { timeout: 2_000 }).toBe('');
  });

  it('shows nothing typed into a prompt that does not echo, and keeps no guess past its time', async () => {
    const { page } = await openPhone();
    // Typed and echoed: the shell's line is trusted; Enter ends it.
    await typeCommand(page, "stty -echo; printf 'secret: '; cat > /dev/null");
    await waitForLine(page, 'secret:');
    // What the layer drew for the command line is not the question: from here on, nothing.
    await page.evaluate(() => {
      (window as unknown as { __localEcho: string[] }).__localEcho.length = 0;
    });
    await page.keyboard.type('hunter2', { delay: 30 });
    await new Promise((r) => setTimeout(r, LOCAL_ECHO.TIMEOUT_MS + 600));
    expect((await screenLines(page)).join('\n')).not.toContain('hunter2');
    expect(await layerText(page)).toBe('');
    expect(await layerSeen(page)).toEqual([]);
  });

  it('draws nothing once turned off in Settings', async () => {
    const { page, tab } = await openPhone(true);
    await startSlowEcho(tab);
    await waitForLine(page, READY);
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.press('a');
    await expect.poll(() => lineAfter(page, READY), { timeout: 5_000 }).toBe('a');
    await page.keyboard.type('bc');
    await expect.poll(() => lineAfter(page, READY), { timeout: 5_000 }).toBe('abc');
    expect(await layerSeen(page)).toEqual([]);
  });
});
