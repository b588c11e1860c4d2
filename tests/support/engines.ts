/**
 * The PWA driven the same way in both browser engines a phone may run it in: Chromium (Android)
 * through playwright-core, and WebKit (every iPhone) through WebKitGTK's WebDriver server and its
 * MiniBrowser, on an Xvfb display of its own. A test is written once against `EnginePage` and
 * runs in each engine of `ENGINES`.
 *
 * Both engines find elements with the same script in the page (`FIND`: a role and accessible
 * name, a label, CSS, across open shadow roots, visible ones only) and act as a person does:
 * a click is a real pointer press at the element's centre once the element is the one there
 * (not covered, not disabled), and typing is real key presses into what has focus.
 *
 * WebKit runs where `WebKitWebDriver`, `Xvfb` and WebKitGTK's MiniBrowser are installed
 * (Debian: webkit2gtk-driver, xvfb), unless POCKETMUX_WEBKIT=off. Its phone is 390 CSS px wide
 * and 844 high at a device pixel ratio of 1 (WebKitGTK has no device emulation), with its own
 * user agent (`… AppleWebKit/605.1.15 … Safari/605.1.15`, no "iPhone").
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, PHONE } from './browser.js';
import { ENGINES, MINIBROWSER, WEBKIT_DRIVER, webkitAvailable, webkitNotice } from './engine-choice.js';
import { eventually } from './eventually.js';

export type { EngineName } from './engine-choice.js';
import type { EngineName } from './engine-choice.js';
export type Profile = 'phone' | 'desktop';

/**
 * What to find on the page: a role and accessible name (a string is the whole name, spaces
 * folded; a RegExp is tested against it), a form control by its label, or CSS, where ` >>> `
 * goes into the shadow root (and the children) of what its left side matched.
 */
export type Target = ({ role: string; name: string | RegExp } | { label: string } | { css: string }) & {
  /** Only inside what this CSS (with ` >>> ` as in `css`) matches: one card of several. */
  within?: string;
};

export type Key = 'Enter' | 'Escape' | 'Backspace' | 'Tab' | 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

export interface EnginePage {
  readonly engine: EngineName;
  readonly profile: Profile;
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  reload(): Promise<void>;
  /** Runs `fn` in the page with `arg` (JSON), awaiting a promise it returns. `fn` must not use anything outside itself. */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Whether the target is on the page now, visible. */
  has(target: Target): Promise<boolean>;
  /** The target's text as shown (its shadow tree's too), spaces folded, once it is on the page with some. */
  text(target: Target, timeoutMs?: number): Promise<string>;
  waitFor(target: Target, timeoutMs?: number): Promise<void>;
  /** Where the target is in the viewport, in CSS pixels, once it is on the page. */
  box(target: Target): Promise<{ x: number; y: number; width: number; height: number }>;
  /** Whether the target (a checkbox or switch) is checked, once it is on the page. */
  checked(target: Target): Promise<boolean>;
  /** Scrolls the page until the target is in the middle of the viewport. */
  scrollTo(target: Target): Promise<void>;
  /** A pointer press at the target's centre, once it is visible, enabled and not covered. */
  click(target: Target, timeoutMs?: number): Promise<void>;
  /** Clicks the field, selects what it holds, and types `text` over it. */
  fill(target: Target, text: string): Promise<void>;
  /** Key presses for each character, into what has focus. */
  type(text: string): Promise<void>;
  press(key: Key): Promise<void>;
  /** Makes the viewport this size, in CSS pixels, as a phone's keyboard or a turned phone does. */
  resize(width: number, height: number): Promise<void>;
  /** The viewport as PNG, written to `path` when given. */
  screenshot(path?: string): Promise<Buffer>;
  close(): Promise<void>;
}

export interface PageOptions {
  /** The system's theme the page sees (`prefers-color-scheme`); light by default. */
  colorScheme?: 'light' | 'dark';
}

