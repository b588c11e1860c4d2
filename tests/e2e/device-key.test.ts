/**
 * The device key in real Chromium against a real agent. The credential cookie reaches every
 * server on the agent's host name, whatever its port: a server on another port of 127.0.0.1,
 * visited by the paired browser, catches it. Replayed against the agent without the proof only
 * that browser can sign, it opens nothing, over REST or as a WebSocket. The key is kept in
 * IndexedDB, its private half not extractable. A phone whose clock is an hour fast still works:
 * the app learns the agent's time from its answers and signs again once when told its proof's
 * time was off. The Settings page says which devices must pair again, and only of those.
 * Screenshot: test-artifacts/e2e-device-key-devices-phone.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, WorkspacesResponse } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { upgradeStatus } from '../support/client.js';
import { ARTIFACTS, browserApi, deviceKeyPair, launchBrowser, PHONE, pairBrowser, pairPage, typeCommand, waitForLine } from '../support/browser.js';

const HOUR = 3_600_000;
const ELSEWHERE_TEXT = 'Another server on this host.';

let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let page: Page;
/** A server of someone else's on another port of the agent's host, and the Cookie headers it was sent. */
let elsewhere: Server;
const caught: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  // A tablet paired by a version from before devices had keys: kept listed, told to pair again.
  mkdirSync(env.dataDir, { recursive: true, mode: 0o700 });
  const old = { id: 'dv-oldtablet', name: 'Old tablet', credentialHash: 'ab'.repeat(32), platform: 'Android', pairedAt: '2026-01-05T09:00:00.000Z', lastSeenAt: '2026-02-01T18:30:00.000Z' };
  writeFileSync(join(env.dataDir, 'devices.json'), JSON.stringify({ version: 1, devices: [old] }), { mode: 0o600 });
  [agent, browser] = await Promise.all([startAgent({ reuse: env }), launchBrowser()]);
  elsewhere = createServer((req, res) => {
    caught.push(req.headers.cookie ?? '');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>elsewhere</title><p>${ELSEWHERE_TEXT}</p>`);
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, new URL(agent.url).hostname, resolve));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await cleanupAgents();
  await new Promise((resolve) => elsewhere?.close(resolve));
});

/** Opens a shell tab from the list and runs a command in it: REST, and a WebSocket, each proven. */
async function runsAShell(p: Page, word: string): Promise<void> {
  await p.getByRole('button', { name: 'New tab' }).first().tap();
  await p.waitForURL(/\/t\/[a-z0-9-]+$/);
  await waitForLine(p, /[$#]$/);
  await typeCommand(p, `echo ${word}-$((6*7))`);
  await waitForLine(p, `${word}-42`);
}

describe('a device key in Chromium', () => {
  it('works in the paired browser; its cookie, caught on another port of the host, opens nothing alone', async () => {
    phone = await browser.newContext(PHONE);
    page = await phone.newPage();
    await pairPage(page, { link: agent.link }, 'Pixel 8');
    await runsAShell(page, 'keyed');

    // The same browser visits another server on the agent's host name: cookies ignore ports.
    const port = (elsewhere.address() as AddressInfo).port;
    const visit = await phone.newPage();
    await visit.goto(`http://${new URL(agent.url).hostname}:${port}/`);
    await visit.getByText(ELSEWHERE_TEXT).waitFor();
    await visit.close();
    const [credential] = await phone.cookies(agent.url);
    if (!credential) throw new Error('the browser holds no credential for the agent');
    expect(credential.httpOnly).toBe(true);
    const cookie = caught.find((header) => header.split('; ').includes(`${credential.name}=${credential.value}`));
    if (!cookie) throw new Error(`the other server was not sent the credential; it got ${JSON.stringify(caught)}`);

    // Replayed from there, the cookie alone is refused: a REST call...
    const rest = await fetch(new URL('/api/workspaces', agent.url), { headers: { cookie } });
    expect(rest.status).toBe(401);
    expect(((await rest.json()) as ApiError).error).toContain('proof');
    // ...and a WebSocket, before the upgrade, with or without the agent's own Origin.
    const socketUrl = (path: string) => new URL(path, agent.url.replace(/^http/, 'ws'));
    expect(await upgradeStatus(socketUrl('/api/status'), { cookie })).toBe(401);
    expect(await upgradeStatus(socketUrl('/api/terminal?cols=80&rows=24'), { cookie, origin: agent.url.replace(/\/$/, '') })).toBe(401);

    // The browser itself, signing with its key, still gets in with that very cookie.
    const own = await browserApi<WorkspacesResponse>(page, 'GET', '/api/workspaces');
    expect(own.status).toBe(200);
    expect(own.body.workspaces.length).toBeGreaterThan(0);
  }, 60_000);

  it('keeps the key in IndexedDB, its private half not extractable', async () => {
    const stored = await deviceKeyPair(page);
    const key = await page.evaluate(async (pair) => {
      if (!pair) return null;
      const { privateKey, publicKey } = pair;
      const algorithm = privateKey.algorithm as EcKeyAlgorithm;
      return {
        cryptoKey: privateKey instanceof CryptoKey,
        type: privateKey.type,
        extractable: privateKey.extractable,
        algorithm: { name: algorithm.name, namedCurve: algorithm.namedCurve },
        usages: privateKey.usages,
        // Asked to give it out, WebCrypto refuses.
        exported: await crypto.subtle.exportKey('jwk', privateKey).then(
          () => 'exported',
          (err: unknown) => (err instanceof DOMException ? err.name : String(err)),
        ),
        publicType: publicKey.type,
      };
    }, stored);
    await stored.dispose();
    expect(key).toEqual({
      cryptoKey: true,
      type: 'private',
      extractable: false,
      algorithm: { name: 'ECDSA', namedCurve: 'P-256' },
      usages: ['sign'],
      exported: 'InvalidAccessError',
      publicType: 'public',
    });
  });

  it('works on a phone whose clock is an hour fast: the app signs again in the agent’s time', async () => {
    const fast = await browser.newContext(PHONE);
    await fast.clock.install({ time: Date.now() + HOUR });
    await pairBrowser(fast, agent, 'Fast phone');
    const p = await fast.newPage();
    const sessionAnswers: number[] = [];
    p.on('response', (res) => {
      if (new URL(res.url()).pathname === '/api/session') sessionAnswers.push(res.status());
    });
    await p.goto(agent.url);
    expect((await p.evaluate(() => Date.now())) - Date.now()).toBeGreaterThan(HOUR / 2);
    await p.getByRole('heading', { name: 'Home' }).waitFor();
    // A fresh page knows nothing of the agent's clock: its first proof is an hour off, refused
    // with the agent's time, and the same request, signed again, gets in.
    expect(sessionAnswers.slice(0, 2)).toEqual([401, 200]);
    await runsAShell(p, 'fast');
    expect(await p.getByRole('heading', { name: 'Pair this device' }).count()).toBe(0);
    await fast.close();
  }, 60_000);

  it('lists the devices at phone size, with a note only on the one that must pair again', async () => {
    await page.goto(new URL('/settings', agent.url).href);
    const rows = page.locator('pm-devices-view li');
    await rows.filter({ hasText: 'Pixel 8' }).getByText('This device').waitFor();
    await rows.filter({ hasText: 'Fast phone' }).waitFor();
    const old = rows.filter({ hasText: 'Old tablet' });
    await old.getByText('Paired by an older version: pair it again to use it.').waitFor();
    const noted = rows.filter({ has: page.locator('.binding') });
    expect(await noted.count()).toBe(1);
    expect(await noted.textContent()).toContain('Old tablet');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-device-key-devices-phone.png'), fullPage: true });
  });
});
