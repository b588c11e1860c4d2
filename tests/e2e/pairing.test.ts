/**
 * Pairing in real Chromium at phone size against a real agent: the printed URL pairs a
 * phone and leaves no secret behind; the phone's Settings page pairs a second browser with
 * a short code read off the page, then revokes it, and the second browser is sent back to
 * the pair screen at once, without knocking again, told that it was removed.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevicesResponse, SessionResponse } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, startAgent } from '../support/agent.js';
import { ARTIFACTS, browserApi, DESKTOP, launchBrowser, PHONE, pairBrowser } from '../support/browser.js';

// jsqr is CommonJS with a default export its typings do not map under NodeNext.
const jsQR = createRequire(import.meta.url)('jsqr') as typeof import('jsqr').default;

/** A second phone, an iPhone in Safari, so the name guess has another platform to get right. */
const IPHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
};

const CODE = /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;

interface SocketRecord {
  path: string;
  /** The close code the page saw, or null while open. */
  code: number | null;
}

/**
 * Runs in the page before the app: notes every WebSocket it opens and how each closed.
 * Only the browser's own API is wrapped; the app runs unchanged.
 */
function recordSockets(): void {
  const log: SocketRecord[] = [];
  (window as unknown as { __pmSockets: SocketRecord[] }).__pmSockets = log;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      const entry: SocketRecord = { path: new URL(String(url)).pathname, code: null };
      log.push(entry);
      this.addEventListener('close', (ev) => {
        entry.code = ev.code;
      });
    }
  };
}

function socketsOf(page: Page): Promise<SocketRecord[]> {
  return page.evaluate(() => (window as unknown as { __pmSockets: SocketRecord[] }).__pmSockets.map((s) => ({ ...s })));
}

/** Decodes a QR code from a screenshot, as a phone's camera would read the screen. */
async function readQr(context: BrowserContext, png: Buffer): Promise<string | null> {
  // A blank page: the app's content security policy has no say over decoding an image.
  const scratch = await context.newPage();
  try {
    const image = await scratch.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
      ctx.drawImage(bitmap, 0, 0);
      const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      let binary = '';
      for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
      return { width: bitmap.width, height: bitmap.height, rgba: btoa(binary) };
    }, png.toString('base64'));
    const rgba = new Uint8ClampedArray(Buffer.from(image.rgba, 'base64'));
    return jsQR(rgba, image.width, image.height)?.data ?? null;
  } finally {
    await scratch.close();
  }
}