export interface Engine {
  readonly name: EngineName;
  newPage(profile: Profile, options?: PageOptions): Promise<EnginePage>;
  close(): Promise<void>;
}

export { ENGINES, webkitAvailable, webkitNotice };

/** Waits for the app's service worker to be activated (`ready` comes while it may still be activating). */
export async function workerActivated(page: EnginePage): Promise<void> {
  const state = () => page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.active?.state ?? null));
  await eventually(async () => (await state()) === 'activated', 15_000, 'the service worker activated');
}

export function openEngine(name: EngineName): Promise<Engine> {
  return name === 'chromium' ? openChromium() : openWebKit();
}

/**
 * In the page: the element a target names, or null. Plain JavaScript, the same text in both
 * engines. The accessible name is the part of the ARIA rules the app's controls use:
 * aria-labelledby, aria-label, a <label>, a button input's value, a fieldset's legend, then
 * the text inside.
 */
const FIND = String.raw`(spec) => {
  const walk = (root, into) => {
    for (const el of root.querySelectorAll('*')) {
      into.push(el);
      if (el.shadowRoot) walk(el.shadowRoot, into);
    }
    return into;
  };
  // What is inside an element: its shadow root's tree, then its children's.
  const inside = (el) => walk(el, el.shadowRoot ? walk(el.shadowRoot, []) : []);
  const narrow = (scope, selectors) => {
    for (const part of selectors.split(' >>> ')) scope = scope.filter((el) => el.matches(part)).flatMap(inside);
    return scope;
  };
  const all = spec.within ? narrow(walk(document, []), spec.within) : walk(document, []);
  const fold = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    for (let n = el; n; n = n.parentElement || (n.getRootNode() && n.getRootNode().host) || null) {
      const s = getComputedStyle(n);
      if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false;
    }
    return true;
  };
  const roleOf = (el) => {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(' ')[0];
    const t = el.localName;
    if (t === 'button') return 'button';
    if (t === 'a' && el.hasAttribute('href')) return 'link';
    if (/^h[1-6]$/.test(t)) return 'heading';
    if (t === 'textarea') return 'textbox';
    if (t === 'select') return 'combobox';
    if (t === 'dialog') return 'dialog';
    if (t === 'fieldset') return 'group';
    if (t === 'input') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (type === 'button' || type === 'submit' || type === 'reset') return 'button';
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      if (['text', 'search', 'email', 'url', 'tel', 'password'].includes(type)) return 'textbox';
    }
    return null;
  };
  const byId = (el, id) => {
    const root = el.getRootNode();
    return (root.getElementById && root.getElementById(id)) || document.getElementById(id);
  };
  const nameOf = (el) => {
    const by = el.getAttribute('aria-labelledby');
    if (by) return fold(by.split(/\s+/).map((id) => (byId(el, id) || {}).textContent || '').join(' '));
    const label = el.getAttribute('aria-label');
    if (label) return fold(label);
    if (el.labels && el.labels.length > 0) return fold([...el.labels].map((l) => l.textContent).join(' '));
    if (el.localName === 'input' && ['button', 'submit', 'reset'].includes(el.type)) return fold(el.value);
    const legend = el.localName === 'fieldset' && el.querySelector(':scope > legend');
    if (legend) return fold(legend.textContent);
    return fold(el.textContent);
  };
  const named = (el) => {
    const name = nameOf(el);
    return spec.pattern !== undefined ? new RegExp(spec.pattern, spec.flags).test(name) : name === spec.name;
  };
  let found;
  if (spec.kind === 'css') {
    const parts = spec.css.split(' >>> ');
    const last = parts.pop();
    found = (parts.length > 0 ? narrow(all, parts.join(' >>> ')) : all).filter((el) => el.matches(last));
  }
  else if (spec.kind === 'label') found = all.filter((el) => ['input', 'textarea', 'select'].includes(el.localName) && nameOf(el) === spec.name);
  else found = all.filter((el) => roleOf(el) === spec.role && named(el));
  return found.find(visible) || null;
}`;

