/**
 * Real Chromium for end-to-end tests, driven by playwright-core. Each `newContext` is a
 * fresh profile (no cookies, no service worker); Playwright removes it when the browser closes.
 *
 * Which Chromium: the system's (Debian's `chromium` package) where installed, else the one
 * shipped in the `@sparticuz/chromium` dev dependency, so the tests need no browser from the
 * system. POCKETMUX_CHROMIUM overrides the choice:
 *   POCKETMUX_CHROMIUM=/path/to/chrome   that binary;
 *   POCKETMUX_CHROMIUM=packaged          as on a machine with neither Chromium nor fonts:
 *                                        the packaged Chromium with the package's fonts, even
 *                                        where the system has its own (CI's "fresh machine" step).
 * The packaged one is a headless shell, and a headless shell has no notifications:
 * `Notification.permission` stays "denied" whatever is granted, and a service worker's
 * `showNotification` fails. The tests of notifications need the system's Chromium.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { copyFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type JSHandle, type LaunchOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { formatProof, PROOF_HEADER, proofMessage } from '../../protocol/device-proof.js';
import { type AgentHandle, cleanupAgents, REPO_ROOT, type StartOptions, startAgent } from './agent.js';
import { localDevice, localPairing, type Session } from './client.js';
import { browserShowsNotifications, PACKAGED, SYSTEM_CHROMIUM } from './chromium-choice.js';
import { machineTmpdir } from './temp.js';

/**
 * Where `@sparticuz/chromium` is installed: the folder above its script that holds its
 * package.json (the script is build/index.js in some versions, build/cjs/index.cjs in others).
 */
const SPARTICUZ = packageRoot(createRequire(import.meta.url).resolve('@sparticuz/chromium'), '@sparticuz/chromium');

function packageRoot(script: string, name: string): string {
  for (let dir = dirname(script); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
  }
  throw new Error(`no package.json of ${name} above ${script}`);
}

/** The system's font configuration; without it the packaged Chromium gets fonts of its own. */
const SYSTEM_FONTS_CONF = '/etc/fonts/fonts.conf';

export interface ChromiumChoice {
  executablePath: string;
  /** True for the Chromium of `@sparticuz/chromium`. */
  packaged: boolean;
}

export { browserShowsNotifications };

export async function chooseChromium(): Promise<ChromiumChoice> {
  const fromEnv = process.env.POCKETMUX_CHROMIUM;
  if (fromEnv && fromEnv !== PACKAGED) return { executablePath: fromEnv, packaged: false };
  const system = fromEnv === PACKAGED ? undefined : SYSTEM_CHROMIUM.find((p) => existsSync(p));
  if (system) return { executablePath: system, packaged: false };
  // Said once for the whole run, by its reporter (packagedChromiumNotice), not by every test file.
  return { executablePath: join(await packagedDir(), 'chromium'), packaged: true };
}

/**
 * `@sparticuz/chromium` unpacked once per machine (about 200 MB, a few seconds) to a
 * directory named for its version. Not with the package's own `executablePath()`: that
 * unpacks to a fixed /tmp/chromium and returns the file as soon as it exists, so two test
 * workers starting at once can run a half-written binary, and one left by an interrupted
 * unpack or by another version of the package is used as it is.
 */
async function packagedDir(): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(SPARTICUZ, 'package.json'), 'utf8')) as { version: string };
  const dir = join(machineTmpdir(), `pocketmux-sparticuz-chromium-${version}`);
  mkdirSync(dir, { recursive: true });
  await unpackOnce(join(dir, 'chromium'), (to) => unbrotli(join(SPARTICUZ, 'bin', 'chromium.br'), to, 0o755));
  return dir;
}

/**
 * Makes `target` with `unpack` unless it exists: into a name of this process's own, then
 * renamed into place, so the target is never seen half made. Two processes may both unpack;
 * either result will do.
 */