let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let page: Page;
let second: BrowserContext;
let other: Page;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [agent, browser] = await Promise.all([startAgent(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
});

describe('pairing in Chromium', () => {
  it('pairs a phone with the printed URL and keeps the secret out of the address bar and history', async () => {
    phone = await browser.newContext(PHONE);
    page = await phone.newPage();
    await page.goto(agent.link);
    await page.getByRole('heading', { name: 'Pair this device' }).waitFor();
    expect(await page.evaluate(() => location.href)).toBe(agent.url);
    const name = page.getByLabel('Device name');
    expect(await name.inputValue()).toBe('Pixel 8 · Chrome');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-pair-phone.png') });

    await name.fill('Test phone');
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(page.url()).toBe(agent.url);

    await page.reload();
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Pair this device' }).count()).toBe(0);
    // The entry the URL was opened in was rewritten: stepping back and forth never finds the secret.
    await page.goBack();
    await page.goForward();
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(page.url()).toBe(agent.url);
    expect(page.url()).not.toContain(agent.token);

    // Asked by this very browser, with its own key.
    const { body } = await browserApi<DevicesResponse>(page, 'GET', '/api/devices');
    expect(body.devices.map((d) => [d.name, d.current, d.binding])).toContainEqual(['Test phone', true, 'key']);
  });

  it('pairs a second browser with the short code from Settings', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.waitForURL(/\/settings$/);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const rows = page.locator('pm-devices-view li');
    await rows.filter({ hasText: 'Test phone' }).getByText('This device').waitFor();

    await page.getByRole('button', { name: 'Pair a new device' }).click();
    const shown = page.locator('pm-pairing-panel .code');
    await shown.waitFor();
    const code = ((await shown.textContent()) ?? '').trim();
    expect(code).toMatch(CODE);
    // The QR as drawn, quiet zone and all, reads as this agent's pairing URL.
    const qr = await readQr(phone, await page.locator('pm-pairing-panel .qr').screenshot());
    expect(qr?.startsWith(`${agent.url}#pair=`), `QR read as ${qr}`).toBe(true);
    const expiry = ((await page.locator('pm-pairing-panel .expiry').textContent()) ?? '').replace(/\s+/g, ' ').trim();
    expect(expiry).toMatch(/^Works once, for (10:00|9:[0-5]\d)$/);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-devices-phone.png'), fullPage: true });

    second = await browser.newContext(IPHONE);
    await second.addInitScript(recordSockets);
    other = await second.newPage();
    await other.goto(agent.url);
    await other.getByRole('heading', { name: 'Pair this device' }).waitFor();
    // The agent's own limit, in words: this agent's is the default ten minutes.
    await other.getByText('A code works once, for 10 minutes.').waitFor();
    expect(await other.getByLabel('Device name').inputValue()).toBe('iPhone · Safari');
    await other.screenshot({ path: join(ARTIFACTS, 'e2e-pair-code-phone.png') });
    // Typed as people do: lower case, no dash. The field shows capitals; the agent normalizes.
    const field = other.getByLabel('Pairing code');
    await field.pressSequentially(code.replace('-', '').toLowerCase());
    expect(await field.inputValue()).toBe(code.replace('-', ''));
    await other.getByLabel('Device name').fill('Test iPhone');
    await other.getByRole('button', { name: 'Pair', exact: true }).click();
    await other.getByRole('heading', { name: 'Home' }).waitFor();

    // The first phone sees the new device arrive; the spent pairing goes away.
    await page.getByText('“Test iPhone” is paired.').waitFor();
    expect(await page.locator('pm-pairing-panel').count()).toBe(0);
    await rows.filter({ hasText: 'Test iPhone' }).waitFor();

    // A desktop browser is a device of its own: it pairs, and leaves again once seen.
    const desktop = await browser.newContext(DESKTOP);
    await pairBrowser(desktop, agent, 'Test desktop');
    const wide = await desktop.newPage();
    // The page's address from when it was called Devices still leads there, under its new one.
    await wide.goto(new URL('/devices', agent.url).toString());
    await wide.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(new URL(wide.url()).pathname).toBe('/settings');
    await wide.locator('pm-devices-view li').filter({ hasText: 'Test iPhone' }).waitFor();
    await wide.locator('pm-devices-view li').filter({ hasText: 'Test desktop' }).getByText('This device').waitFor();
    await wide.getByRole('button', { name: 'Pair a new device' }).click();
    await wide.locator('pm-pairing-panel .code').waitFor();
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-devices-desktop.png') });
    const me = (await browserApi<SessionResponse>(wide, 'GET', '/api/session')).body.deviceId;
    expect((await browserApi(wide, 'DELETE', `/api/devices/${me}`)).status).toBe(204);
    await desktop.close();
    await expect.poll(() => rows.filter({ hasText: 'Test desktop' }).count(), { timeout: 10_000 }).toBe(0);
  });

  it('refuses a wrong code with the agent’s words', async () => {
    const stranger = await browser.newContext(PHONE);
    const p = await stranger.newPage();
    await p.goto(agent.url);
    await p.getByLabel('Pairing code').fill('2222-2222');
    await p.getByRole('button', { name: 'Pair', exact: true }).click();
    await p.getByRole('alert').filter({ hasText: /^No pairing has this code: check it against the one shown on the computer/ }).waitFor();
    expect(await p.getByRole('heading', { name: 'Pair this device' }).count()).toBe(1);
    await stranger.close();
  });

  it('revokes the second browser from the first, which goes back to pairing and stops knocking', async () => {
    await expect
      .poll(async () => (await socketsOf(other)).filter((s) => s.code === null).map((s) => s.path).sort(), { timeout: 10_000 })
      .toEqual(['/api/status', '/api/sync']);

    const row = page.locator('pm-devices-view li').filter({ hasText: 'Test iPhone' });
    await row.getByRole('button', { name: 'Revoke Test iPhone' }).click();
    await row.getByRole('alertdialog').getByRole('button', { name: 'Revoke', exact: true }).click();

    await other.getByRole('heading', { name: 'This device was removed' }).waitFor({ timeout: 5_000 });
    await other.getByText('It was taken off the list of devices in Settings, so it is signed out.').waitFor();
    await other.screenshot({ path: join(ARTIFACTS, 'e2e-pair-revoked-phone.png') });
    const closed = await socketsOf(other);
    for (const path of ['/api/sync', '/api/status']) {
      expect(closed.filter((s) => s.path === path).map((s) => s.code)).toContain(4401);
    }
    // No reconnecting behind the pair screen: the network coming back makes a socket waiting to
    // reconnect try at once, and none does.
    await other.evaluate(() => window.dispatchEvent(new Event('online')));
    // Its cookie, with a proof signed by its own key, no longer gets in. The page read its key,
    // signed and went to the agent and back for this: a socket trying again, which reads the key
    // and signs before it opens, would have opened by now.
    expect((await browserApi(other, 'GET', '/api/session')).status).toBe(401);
    expect((await socketsOf(other)).length).toBe(closed.length);
    // Opened afresh, the agent's answer alone tells it the same.
    await other.reload();
    await other.getByRole('heading', { name: 'This device was removed' }).waitFor();
    expect(await other.getByLabel('Pairing code').count()).toBe(1);

    await expect.poll(() => row.count()).toBe(0);
    expect(await page.locator('pm-devices-view li').count()).toBe(1);
    await page.getByRole('button', { name: 'Back to sessions' }).click();
    await page.getByRole('heading', { name: 'Home' }).waitFor();
  });

  it('says the agent’s own pairing time on the pair screen, at phone and desktop size', async () => {
    const own = await startAgent({ env: { POCKETMUX_PAIRING_TTL_MS: '90000' } });
    for (const [size, options] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const context = await browser.newContext(options);
      const p = await context.newPage();
      await p.goto(own.url);
      await p.getByText('A code works once, for 90 seconds.').waitFor();
      expect(await p.getByText(/10 minutes/).count()).toBe(0);
      await p.screenshot({ path: join(ARTIFACTS, `e2e-pair-time-${size}.png`) });
      await context.close();
    }
    await own.stop();
  });

  // Last: from here on the agent refuses every pairing from this address for up to a minute.
  it('asks to wait after too many wrong codes, as long as the agent says', async () => {
    const stranger = await browser.newContext(PHONE);
    const p = await stranger.newPage();
    await p.goto(agent.url);
    const alert = p.getByRole('alert');
    for (const last of '23456789') {
      await p.getByLabel('Pairing code').fill(`2222-222${last}`);
      await p.getByRole('button', { name: 'Pair', exact: true }).click();
      await alert.waitFor();
      if (((await alert.textContent()) ?? '').includes('Too many wrong tries')) break;
    }
    await alert.filter({ hasText: /Too many wrong tries from this network\. Wait \d+ s, then try again\./ }).waitFor();
    expect(await p.getByRole('button', { name: 'Pair', exact: true }).isDisabled()).toBe(true);
    await p.screenshot({ path: join(ARTIFACTS, 'e2e-pair-wait-phone.png') });
    await stranger.close();
  });
});