/**
 * In the page: the text an element shows, its shadow tree's where it has one (slots filled
 * with what is assigned to them), without style and script.
 */
const DEEP_TEXT = `function deep(n) {
  if (n.nodeType === 3) return n.data;
  if (n.nodeType !== 1 && n.nodeType !== 11) return '';
  if (n.localName === 'style' || n.localName === 'script') return '';
  if (n.localName === 'slot') return n.assignedNodes({ flatten: true }).map(deep).join('');
  return [...(n.shadowRoot || n).childNodes].map(deep).join('');
}`;

type Spec = ({ kind: 'css'; css: string } | { kind: 'label'; name: string } | { kind: 'role'; role: string; name?: string; pattern?: string; flags?: string }) & {
  within?: string;
};

function specOf(target: Target): Spec {
  const within = target.within === undefined ? {} : { within: target.within };
  if ('css' in target) return { kind: 'css', css: target.css, ...within };
  if ('label' in target) return { kind: 'label', name: target.label, ...within };
  return typeof target.name === 'string'
    ? { kind: 'role', role: target.role, name: target.name, ...within }
    : { kind: 'role', role: target.role, pattern: target.name.source, flags: target.name.flags, ...within };
}

function describeTarget(target: Target): string {
  const where = target.within === undefined ? '' : ` in "${target.within}"`;
  if ('css' in target) return `"${target.css}"${where}`;
  if ('label' in target) return `the field labelled "${target.label}"${where}`;
  return `a ${target.role} named ${typeof target.name === 'string' ? `"${target.name}"` : String(target.name)}${where}`;
}

/**
 * In the page: where a press on the target would land, and whether the target is what is
 * there (the topmost element at its centre, looked for through shadow roots, is it or inside it).
 */
const AIM = `(spec) => {
  const el = (${FIND})(spec);
  if (!el) return { found: false };
  if (el.disabled || el.getAttribute('aria-disabled') === 'true') return { found: true, ready: false, why: 'disabled' };
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  const inside = (outer, inner) => {
    for (let n = inner; n; n = n.parentNode || n.host || null) if (n === outer) return true;
    return false;
  };
  const ready = Boolean(hit) && inside(el, hit);
  return { found: true, ready, x, y, why: ready ? '' : 'covered by ' + (hit ? hit.outerHTML.slice(0, 120) : 'nothing') };
}`;

interface Aim {
  found: boolean;
  ready?: boolean;
  x?: number;
  y?: number;
  why?: string;
}

/**
 * What both engines share: finding, waiting and aiming by script, then the engine's own
 * pointer and keys.
 */
