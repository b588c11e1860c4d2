/**
 * What a phone does first, written once and run in every engine of ENGINES: Chromium (Android)
 * and WebKit (every iPhone; WebKitGTK's MiniBrowser here), at 390×844 against a real agent.
 * Pairing by a link; what the app needs of the browser (a secure context, its service worker,
 * WebCrypto, IndexedDB, the visual viewport), each checked on its own; the device key kept
 * across a reload and the only thing that lets a request in; a second device paired with the
 * short code Settings shows, and revoked from there; a terminal whose keys run in tmux and
 * whose screen is drawn, that takes a paste and follows a shrinking viewport; and Settings.
 * Where WebKitGTK is not an iPhone (a mouse, not a finger; no Push API) the test says so.
 * Screenshots: test-artifacts/engines-<engine>-*-phone.png.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevicesResponse } from '../../protocol/api.js';
import { formatProof, PROOF_HEADER, proofMessage } from '../../protocol/device-proof.js';
import { type AgentHandle, cleanupAgents, startAgent, tmux } from '../support/agent.js';
import { ARTIFACTS } from '../support/browser.js';
import { api, localDevice, localPairing } from '../support/client.js';
import { ENGINES, type Engine, type EnginePage, openEngine, workerActivated } from '../support/engines.js';
import { eventually } from '../support/eventually.js';
import { decodePng, inkIn } from '../support/png.js';
import { blockedText, blockerOf, platformOf } from '../../pwa/push/push-state.js';

const CODE = /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;

let agent: AgentHandle;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  agent = await startAgent();
});

afterAll(cleanupAgents);

/** In the page: the device key pair the app kept in IndexedDB, as what can be said of it. */
function readDeviceKey(): Promise<{ extractable: boolean; algorithm: string; curve: string; usages: string[]; publicKey: JsonWebKey; privateExport: string } | null> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('pocketmux-device');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const get = db.transaction('keys', 'readonly').objectStore('keys').get('device');
      get.onerror = () => reject(get.error);
      get.onsuccess = async () => {
        db.close();
        const pair = get.result as CryptoKeyPair | undefined;
        if (!pair) return resolve(null);
        const algorithm = pair.privateKey.algorithm as EcKeyAlgorithm;
        const privateExport = await crypto.subtle.exportKey('pkcs8', pair.privateKey).then(
          () => 'exported',
          (err: Error) => err.name,
        );
        resolve({
          extractable: pair.privateKey.extractable,
          algorithm: algorithm.name,
          curve: algorithm.namedCurve,
          usages: [...pair.privateKey.usages],
          publicKey: await crypto.subtle.exportKey('jwk', pair.publicKey),
          privateExport,
        });
      };
    };
  });
}

/**
 * A REST call from inside the page as the app makes one: the credential cookie, and a proof
 * signed there with the key in IndexedDB (`unsigned`: the cookie alone).
 */
async function pageApi(page: EnginePage, method: string, path: string, unsigned = false): Promise<number> {
  const time = Date.now();
  const nonce = randomBytes(16).toString('base64url');
  const signature = unsigned
    ? null
    : await page.evaluate(
        (message) =>
          new Promise<string>((resolve, reject) => {
            const open = indexedDB.open('pocketmux-device');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const get = open.result.transaction('keys', 'readonly').objectStore('keys').get('device');
              get.onsuccess = async () => {
                open.result.close();
                const keys = get.result as CryptoKeyPair;
                const signed = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new TextEncoder().encode(message)));
                resolve(btoa(String.fromCharCode(...signed)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''));
              };
            };
          }),
        proofMessage(method, path, time, nonce),
      );
  const headers: Record<string, string> = { accept: 'application/json' };
  if (signature) headers[PROOF_HEADER] = formatProof({ time, nonce, signature });
  return page.evaluate(({ method, path, headers }) => fetch(path, { method, headers, credentials: 'same-origin', cache: 'no-store' }).then((r) => r.status), { method, path, headers });
}