async function unpackOnce(target: string, unpack: (to: string) => Promise<void>): Promise<void> {
  if (existsSync(target)) return;
  const partial = `${target}.${process.pid}.partial`;
  try {
    await unpack(partial);
    renameSync(partial, target);
  } catch (err) {
    if (!existsSync(target)) throw err;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

function unbrotli(from: string, to: string, mode = 0o644): Promise<void> {
  return pipeline(createReadStream(from), createBrotliDecompress(), createWriteStream(to, { mode }));
}

/**
 * The environment the packaged Chromium starts with: the system's fonts where it has any
 * (/etc/fonts), else (or with POCKETMUX_CHROMIUM=packaged) the package's own, Open Sans. With
 * no font at all the page lays out every text as nothing, and the tests find no button to press.
 */
async function packagedEnv(): Promise<NodeJS.ProcessEnv> {
  const ownFonts = process.env.POCKETMUX_CHROMIUM === PACKAGED || !existsSync(SYSTEM_FONTS_CONF);
  if (!ownFonts || process.env.FONTCONFIG_FILE) return process.env;
  const fonts = join(await packagedDir(), 'fonts');
  await unpackOnce(fonts, async (to) => {
    mkdirSync(to);
    await unbrotli(join(SPARTICUZ, 'bin', 'fonts.tar.br'), join(to, 'fonts.tar'));
    await promisify(execFile)('tar', ['-xf', 'fonts.tar', '--no-same-owner', 'fonts'], { cwd: to });
    rmSync(join(to, 'fonts.tar'));
    writeFileSync(
      join(to, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${fonts}/fonts</dir>\n  <cachedir>${fonts}/cache</cachedir>\n</fontconfig>\n`,
    );
  });
  return { ...process.env, FONTCONFIG_FILE: join(fonts, 'fonts.conf') };
}

/**
 * The flags that give headless Chromium WebGL without a GPU: ANGLE on SwiftShader, the CPU
 * renderer, which Chromium only offers WebGL on when told it may.
 */
export const SWIFTSHADER_WEBGL = ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export interface LaunchChoices {
  /** WebGL on (through SwiftShader): the terminal draws with its WebGL renderer, on a canvas. */
  webgl?: boolean;
}

/**
 * The packaged Chromium's SwiftShader (its libEGL, libGLESv2 and Vulkan driver), beside its
 * binary, where Chromium looks for them: without them it has no WebGL at all.
 */
async function packagedSwiftshader(dir: string): Promise<void> {
  const unpacked = join(dir, 'swiftshader');
  await unpackOnce(unpacked, async (to) => {
    mkdirSync(to);
    await unbrotli(join(SPARTICUZ, 'bin', 'swiftshader.tar.br'), join(to, 'swiftshader.tar'));
    await promisify(execFile)('tar', ['-xf', 'swiftshader.tar', '--no-same-owner'], { cwd: to });
    rmSync(join(to, 'swiftshader.tar'));
  });
  for (const name of readdirSync(unpacked)) await unpackOnce(join(dir, name), (to) => copyFile(join(unpacked, name), to));
}

// Chromium keeps its profile's lock socket in its temp dir (org.chromium.Chromium.XXXXXX/SingletonSocket,
// 44 characters below it), and a Unix socket's path has room for 107: it aborts ("Socket path
// too long") in a temp dir nested deeper than that leaves room for. Such a run uses the
// machine's temp dir; the folder is removed when the browser has gone either way.
const SOCKET_PATH_MAX = 107;
const CHROMIUM_SOCKET_TAIL = '/chromium-tmp-XXXXXX/org.chromium.Chromium.XXXXXX/SingletonSocket'.length;

function chromiumTmpBase(): string {
  const own = tmpdir();
  return own.length + CHROMIUM_SOCKET_TAIL <= SOCKET_PATH_MAX ? own : machineTmpdir();
}

export async function launchBrowser(extraArgs: string[] = [], choices: LaunchChoices = {}): Promise<Browser> {
  const { executablePath, packaged } = await chooseChromium();
  if (packaged && choices.webgl) await packagedSwiftshader(dirname(executablePath));
  const options: LaunchOptions = {
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // SwiftShader gives headless Chromium WebGL even with --disable-gpu, and the WebGL
      // renderer paints a canvas the test cannot read. Without WebGL the app falls back to
      // xterm's DOM renderer (the path this also covers), whose rows are text in the page.
      ...(choices.webgl ? SWIFTSHADER_WEBGL : ['--disable-gpu', '--disable-3d-apis']),
      ...extraArgs,
    ],
  };
  // Chromium's own temp files (shared memory kept in files, `.org.chromium.Chromium.*`) go in a
  // folder of this browser's, removed once it has gone: one it was stopped before unlinking is
  // not left in the run's temp dir.
  const ownTmp = mkdtempSync(join(chromiumTmpBase(), 'chromium-tmp-'));
  const launch = async (env: NodeJS.ProcessEnv): Promise<Browser> => {
    const removeTmp = () => rmSync(ownTmp, { recursive: true, force: true });
    const browser = await chromium.launch({ ...options, env: { ...env, TMPDIR: ownTmp } }).catch((err: unknown) => {
      removeTmp();
      throw err;
    });
    browser.on('disconnected', removeTmp);
    return browser;
  };
  if (!packaged) return launch(process.env);
  // The packaged Chromium needs none of the flags @sparticuz/chromium suggests (`chromium.args`),
  // which are for AWS Lambda; some of them would also turn off what the tests check
  // (--disable-web-security, --allow-running-insecure-content, --disable-site-isolation-trials).
  try {
    return await launch(await packagedEnv());
  } catch (err) {
    if (!String(err).includes('error while loading shared libraries')) throw err;
    throw new Error(`the packaged Chromium needs NSS and expat from the system (Debian: apt-get install libnss3 libexpat1)\n${String(err)}`, { cause: err });
  }
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
  await page.getByRole('button', { name: 'Settings' }).waitFor();
}

/**
 * Pairs a browser context as a device of its own, through the app with a fresh pairing link
 * (made with the local token, as `pocketmux pair` does). A device's key never leaves its
 * browser, so another context cannot borrow a paired one's cookies: it pairs, as a person's
 * second browser would.
 */
export async function pairBrowser(context: BrowserContext, agent: Pick<AgentHandle, 'url' | 'dataDir'>, deviceName?: string): Promise<void> {
  const pairing = await localPairing(agent);
  const page = await context.newPage();
  try {
    await pairPage(page, { link: pairing.url }, deviceName);
  } finally {
    await page.close();
  }
}

/**
 * The device key pair the app kept in the page's IndexedDB (`pwa/core/device-key.ts`), as a
 * handle inside the page (its private half cannot leave the browser), or a handle to undefined
 * when the browser holds none. Never makes the app's database: a browser that never paired has none.
 */
export function deviceKeyPair(page: Page): Promise<JSHandle<CryptoKeyPair | undefined>> {
  return page.evaluateHandle(
    () =>
      new Promise<CryptoKeyPair | undefined>((resolve, reject) => {
        const open = indexedDB.open('pocketmux-device');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(undefined);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction('keys', 'readonly').objectStore('keys').get('device');
          get.onsuccess = () => {
            db.close();
            resolve(get.result as CryptoKeyPair | undefined);
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

/**
 * A REST call made by the device a page's browser is, from inside that page: signed there with
 * the key the app kept in IndexedDB (`pwa/core/device-key.ts`), which no one can take out of
 * the browser. For what belongs to one device (its push subscription, "This device"); the page
 * must show the app's origin. The time is this machine's, the agent's too.
 */
export async function browserApi<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const url = new URL(path, page.url());
  const target = `${url.pathname}${url.search}`;
  const time = Date.now();
  const nonce = randomBytes(16).toString('base64url');
  const pair = await deviceKeyPair(page);
  const signature = await page.evaluate(
    async ([keys, message]) => {
      if (!keys) throw new Error('this browser holds no device key');
      const signed = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new TextEncoder().encode(message)));
      return btoa(String.fromCharCode(...signed)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    },
    [pair, proofMessage(method, target, time, nonce)] as const,
  );
  await pair.dispose();
  const proof = formatProof({ time, nonce, signature });
  return page.evaluate(
    async ({ method, target, proof, header, json }) => {
      const headers: Record<string, string> = { accept: 'application/json', [header]: proof };
      if (json !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(target, { method, credentials: 'same-origin', cache: 'no-store', headers, body: json });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON: the text as it came.
      }
      return { status: res.status, body: parsed as T };
    },
    { method, target, proof, header: PROOF_HEADER, json: body === undefined ? undefined : JSON.stringify(body) },
  );
}

/**
 * Pairs a phone once through the agent's link, and gives a device for REST calls beside the
 * browsers a test opens later (each of which pairs with `pairBrowser`).
 */
export async function pairedPhone(browser: Browser, agent: AgentHandle, deviceName = 'Pixel 8'): Promise<{ session: Session }> {
  const context = await browser.newContext(PHONE);
  try {
    await pairPage(await context.newPage(), { link: agent.link }, deviceName);
    return { session: await localDevice(agent) };
  } finally {
    await context.close();
  }
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
export function useAgentAndBrowser(agentOptions: StartOptions = {}): { agent: AgentHandle; browser: Browser } {
  const fixture = {} as { agent: AgentHandle; browser: Browser };
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [fixture.agent, fixture.browser] = await Promise.all([startAgent(agentOptions), launchBrowser()]);
  });
  afterAll(async () => {
    await fixture.browser?.close();
    await cleanupAgents();
  });
  return fixture;
}