abstract class BasePage implements EnginePage {
  abstract readonly engine: EngineName;
  constructor(readonly profile: Profile) {}
  abstract goto(url: string): Promise<void>;
  abstract url(): Promise<string>;
  abstract reload(): Promise<void>;
  /** Evaluates an expression given as JavaScript source, with `arg` as its argument. */
  protected abstract run<R>(source: string, arg: unknown): Promise<R>;
  protected abstract pressAt(x: number, y: number): Promise<void>;
  abstract type(text: string): Promise<void>;
  abstract press(key: Key): Promise<void>;
  abstract screenshot(path?: string): Promise<Buffer>;
  abstract resize(width: number, height: number): Promise<void>;
  abstract close(): Promise<void>;

  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    // The test runner's compiler may wrap named functions in `__name(fn, "name")`, a helper
    // that exists only in Node: the page gets one that does nothing.
    return this.run<R>(`(arg) => { const __name = (f) => f; return (${fn.toString()})(arg); }`, arg ?? null);
  }

  async has(target: Target): Promise<boolean> {
    return this.run<boolean>(`(spec) => (${FIND})(spec) !== null`, specOf(target));
  }

  async text(target: Target, timeoutMs = 15_000): Promise<string> {
    const read = () => this.run<string | null>(`(spec) => { const el = (${FIND})(spec); return el && (${DEEP_TEXT})(el).replace(/\\s+/g, ' ').trim(); }`, specOf(target));
    return eventually(read, timeoutMs, `${describeTarget(target)} with text on the ${this.engine} page`);
  }

  async waitFor(target: Target, timeoutMs = 15_000): Promise<void> {
    await eventually(() => this.has(target), timeoutMs, `${describeTarget(target)} on the ${this.engine} page`);
  }

  async box(target: Target): Promise<{ x: number; y: number; width: number; height: number }> {
    await this.waitFor(target);
    return this.run(`(spec) => { const r = (${FIND})(spec).getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }`, specOf(target));
  }

  async checked(target: Target): Promise<boolean> {
    await this.waitFor(target);
    return this.run(`(spec) => (${FIND})(spec).checked === true`, specOf(target));
  }

  async scrollTo(target: Target): Promise<void> {
    await this.waitFor(target);
    await this.run(`(spec) => (${FIND})(spec).scrollIntoView({ block: 'center' })`, specOf(target));
  }

  /**
   * Presses the middle of `target` once it is enabled, uncovered, and where it was at the look
   * before (a page still loading moves it: a press aimed a moment ago would land beside it).
   */
  async click(target: Target, timeoutMs = 15_000): Promise<void> {
    let last: Aim = { found: false };
    const aim = await eventually(
      async () => {
        const before = last;
        last = await this.run<Aim>(AIM, specOf(target));
        return last.ready && before.ready && last.x === before.x && last.y === before.y ? last : null;
      },
      timeoutMs,
      `${describeTarget(target)} to click on the ${this.engine} page`,
      () => (!last.found ? 'not found' : last.ready ? 'found, but still moving' : `found, but ${last.why}`),
    );
    await this.pressAt(aim.x as number, aim.y as number);
  }

  async fill(target: Target, text: string): Promise<void> {
    await this.click(target);
    await this.run(`(spec) => { const el = (${FIND})(spec); el.focus(); el.select(); }`, specOf(target));
    if (text === '') await this.press('Backspace');
    else await this.type(text);
  }
}

// ---------------------------------------------------------------------------------------------
// Chromium: playwright-core

async function openChromium(): Promise<Engine> {
  const browser: Browser = await launchBrowser();
  return {
    name: 'chromium',
    async newPage(profile, options = {}) {
      const context = await browser.newContext({ ...(profile === 'phone' ? PHONE : DESKTOP), colorScheme: options.colorScheme ?? 'light' });
      return new ChromiumPage(profile, context, await context.newPage());
    },
    close: () => browser.close(),
  };
}

class ChromiumPage extends BasePage {
  readonly engine = 'chromium';
  constructor(
    profile: Profile,
    private readonly context: BrowserContext,
    readonly page: Page,
  ) {
    super(profile);
  }
  async goto(url: string): Promise<void> {
    await this.page.goto(url);
  }
  async url(): Promise<string> {
    return this.page.url();
  }
  async reload(): Promise<void> {
    await this.page.reload();
  }
  protected run<R>(source: string, arg: unknown): Promise<R> {
    return this.page.evaluate(`(${source})(${JSON.stringify(arg)})`) as Promise<R>;
  }
  protected async pressAt(x: number, y: number): Promise<void> {
    await this.page.mouse.click(x, y);
  }
  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }
  async press(key: Key): Promise<void> {
    await this.page.keyboard.press(key);
  }
  async screenshot(path?: string): Promise<Buffer> {
    return this.page.screenshot(path ? { path } : {});
  }
  async resize(width: number, height: number): Promise<void> {
    await this.page.setViewportSize({ width, height });
  }
  async close(): Promise<void> {
    await this.context.close();
  }
}

