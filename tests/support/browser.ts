/**
 * Real Chromium for end-to-end tests, driven by playwright-core. Each `newContext` is a
 * fresh profile (no cookies, no service worker); Playwright removes it when the browser closes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type AgentHandle, cleanupAgents, REPO_ROOT, startAgent } from './agent.js';
import type { Session } from './client.js';

/** Debian's chromium package: the real binary, then its wrapper script. */
const CHROMIUM_CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

export function chromiumExecutable(): string {
  const fromEnv = process.env.POCKETMUX_CHROMIUM;
  if (fromEnv) return fromEnv;
  const found = CHROMIUM_CANDIDATES.find((p) => existsSync(p));
  if (!found) throw new Error(`no Chromium found (looked at ${CHROMIUM_CANDIDATES.join(', ')}); set POCKETMUX_CHROMIUM`);
  return found;
}

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutable(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // SwiftShader gives headless Chromium WebGL even with --disable-gpu, and the WebGL
      // renderer paints a canvas the test cannot read. Without WebGL the app falls back to
      // xterm's DOM renderer (the path this also covers), whose rows are text in the page.
      '--disable-3d-apis',
      ...extraArgs,
    ],
  });
}

/** A phone: 390×844 CSS pixels, touch, and an Android Chrome User-Agent. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
};

export const DESKTOP: BrowserContextOptions = {
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 1,
};

export const PWA_DIST = join(REPO_ROOT, 'dist', 'pwa');
export const ARTIFACTS = join(REPO_ROOT, 'test-artifacts');

/** Built assets that hold xterm.js (its script and stylesheet), found by a string only xterm has. */
export function xtermAssets(): string[] {
  const dir = join(PWA_DIST, 'assets');
  if (!existsSync(dir)) throw new Error('the PWA is not built: run `npm run build` first');
  return readdirSync(dir)
    .filter((f) => /\.(js|css)$/.test(f) && readFileSync(join(dir, f), 'utf8').includes('xterm-helper-textarea'))
    .map((f) => `/assets/${f}`);
}

/** The rows of the xterm screen as text (DOM renderer), trailing blanks trimmed. */
export async function screenLines(page: Page): Promise<string[]> {
  const rows = await page.locator('.xterm-rows > div').allTextContents();
  return rows.map((r) => r.replace(/\u00a0/g, ' ').trimEnd());
}

/**
 * Pairs a page's browser through the pair screen: with the printed pairing URL (`#pair=`),
 * or with a short code typed on the app's own address. Returns when the session list shows.
 */
export async function pairPage(page: Page, how: { link: string } | { url: string; code: string }, deviceName?: string): Promise<void> {
  await page.goto('link' in how ? how.link : how.url);
  await page.getByRole('heading', { name: 'Pair this device' }).waitFor();
  if ('code' in how) await page.getByLabel('Pairing code').fill(how.code);
  if (deviceName !== undefined) await page.getByLabel('Device name').fill(deviceName);
  await page.getByRole('button', { name: 'Pair', exact: true }).click();
  await page.getByRole('button', { name: 'Devices' }).waitFor();
}

/** The device credential a browser got by pairing, for REST calls beside it. */
export async function sessionOf(context: BrowserContext, agent: Pick<AgentHandle, 'url' | 'port'>): Promise<Session> {
  const cookies = await context.cookies(agent.url);
  if (cookies.length === 0) throw new Error('the browser holds no credential for the agent');
  return { agent, cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') };
}

/** Waits until a row of the terminal on the page reads `line` (or matches it). */
export async function waitForLine(page: Page, line: string | RegExp): Promise<void> {
  await expect
    .poll(async () => (await screenLines(page)).some((l) => (typeof line === 'string' ? l === line : line.test(l))), {
      timeout: 10_000,
      interval: 100,
    })
    .toBe(true);
}

/** Types a command into the page's terminal and presses Enter. */
export async function typeCommand(page: Page, command: string): Promise<void> {
  await page.locator('.xterm-helper-textarea').focus();
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
}

/**
 * A test file's agent and Chromium: both started before its tests (screenshots go to
 * test-artifacts/), both stopped after them. Read the fields inside tests and hooks.
 */
export function useAgentAndBrowser(): { agent: AgentHandle; browser: Browser } {
  const fixture = {} as { agent: AgentHandle; browser: Browser };
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [fixture.agent, fixture.browser] = await Promise.all([startAgent(), launchBrowser()]);
  });
  afterAll(async () => {
    await fixture.browser?.close();
    await cleanupAgents();
  });
  return fixture;
}