/** How far the page scrolls past the viewport, each way: a screen that fits must not scroll at all. */
function overflow(page: EnginePage): Promise<{ x: number; y: number }> {
  return page.evaluate(() => ({
    x: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    y: document.documentElement.scrollHeight - document.documentElement.clientHeight,
  }));
}

describe.each(ENGINES)('in %s', (name) => {
  let engine: Engine;
  let phone: EnginePage;
  const shot = (what: string) => join(ARTIFACTS, `engines-${name}-${what}-phone.png`);
  /** The shell tab the terminal test opens, and its tmux session and pane. */
  let tabId = '';
  const session = async () => (await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}')).split('\n').find((s) => s.endsWith(`_${tabId}`)) as string;
  const pane = async () => tmux(agent.tmuxSocket, 'capture-pane', '-p', '-t', `=${await session()}:`);
  const paneHeight = async () => Number((await tmux(agent.tmuxSocket, 'display-message', '-p', '-t', `=${await session()}:`, '#{pane_height}')).trim());
  /** The terminal's screen. */
  const screen = { css: 'pm-terminal-view >>> .xterm-screen' } as const;

  beforeAll(async () => {
    engine = await openEngine(name);
    phone = await engine.newPage('phone');
  }, 90_000);

  afterAll(async () => {
    await engine?.close();
  });

  it('pairs by a pairing link, and keeps a key of its own in IndexedDB that no script can read out', async () => {
    // A link of its own (the printed one works once): made with the local token, as `pocketmux pair` does.
    await phone.goto((await localPairing(agent)).url);
    await phone.waitFor({ role: 'heading', name: 'Pair this device' });
    expect(await overflow(phone)).toEqual({ x: 0, y: 0 });
    await phone.screenshot(shot('pair'));
    await phone.fill({ label: 'Device name' }, `${name} phone`);
    await phone.click({ role: 'button', name: 'Pair' });
    await phone.waitFor({ role: 'button', name: 'Settings' });
    // The secret is gone from the address once used.
    expect(await phone.url()).not.toContain('#pair=');
    const devices = await api<DevicesResponse>(await localDevice(agent), 'GET', '/api/devices');
    expect(devices.body.devices.map((d) => d.name)).toContain(`${name} phone`);

    const key = await phone.evaluate(readDeviceKey);
    expect(key).toMatchObject({ extractable: false, algorithm: 'ECDSA', curve: 'P-256', usages: ['sign'], publicKey: { kty: 'EC', crv: 'P-256' } });
    expect(key?.privateExport).toBe('InvalidAccessError');
    expect(await overflow(phone)).toEqual({ x: 0, y: 0 });
    await phone.screenshot(shot('sessions'));
  });

  it('has what the app needs of a phone: a secure context, its service worker, WebCrypto, IndexedDB and the visual viewport', async () => {
    // Once activated, the worker takes the page over at the next load.
    await workerActivated(phone);
    await phone.reload();
    await phone.waitFor({ role: 'button', name: 'Settings' });
    const platform = await phone.evaluate(async () => {
      const ready = await Promise.race([navigator.serviceWorker.ready, new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000))]);
      return {
        secure: isSecureContext,
        subtle: typeof crypto.subtle?.sign === 'function',
        indexedDB: typeof indexedDB?.open === 'function',
        worker: ready ? { scope: ready.scope, state: ready.active?.state ?? null } : null,
        controlled: navigator.serviceWorker.controller !== null,
        viewport: window.visualViewport ? { width: window.visualViewport.width, height: window.visualViewport.height, scale: window.visualViewport.scale } : null,
        inner: { width: innerWidth, height: innerHeight },
      };
    });
    expect(platform).toEqual({
      secure: true,
      subtle: true,
      indexedDB: true,
      worker: { scope: new URL('/', agent.url).href, state: 'activated' },
      controlled: true,
      viewport: { width: 390, height: 844, scale: 1 },
      inner: { width: 390, height: 844 },
    });
  });

  it('stays paired across a reload with the same key, and only its signed requests are let in', async () => {
    const before = await phone.evaluate(readDeviceKey);
    await phone.reload();
    await phone.waitFor({ role: 'button', name: 'Settings' });
    expect((await phone.evaluate(readDeviceKey))?.publicKey).toEqual(before?.publicKey);
    expect(await pageApi(phone, 'GET', '/api/workspaces')).toBe(200);
    // The credential cookie alone, which the browser sends to any server on this host name, opens nothing.
    expect(await pageApi(phone, 'GET', '/api/workspaces', true)).toBe(401);
  });

  it('pairs a second device with the short code Settings shows, and revokes it from there', async () => {
    await phone.click({ role: 'button', name: 'Settings' });
    await phone.waitFor({ role: 'heading', name: 'Settings' });
    await phone.click({ role: 'button', name: 'Pair a new device' });
    const code = await phone.text({ css: 'pm-pairing-panel >>> .code' });
    expect(code).toMatch(CODE);
    await phone.screenshot(shot('pair-code'));

    const second = await engine.newPage('phone');
    try {
      await second.goto(agent.url);
      await second.waitFor({ role: 'heading', name: 'Pair this device' });
      // Typed as people do: lower case, no dash.
      await second.fill({ label: 'Pairing code' }, code.replace('-', '').toLowerCase());
      await second.fill({ label: 'Device name' }, `${name} second`);
      await second.click({ role: 'button', name: 'Pair' });
      await second.waitFor({ role: 'heading', name: 'Home' });
      const devices = await api<DevicesResponse>(await localDevice(agent), 'GET', '/api/devices');
      expect(devices.body.devices.map((d) => d.name)).toContain(`${name} second`);
      expect(await pageApi(second, 'GET', '/api/workspaces')).toBe(200);

      // Revoked from the first phone: the second is told at once, and its key opens nothing any more.
      await phone.click({ role: 'button', name: `Revoke ${name} second` });
      await phone.click({ role: 'button', name: 'Revoke', within: '[role="alertdialog"]' });
      await second.waitFor({ role: 'heading', name: 'This device was removed' });
      expect(await pageApi(second, 'GET', '/api/workspaces')).toBe(401);
      await second.reload();
      await second.waitFor({ role: 'heading', name: 'This device was removed' });
      await second.waitFor({ label: 'Pairing code' });
    } finally {
      await second.close();
    }
  });

  it('opens a terminal: what is typed runs in tmux, and the screen draws it', async () => {
    await phone.goto(agent.url);
    await phone.click({ role: 'button', name: 'New tab' });
    await eventually(async () => /\/t\/[a-z0-9-]+$/.test(await phone.url()), 15_000, 'the tab page');
    tabId = (await phone.url()).split('/').pop() as string;
    await eventually(async () => /[$#] *$/m.test(await pane()), 15_000, 'the shell prompt in tmux');
    // What the terminal drew: its rows as text with the DOM renderer, pixels on a canvas with WebGL.
    const drawn = () =>
      phone.evaluate(() => {
        const find = (root: Document | ShadowRoot): HTMLElement | null => {
          for (const el of root.querySelectorAll<HTMLElement>('*')) {
            if (el.dataset.renderer) return el;
            const inner = el.shadowRoot ? find(el.shadowRoot) : null;
            if (inner) return inner;
          }
          return null;
        };
        const host = find(document);
        return { renderer: host?.dataset.renderer ?? null, rows: [...(host?.querySelectorAll('.xterm-rows > div') ?? [])].map((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd()) };
      });
    await phone.waitFor({ css: 'pm-terminal-view >>> .xterm-screen' });
    // Keys typed before the terminal's socket is open are dropped, by design: type once the
    // page's tmux client is attached and its screen shows the prompt.
    await eventually(async () => (await tmux(agent.tmuxSocket, 'list-clients', '-t', `=${await session()}`)).trim() !== '', 15_000, "the page's tmux client");
    await eventually(async () => (await drawn()).renderer === 'webgl' || (await drawn()).rows.some((r) => /[$#] *$/.test(r)), 15_000, 'the prompt drawn');
    await phone.click({ css: 'pm-terminal-view >>> .xterm-screen' });
    await phone.type('echo typed-in-$((6*7))');
    await phone.press('Enter');
    await eventually(async () => (await pane()).split('\n').includes('typed-in-42'), 15_000, 'the command run in tmux');

    // A finger's pointer is coarse, and the app puts the key bar and the input bar under the
    // terminal for it. WebKitGTK has no touch emulation: its pointer is a mouse, as on a
    // desktop, and the app shows neither there. An iPhone's pointer is coarse, as Chromium's
    // phone here is.
    const coarse = await phone.evaluate(() => matchMedia('(pointer: coarse)').matches);
    expect(coarse).toBe(name === 'chromium');
    expect(await phone.has({ role: 'toolbar', name: 'Terminal keys' })).toBe(coarse);
    expect(await phone.has({ role: 'textbox', name: 'Send a line to the terminal' })).toBe(coarse);
    if (coarse) {
      await phone.fill({ role: 'textbox', name: 'Send a line to the terminal' }, 'echo via-input-bar-$((1+1))');
      await phone.press('Enter');
      await eventually(async () => (await pane()).split('\n').includes('via-input-bar-2'), 15_000, 'the input bar line run in tmux');
      await phone.click({ css: 'pm-terminal-view >>> .xterm-screen' });
      await phone.type('sleep 30');
      await phone.press('Enter');
      // The key bar's sticky Ctrl turns the next typed key into a control character.
      await phone.click({ role: 'button', name: 'Ctrl (Control)' });
      await phone.type('c');
      await eventually(async () => (await pane()).includes('^C'), 15_000, 'sleep interrupted by the key bar\'s Ctrl and c');
    }

    const { renderer } = await drawn();
    expect(['webgl', 'dom']).toContain(renderer);
    if (renderer === 'dom') await eventually(async () => (await drawn()).rows.includes('typed-in-42'), 15_000, 'the output in the rows drawn');
    expect(await overflow(phone)).toEqual({ x: 0, y: 0 });
    // Either renderer: the screen's output row has ink.
    const png = await phone.screenshot(shot('terminal'));
    const image = decodePng(png);
    const box = await phone.box(screen);
    const ratio = await phone.evaluate(() => devicePixelRatio);
    const scaled = { x: Math.round(box.x) * ratio, y: Math.round(box.y) * ratio, width: Math.round(box.width) * ratio, height: Math.round(box.height) * ratio };
    // The terminal's background: its bottom right corner, where nothing is written.
    const at = ((scaled.y + scaled.height - 2) * image.width + scaled.x + scaled.width - 2) * 4;
    const background: [number, number, number] = [image.rgba[at] as number, image.rgba[at + 1] as number, image.rgba[at + 2] as number];
    expect(inkIn(image, scaled, background)).toBeGreaterThan(0);
  });

  it('pastes into the terminal as one bracketed paste, and follows the viewport when it shrinks and grows', async () => {
    await phone.goto(new URL(`/t/${tabId}`, agent.url).href);
    await eventually(async () => (await tmux(agent.tmuxSocket, 'list-clients', '-t', `=${await session()}`)).trim() !== '', 15_000, "the page's tmux client");
    const file = join(agent.root, `pasted-${name}.txt`);
    // A program that turned bracketed paste on, and keeps the 35 bytes of one bracketed paste
    // of the two lines, made visible; then it ends by itself, and the shell is back.
    await tmux(
      agent.tmuxSocket,
      'send-keys',
      '-t',
      `=${await session()}:`,
      '-l',
      `clear; stty -echo -icanon; printf '\\033[?2004h'; sleep 0.5; echo paste-ready; head -c 35 | cat -v > '${file}'; printf '\\033[?2004l'; stty sane`,
    );
    await tmux(agent.tmuxSocket, 'send-keys', '-t', `=${await session()}:`, 'Enter');
    await eventually(async () => (await pane()).includes('paste-ready'), 15_000, 'the program ready for a paste');
    // tmux tells the page's terminal of the mode on its way to the browser, a moment after the
    // pane has it: a paste before the browser's terminal knows would rightly not be bracketed.
    await eventually(
      () =>
        phone.evaluate(() => {
          const find = (root: Document | ShadowRoot): Element | null =>
            root.querySelector('pm-terminal-view') ?? [...root.querySelectorAll('*')].map((el) => (el.shadowRoot ? find(el.shadowRoot) : null)).find(Boolean) ?? null;
          const view = find(document) as { session?: { term?: { modes?: { bracketedPasteMode?: boolean } } } } | null;
          return view?.session?.term?.modes?.bracketedPasteMode === true;
        }),
      15_000,
      "bracketed paste on in the browser's terminal",
    );
    // The browser's paste event (Ctrl+V, Cmd+V, the menu), into xterm's textarea.
    await phone.evaluate(() => {
      const find = (root: Document | ShadowRoot): Element | null =>
        root.querySelector('.xterm-helper-textarea') ?? [...root.querySelectorAll('*')].map((el) => (el.shadowRoot ? find(el.shadowRoot) : null)).find(Boolean) ?? null;
      const data = new DataTransfer();
      data.setData('text/plain', 'echo first\necho second\n');
      find(document)?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await eventually(() => existsSync(file) && readFileSync(file, 'utf8') === '^[[200~echo first\necho second\n^[[201~', 10_000, 'the paste, bracketed, in the file');

    // A phone's keyboard takes the lower half: the terminal fits above it, and tmux gets fewer rows.
    const tall = await paneHeight();
    await phone.resize(390, 420);
    await eventually(async () => ((r) => r.y + r.height)(await phone.box(screen)) <= 420, 10_000, 'the terminal within the smaller viewport');
    await eventually(async () => (await paneHeight()) < tall, 10_000, 'tmux told of fewer rows');
    await phone.screenshot(shot('terminal-short'));
    await phone.resize(390, 844);
    await eventually(async () => (await paneHeight()) === tall, 10_000, 'the rows back');
  });

  it("Settings says what this browser allows for notifications, and keeps this device's own choices across a reload", async () => {
    await phone.goto(new URL('/settings', agent.url).href);
    await phone.waitFor({ role: 'heading', name: 'Settings' });
    // What the browser offers, read as the app reads it; the section's words follow from it.
    // WebKitGTK and Chromium have the Push API; an iPhone's Safari has it only in a home-screen app.
    const facts = await phone.evaluate(() => ({
      secure: isSecureContext,
      pushSupported: 'PushManager' in window && 'serviceWorker' in navigator && 'Notification' in window,
      userAgent: navigator.userAgent,
      maxTouchPoints: navigator.maxTouchPoints,
      standalone: matchMedia('(display-mode: standalone)').matches,
      permission: 'Notification' in window ? Notification.permission : 'default',
    }));
    const platform = platformOf(facts.userAgent, facts.maxTouchPoints);
    expect(platform).toBe(name === 'chromium' ? 'android' : 'desktop');
    const blocker = blockerOf({ ...facts, platform });
    const section = 'pm-notifications-settings';
    if (blocker === null) await phone.waitFor({ role: 'button', name: 'Enable notifications', within: section });
    else expect(await phone.text({ css: section })).toContain(blockedText(blocker, platform).title);

    // "Show typing at once" is this device's: off, it stays off after a reload. Pressed once the
    // page above it (devices, linked machines) has loaded, as it moves the switch down.
    await eventually(async () => !/Loading (devices|machines)/.test(await phone.text({ css: 'pm-devices-view' })), 15_000, 'Settings loaded');
    const echo = { role: 'switch', name: /^Show typing at once/ } as const;
    expect(await phone.evaluate(() => localStorage.getItem('pocketmux.local-echo'))).toBeNull();
    await phone.click(echo);
    await eventually(async () => (await phone.evaluate(() => localStorage.getItem('pocketmux.local-echo'))) === 'off', 5_000, 'the choice stored');
    await phone.reload();
    await phone.waitFor(echo);
    expect(await phone.checked(echo)).toBe(false);
    // A long page: it scrolls down, never sideways.
    expect((await overflow(phone)).x).toBe(0);
    await phone.scrollTo({ css: section });
    await phone.screenshot(shot('settings'));
  });
});