// ---------------------------------------------------------------------------------------------
// WebKit: WebKitWebDriver and MiniBrowser under Xvfb

/** W3C WebDriver's key codes for the keys tests press. */
const WEBDRIVER_KEYS: Record<Key, string> = {
  Enter: '\uE007',
  Escape: '\uE00C',
  Backspace: '\uE003',
  Tab: '\uE004',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
};

/** The key that names an element in a WebDriver response (W3C). */
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `command` in a process group of its own, so closing ends it and every process it started. */
function startGroup(command: string, args: string[], env: NodeJS.ProcessEnv, stdio: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  return spawn(command, args, { env, detached: true, stdio: ['ignore', stdio, 'pipe'] });
}

async function endGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

/** Xvfb on a display it picks itself (`-displayfd`): its number, once the server is ready. */
async function startXvfb(env: NodeJS.ProcessEnv): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = startGroup('Xvfb', ['-displayfd', '1', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp', '-nolisten', 'unix', '-listen', 'unix'], env, 'pipe');
  let stderr = '';
  xvfb.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + String(d)).slice(-2_000);
  });
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    xvfb.stdout?.on('data', (d: Buffer) => {
      out += String(d);
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb ended (${code}) before it was ready: ${stderr}`)));
  });
  return { display, process: xvfb };
}

/**
 * GTK's style for MiniBrowser's own toolbar: everything in it as small as it goes, so the
 * window can be as narrow as a phone (its buttons and address field would hold it at 447 px).
 * The page is drawn by WebKit, not GTK: this changes nothing in it.
 */
const NARROW_TOOLBAR = `toolbar, toolbar *, entry, button, box, progressbar, image, label {
  min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; font-size: 1px;
}
`;

const VIEWPORTS: Record<Profile, { width: number; height: number }> = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
};

async function openWebKit(): Promise<Engine> {
  const home = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'pocketmux-webkit-'));
  mkdirSync(join(home, 'config', 'gtk-3.0'), { recursive: true });
  writeFileSync(join(home, 'config', 'gtk-3.0', 'gtk.css'), NARROW_TOOLBAR);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_RUNTIME_DIR: home,
    // No accessibility bus or D-Bus session to find: GTK would wait for them.
    NO_AT_BRIDGE: '1',
    GTK_A11Y: 'none',
    LANG: 'C.UTF-8',
  };
  const started: ChildProcess[] = [];
  const close = async () => {
    for (const child of started.reverse()) await endGroup(child);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const xvfb = await startXvfb(env);
    started.push(xvfb.process);
    env.DISPLAY = xvfb.display;
  } catch (err) {
    await close();
    throw err;
  }
  const pages = new Set<WebKitPage>();
  return {
    name: 'webkit',
    async newPage(profile, options = {}) {
      // A WebKitWebDriver serves one session at a time: each page has its own, on the one display.
      const port = await freePort();
      const driver = startGroup(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], env);
      const base = `http://127.0.0.1:${port}`;
      try {
        await eventually(
          async () => (await fetch(`${base}/status`).then((r) => r.json() as Promise<{ value: { ready: boolean } }>)).value.ready,
          15_000,
          'WebKitWebDriver to be ready',
        );
        const created = await webdriver<{ sessionId: string }>(base, 'POST', '/session', {
          capabilities: {
            alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', ...(options.colorScheme === 'dark' ? ['--dark-mode'] : [])] } },
          },
        });
        const page: WebKitPage = new WebKitPage(profile, `${base}/session/${created.sessionId}`, async () => {
          pages.delete(page);
          await endGroup(driver);
        });
        pages.add(page);
        await page.fitViewport(VIEWPORTS[profile]);
        return page;
      } catch (err) {
        await endGroup(driver);
        throw err;
      }
    },
    async close() {
      for (const page of [...pages]) await page.close().catch(() => undefined);
      await close();
    },
  };
}

class WebDriverError extends Error {}

async function webdriver<T>(base: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { value: T & { error?: string; message?: string } };
  if (!res.ok) throw new WebDriverError(`WebDriver ${method} ${path}: ${json.value?.error ?? res.status}: ${json.value?.message ?? ''}`);
  return json.value;
}

class WebKitPage extends BasePage {
  readonly engine = 'webkit';
  private closed = false;
  constructor(
    profile: Profile,
    private readonly session: string,
    private readonly onClose: () => Promise<void>,
  ) {
    super(profile);
  }

  private call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return webdriver<T>(this.session, method, path, body);
  }

  /**
   * Sizes the window so the page's viewport is `want`: the toolbar's height is what the window
   * has more. On Xvfb with no window manager a resize, and the toolbar's own height, land a
   * moment after the call that asked for them (a busy machine read 844, then 824 once the
   * toolbar was drawn): each step waits for the viewport to hold still, and corrects again until
   * it is `want`.
   */
  async fitViewport(want: { width: number; height: number }): Promise<void> {
    let rect = { ...want };
    let inner = { width: 0, height: 0 };
    for (let attempt = 0; attempt < 6; attempt++) {
      await this.call('POST', '/window/rect', { x: 0, y: 0, ...rect });
      inner = await this.settledViewport();
      if (inner.width === want.width && inner.height === want.height) return;
      rect = { width: rect.width + (want.width - inner.width), height: rect.height + (want.height - inner.height) };
    }
    throw new Error(`WebKit's viewport is ${inner.width}×${inner.height}, not ${want.width}×${want.height}`);
  }

  /** The page's viewport once two reads 100 ms apart agree (at most 2 s). */
  private async settledViewport(): Promise<{ width: number; height: number }> {
    const read = () => this.run<{ width: number; height: number }>('() => ({ width: innerWidth, height: innerHeight })', null);
    let last = await read();
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = await read();
      if (now.width === last.width && now.height === last.height) return now;
      last = now;
    }
    return last;
  }

  resize(width: number, height: number): Promise<void> {
    return this.fitViewport({ width, height });
  }
  async goto(url: string): Promise<void> {
    await this.call('POST', '/url', { url });
  }
  url(): Promise<string> {
    return this.call<string>('GET', '/url');
  }
  async reload(): Promise<void> {
    await this.call('POST', '/refresh', {});
  }
  protected async run<R>(source: string, arg: unknown): Promise<R> {
    const value = await this.call<R>('POST', '/execute/sync', { script: `return (${source})(arguments[0]);`, args: [arg] });
    if (value && typeof value === 'object' && ELEMENT_KEY in value) throw new Error('a script returned an element: return what it says of it instead');
    return value;
  }
  protected async pressAt(x: number, y: number): Promise<void> {
    await this.call('POST', '/actions', {
      actions: [
        {
          type: 'pointer',
          id: 'mouse',
          parameters: { pointerType: 'mouse' },
          actions: [
            { type: 'pointerMove', duration: 0, origin: 'viewport', x: Math.round(x), y: Math.round(y) },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    });
  }
  async type(text: string): Promise<void> {
    await this.keys([...text]);
  }
  async press(key: Key): Promise<void> {
    await this.keys([WEBDRIVER_KEYS[key]]);
  }
  private async keys(values: string[]): Promise<void> {
    await this.call('POST', '/actions', {
      actions: [{ type: 'key', id: 'keyboard', actions: values.flatMap((value) => [{ type: 'keyDown', value }, { type: 'keyUp', value }]) }],
    });
  }
  async screenshot(path?: string): Promise<Buffer> {
    const png = Buffer.from(await this.call<string>('GET', '/screenshot'), 'base64');
    if (path) writeFileSync(path, png);
    return png;
  }
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.call('DELETE', '');
    } finally {
      await this.onClose();
    }
  }
}
