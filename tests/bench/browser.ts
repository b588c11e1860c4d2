/**
 * `npm run bench -- --only browser`: what a person feels, in real Chromium, beside wetty's own
 * page. Two pages on one agent's tmux server, each on a shell tab of its own, in panes of the
 * same size: key press → echo painted, a 20 MB `cat` → its end painted (and what the page's
 * main thread went through meanwhile), and a cold start; on a phone and a desktop, each on an
 * idle machine and a busy one. Rounds alternate the pages, the order turning, so noise lands
 * on both. The timing is done inside the pages, by the same probe (browser-probe.ts).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { TabView } from '../../protocol/api.js';
import { sessionNameFor } from '../../agent/tmux/commands.js';
import { type AgentHandle, cleanupAgents, startAgent, tmux } from '../support/agent.js';
import { chooseChromium, DESKTOP, launchBrowser, PHONE, pairBrowser, xtermAssets } from '../support/browser.js';
import { createTab, localDevice, type Session } from '../support/client.js';
import { quantile } from '../support/stats.js';
import { whileBusy } from './busy.js';
import { LOCAL_ECHO_STORAGE_KEY } from '../../pwa/core/local-echo-choice.js';
import { FLOORS, type FloorName, FloorServer } from './browser-floor.js';
import { type ColdSample, type FloodSample, type KeySample, PROBE_SCRIPT, promptScript } from './browser-probe.js';
import {
  BROWSER_BENCH,
  type BrowserBenchResult,
  type ColdRun,
  type FloodRun,
  frameDrops,
  frameInterval,
  type Load,
  LOADS,
  PAGES,
  type PageName,
  type PageSamples,
  type ProfileName,
  type ProfileResult,
  type ProfileSetup,
} from './browser-figures.js';
import { WettyServer } from './terminal.js';

/** The phone of issue 29: a 390×844 screen at 3 device pixels a CSS pixel, touch. */
const PROFILES: Record<ProfileName, BrowserContextOptions> = {
  phone: { ...PHONE, deviceScaleFactor: 3 },
  desktop: DESKTOP,
};

/** wetty's page script, which holds its xterm.js: what its cold start waits for. */
const WETTY_CHUNK = 'wetty.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The probe's API in the page, for the bench's `evaluate` calls. */
interface Probe {
  renderer(): string;
  armKey(key: string): void;
  waitKey(ms: number): Promise<KeySample>;
  waitText(text: string, ms: number): Promise<number>;
  armFlood(marker: string): void;
  waitFlood(ms: number): Promise<FloodSample>;
  cold(chunk: string, ms: number): Promise<ColdSample>;
}
declare global {
  interface Window {
    __pmBench: Probe;
    wetty_term?: unknown;
  }
}

interface Bench {
  agent: AgentHandle;
  session: Session;
  browser: Browser;
  floors: FloorServer;
  floodFile: string;
  pmChunk: string;
  progress: (line: string) => void;
  /** Numbers the floods' markers, so no round can see an earlier one's. */
  round: number;
}

interface OpenPage {
  context: BrowserContext;
  page: Page;
}

interface ProfilePages {
  tabs: Record<PageName, TabView>;
  /** A shell tab of its own for pocketmux's page with local echo turned off. */
  unpredictedTab: TabView;
  /** A shell tab no page attaches to: the flood in tmux alone. */
  floodTab: TabView;
  /** pocketmux's window in cells, which the local-echo floor's terminal takes too. */
  cells: string;
  wetty: WettyServer;
  options: BrowserContextOptions;
  fontSize: number;
  wettyViewport: { width: number; height: number };
}

const sessionOf = (tab: TabView) => sessionNameFor(tab.workspaceId, tab.id);

/** The size tmux gives a tab's window: what the page attached to it asked for. */
async function cells(b: Bench, tab: TabView): Promise<string> {
  return (await tmux(b.agent.tmuxSocket, 'display-message', '-p', '-t', `=${sessionOf(tab)}:`, '#{window_width}x#{window_height}')).trim();
}

async function until<T>(what: string, ms: number, look: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await look();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

/** A page with the probe, its terminal drawn and focused. */
async function withTerminal(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript({ content: PROBE_SCRIPT });
  await page.goto(url);
  await page.locator('.xterm-screen').first().waitFor();
  await page.locator('.xterm-helper-textarea').first().focus();
  return page;
}

/** wetty keeps its options in localStorage: the same text size as pocketmux's page, fitting the window. */
const wettyOptions = (fontSize: number) => `localStorage.options = ${JSON.stringify(JSON.stringify({ xterm: { fontSize }, wettyVoid: 0, wettyFitTerminal: true }))};`;

async function openPocketmux(b: Bench, p: Pick<ProfilePages, 'tabs' | 'options'>): Promise<OpenPage> {
  const context = await b.browser.newContext(p.options);
  await pairBrowser(context, b.agent);
  const page = await withTerminal(context, new URL(`/t/${p.tabs.pocketmux.id}`, b.agent.url).href);
  return { context, page };
}

async function openWetty(b: Bench, p: Pick<ProfilePages, 'wetty' | 'options' | 'fontSize' | 'wettyViewport'>): Promise<OpenPage> {
  const context = await b.browser.newContext({ ...p.options, viewport: p.wettyViewport });
  await context.addInitScript({ content: wettyOptions(p.fontSize) });
  const page = await withTerminal(context, `http://127.0.0.1:${p.wetty.port}/`);
  return { context, page };
}

const fontSizeOf = (page: Page) => page.evaluate(() => Number.parseFloat(getComputedStyle(document.querySelector('.xterm-rows') ?? document.body).fontSize));

/**
 * Gives wetty's page the viewport in which its fit makes the same window as pocketmux's page:
 * wetty's terminal fills its window, pocketmux's shares it with a header (and on a phone a
 * key bar), so the same viewport would give wetty more cells to draw.
 */
async function matchCells(b: Bench, p: ProfilePages, wetty: OpenPage): Promise<void> {
  const target = await until('pocketmux’s tmux window to take its page’s size', 10_000, async () => {
    const size = await cells(b, p.tabs.pocketmux);
    return size.startsWith('80x24') ? undefined : size;
  });
  const [tc, tr] = target.split('x').map(Number) as [number, number];
  // wetty tells its pty its size once its socket is up: until then tmux has its own default.
  await wetty.page.waitForFunction(() => window.wetty_term !== undefined);
  await sleep(500);
  for (let attempt = 0; attempt < 8; attempt++) {
    const now = await cells(b, p.tabs.wetty);
    if (now === target) return;
    const [c, r] = now.split('x').map(Number) as [number, number];
    const screen = await wetty.page.locator('.xterm-screen').first().boundingBox();
    if (!screen) throw new Error('wetty’s page shows no terminal');
    const cellWidth = screen.width / c;
    const cellHeight = screen.height / r;
    p.wettyViewport = {
      width: Math.ceil(p.wettyViewport.width + (tc - c) * cellWidth),
      height: Math.ceil(p.wettyViewport.height + (tr - r) * cellHeight),
    };
    await wetty.page.setViewportSize(p.wettyViewport);
    await until('wetty’s tmux window to follow its viewport', 5_000, async () => ((await cells(b, p.tabs.wetty)) === now ? undefined : true)).catch(() => undefined);
    await sleep(200);
  }
  throw new Error(`wetty’s window stays ${await cells(b, p.tabs.wetty)}, pocketmux’s is ${target}`);
}

/** Both pages open and their windows the same size in cells; checked, as the run prints it. */
async function openPages(b: Bench, p: ProfilePages): Promise<Record<PageName, OpenPage>> {
  const pages = { pocketmux: await openPocketmux(b, p), wetty: await openWetty(b, p) };
  await matchCells(b, p, pages.wetty);
  b.progress(`  pages open: tmux windows ${await cells(b, p.tabs.pocketmux)} (pocketmux) / ${await cells(b, p.tabs.wetty)} (wetty)`);
  return pages;
}

async function closePages(pages: Record<string, OpenPage>): Promise<void> {
  for (const page of Object.values(pages)) await page.context.close();
}

/** Round r takes the pages in an order that turns. */
const orderOf = (round: number): PageName[] => (round % 2 === 0 ? ['pocketmux', 'wetty'] : ['wetty', 'pocketmux']);

const emptySamples = (): PageSamples => ({ echo: [], echoFrame: [], drawnLocally: 0, floods: [], colds: [] });

/** One batch of keys: alternately `a` and Backspace, each awaited until its echo is painted. */
async function keys(page: Page, into: Pick<PageSamples, 'echo' | 'echoFrame' | 'drawnLocally'>, count: number): Promise<void> {
  for (let i = 0; i < count + BROWSER_BENCH.WARMUP; i++) {
    const key = i % 2 === 0 ? 'a' : 'Backspace';
    await page.evaluate((k) => window.__pmBench.armKey(k), key);
    await page.keyboard.press(key);
    const s = await page.evaluate(() => window.__pmBench.waitKey(10_000));
    if (i >= BROWSER_BENCH.WARMUP) {
      into.echo.push(s.painted - s.down);
      into.echoFrame.push(s.frame - s.down);
      if (s.local) into.drawnLocally++;
    }
    await sleep(BROWSER_BENCH.GAP_MS + Math.random() * BROWSER_BENCH.GAP_SPREAD_MS);
  }
}

/** One flood: the command typed into the pane by tmux, Enter pressed on the page, the marker awaited there. */
async function flood(b: Bench, page: Page, tab: TabView): Promise<FloodRun> {
  const n = 1000 + b.round++;
  // The marker is computed in the shell, so the command line on the screen cannot match it.
  const computed = `$((${n - 1}+1))`;
  await tmux(b.agent.tmuxSocket, 'send-keys', '-t', `=${sessionOf(tab)}:`, '-l', `cat '${b.floodFile}'; echo END-${computed}`);
  await page.evaluate((t) => window.__pmBench.waitText(t, 10_000), computed);
  await page.evaluate((m) => window.__pmBench.armFlood(m), `END-${n}`);
  // Frames before Enter give the page's frame interval.
  await sleep(400);
  await page.keyboard.press('Enter');
  const s = await page.evaluate(() => window.__pmBench.waitFlood(300_000));
  const frameMs = frameInterval(s.frames.filter((t) => t <= s.down));
  // Let tmux's last redraw land before the next round.
  await sleep(700);
  return {
    ms: s.painted - s.down,
    longestTaskMs: Math.max(0, ...s.longTasks),
    longTasks: s.longTasks.length,
    frameMs,
    drops: frameDrops(s.frames, frameMs, s.down, s.painted),
    received: s.received,
    messages: s.messages,
  };
}

/**
 * The same flood in a pane no client is attached to: from Enter (sent by tmux) to the shell
 * signalling, through tmux, that `cat` is done. What tmux takes to read the file into its pane
 * whatever draws it: a floor for the pages' floods.
 */
async function floodAlone(b: Bench, tab: TabView): Promise<number> {
  const channel = `pm-bench-flood-${1000 + b.round++}`;
  const target = `=${sessionOf(tab)}:`;
  await tmux(b.agent.tmuxSocket, 'send-keys', '-t', target, '-l', `cat '${b.floodFile}'; tmux wait-for -S ${channel}`);
  await sleep(400);
  // tmux keeps a signal no one waited for yet, so the wait may start first or not.
  const done = tmux(b.agent.tmuxSocket, 'wait-for', channel);
  const started = performance.now();
  await tmux(b.agent.tmuxSocket, 'send-keys', '-t', target, 'Enter');
  await done;
  const ms = performance.now() - started;
  await sleep(700);
  return ms;
}

/** The shell's prompt on a cleared pane, as tmux has it: what a cold start waits to see painted. */
async function clearedPrompt(b: Bench, tab: TabView): Promise<string> {
  const target = `=${sessionOf(tab)}:`;
  await tmux(b.agent.tmuxSocket, 'send-keys', '-t', target, 'clear', 'Enter');
  return until('the prompt on a cleared pane', 5_000, async () => {
    const lines = (await tmux(b.agent.tmuxSocket, 'capture-pane', '-p', '-t', target)).split('\n').map((l) => l.trimEnd());
    const first = lines.find((l) => l !== '');
    return first && !first.includes('clear') && lines.filter((l) => l !== '').length === 1 ? first : undefined;
  });
}

/** A fresh context opens the page: navigation → the terminal's script loaded, → the prompt painted. */
async function cold(b: Bench, p: ProfilePages, name: PageName, prompt: string): Promise<ColdRun> {
  const pocketmux = name === 'pocketmux';
  const context = await b.browser.newContext(pocketmux ? p.options : { ...p.options, viewport: p.wettyViewport });
  try {
    let page: Page;
    if (pocketmux) {
      // Pairing loads the app: what it left (HTTP cache, the service worker and its caches) goes.
      await pairBrowser(context, b.agent);
      page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await cdp.send('Storage.clearDataForOrigin', { origin: new URL(b.agent.url).origin, storageTypes: 'cache_storage,service_workers' });
      await cdp.detach();
    } else {
      page = await context.newPage();
      await page.addInitScript({ content: wettyOptions(p.fontSize) });
    }
    await page.addInitScript({ content: promptScript(prompt) });
    await page.addInitScript({ content: PROBE_SCRIPT });
    await sleep(300);
    await page.goto(pocketmux ? new URL(`/t/${p.tabs.pocketmux.id}`, b.agent.url).href : `http://127.0.0.1:${p.wetty.port}/`);
    const s = await page.evaluate(([chunk]) => window.__pmBench.cold(chunk as string, 30_000), [pocketmux ? b.pmChunk : WETTY_CHUNK]);
    return { chunkMs: s.chunk, promptMs: s.prompt };
  } finally {
    await context.close();
  }
}

const p50 = (xs: number[]) => quantile(xs, 0.5).toFixed(1);

/** The floor pages (browser-floor.ts) in the profile's own context, focused for keys. */
async function openFloors(b: Bench, p: ProfilePages): Promise<Record<FloorName, OpenPage>> {
  const pages = {} as Record<FloorName, OpenPage>;
  for (const name of FLOORS) {
    const context = await b.browser.newContext(p.options);
    pages[name] = { context, page: await withTerminal(context, b.floors.url(name, p.cells, p.fontSize)) };
  }
  return pages;
}

/** pocketmux's page with its local echo turned off, as Settings does: every echo comes the network's way. */
async function openUnpredicted(b: Bench, p: ProfilePages): Promise<OpenPage> {
  const context = await b.browser.newContext(p.options);
  await pairBrowser(context, b.agent);
  await context.addInitScript({ content: `localStorage.setItem(${JSON.stringify(LOCAL_ECHO_STORAGE_KEY)}, 'off');` });
  const page = await withTerminal(context, new URL(`/t/${p.unpredictedTab.id}`, b.agent.url).href);
  return { context, page };
}

/** Keys on the pages that only measure keys: the floors, and pocketmux with no local echo. */
interface KeyOnly {
  floors: Record<FloorName, number[]>;
  unpredicted: number[];
}

async function measureLoad(b: Bench, name: ProfileName, p: ProfilePages, load: Load, samples: Record<PageName, PageSamples>, keyOnly: KeyOnly, alone: number[]): Promise<void> {
  const at = `${name}, ${load}`;
  // Cold starts first, while the panes show a prompt and no other page is attached.
  const prompts = { pocketmux: await clearedPrompt(b, p.tabs.pocketmux), wetty: await clearedPrompt(b, p.tabs.wetty) };
  for (let r = 0; r < BROWSER_BENCH.COLD_ROUNDS; r++) {
    for (const page of orderOf(r)) samples[page].colds.push(await cold(b, p, page, prompts[page]));
    b.progress(`  ${at}: cold start ${r + 1}/${BROWSER_BENCH.COLD_ROUNDS}: ${PAGES.map((pg) => `${pg} prompt at ${(samples[pg].colds.at(-1)?.promptMs ?? 0).toFixed(0)} ms`).join(', ')}`);
  }

  const pages = await openPages(b, p);
  try {
    for (let r = 0; r < BROWSER_BENCH.FLOOD_ROUNDS; r++) {
      for (const page of orderOf(r)) samples[page].floods.push(await flood(b, pages[page].page, p.tabs[page]));
      alone.push(await floodAlone(b, p.floodTab));
      b.progress(
        `  ${at}: flood ${r + 1}/${BROWSER_BENCH.FLOOD_ROUNDS}: ${PAGES.map((pg) => {
          const f = samples[pg].floods.at(-1) as FloodRun;
          return `${pg} ${f.ms.toFixed(0)} ms (longest task ${f.longestTaskMs.toFixed(0)} ms, ${f.drops.dropped} frames dropped, ${(f.received / 1e6).toFixed(1)} MB received in ${f.messages} messages)`;
        }).join(', ')}; tmux alone ${(alone.at(-1) as number).toFixed(0)} ms`,
      );
    }

    const unpredicted = await openUnpredicted(b, p);
    for (const tab of [...PAGES.map((page) => p.tabs[page]), p.unpredictedTab]) {
      await tmux(b.agent.tmuxSocket, 'send-keys', '-t', `=${sessionOf(tab)}:`, 'clear; exec cat', 'Enter');
    }
    await sleep(1000);
    const floors = await openFloors(b, p);
    try {
      const batch = BROWSER_BENCH.KEYS / BROWSER_BENCH.BATCHES;
      const diagnostic = BROWSER_BENCH.DIAGNOSTIC_KEYS / BROWSER_BENCH.BATCHES;
      for (let r = 0; r < BROWSER_BENCH.BATCHES; r++) {
        for (const page of orderOf(r)) await keys(pages[page].page, samples[page], batch);
        await keys(unpredicted.page, { echo: keyOnly.unpredicted, echoFrame: [], drawnLocally: 0 }, diagnostic);
        for (const floor of FLOORS) await keys(floors[floor].page, { echo: keyOnly.floors[floor], echoFrame: [], drawnLocally: 0 }, diagnostic);
        b.progress(
          `  ${at}: keys batch ${r + 1}/${BROWSER_BENCH.BATCHES}: p50 so far ${PAGES.map((pg) => `${pg} ${p50(samples[pg].echo)} ms`).join(', ')} (${samples.pocketmux.drawnLocally} of pocketmux’s drawn locally); pocketmux with no local echo ${p50(keyOnly.unpredicted)} ms; floors ${FLOORS.map((f) => `${f} ${p50(keyOnly.floors[f])} ms`).join(', ')}`,
        );
      }
    } finally {
      await closePages({ ...floors, unpredicted });
    }
  } finally {
    await closePages(pages);
  }
}

/** One profile: its own two tabs (new shells for each load) and wetty server; idle, then busy. */
async function profileBench(b: Bench, name: ProfileName): Promise<ProfileResult> {
  const options = PROFILES[name];
  const viewport = options.viewport as { width: number; height: number };
  const samples = {} as Record<Load, Record<PageName, PageSamples>>;
  const floors = {} as Record<Load, Record<FloorName, number[]>>;
  const unpredicted = {} as Record<Load, number[]>;
  const tmuxAlone = {} as Record<Load, number[]>;
  let setup: ProfileSetup | undefined;
  let wettyViewport = viewport;
  for (const load of LOADS) {
    // `exec cat` ends each load's shells: each load starts on tabs of its own.
    const tabs = { pocketmux: await createTab(b.session), wetty: await createTab(b.session) };
    const unpredictedTab = await createTab(b.session);
    const floodTab = await createTab(b.session);
    const wetty = await WettyServer.start(b.agent, sessionOf(tabs.wetty));
    try {
      const p: ProfilePages = { tabs, unpredictedTab, floodTab, cells: '', wetty, options, fontSize: 0, wettyViewport };
      // A first look: pocketmux's text size, then wetty's viewport for the same cells.
      const first = { pocketmux: await openPocketmux(b, p) } as Record<PageName, OpenPage>;
      p.fontSize = await fontSizeOf(first.pocketmux.page);
      first.wetty = await openWetty(b, p);
      await matchCells(b, p, first.wetty);
      wettyViewport = p.wettyViewport;
      const renderer = { pocketmux: await first.pocketmux.page.evaluate(() => window.__pmBench.renderer()), wetty: await first.wetty.page.evaluate(() => window.__pmBench.renderer()) };
      const found: ProfileSetup = {
        viewport,
        deviceScaleFactor: options.deviceScaleFactor ?? 1,
        cells: { pocketmux: await cells(b, tabs.pocketmux), wetty: await cells(b, tabs.wetty) },
        renderer,
        fontSize: { pocketmux: p.fontSize, wetty: await fontSizeOf(first.wetty.page) },
        wettyViewport: p.wettyViewport,
      };
      await closePages(first);
      p.cells = found.cells.pocketmux;
      setup ??= found;
      b.progress(
        `${name}, ${load}: tmux windows ${found.cells.pocketmux} (pocketmux) / ${found.cells.wetty} (wetty); renderers ${renderer.pocketmux} / ${renderer.wetty}; font ${found.fontSize.pocketmux} / ${found.fontSize.wetty} px; viewports ${viewport.width}×${viewport.height} / ${p.wettyViewport.width}×${p.wettyViewport.height}`,
      );
      samples[load] = { pocketmux: emptySamples(), wetty: emptySamples() };
      floors[load] = { frame: [], local: [] };
      unpredicted[load] = [];
      tmuxAlone[load] = [];
      const measure = () => measureLoad(b, name, p, load, samples[load], { floors: floors[load], unpredicted: unpredicted[load] }, tmuxAlone[load]);
      if (load === 'busy') await whileBusy(measure);
      else await measure();
    } finally {
      await wetty.stop();
    }
  }
  return { setup: setup as ProfileSetup, samples, floors, unpredicted, tmuxAlone };
}

export async function browserBench(progress: (line: string) => void): Promise<BrowserBenchResult> {
  const started = performance.now();
  const agent = await startAgent();
  const floors = await FloorServer.start();
  let browser: Browser | undefined;
  try {
    const session = await localDevice(agent);
    // Random bytes as base64, in 76-character lines as base64(1) writes them (as the terminal part's file).
    const floodFile = join(agent.root, 'random.b64');
    const bytes = BROWSER_BENCH.FLOOD_BYTES;
    writeFileSync(floodFile, `${randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64').slice(0, Math.floor((bytes * 76) / 77)).replace(/(.{76})/g, '$1\n')}\n`);
    const chosen = await chooseChromium();
    browser = await launchBrowser();
    const chromium = { path: chosen.executablePath, version: browser.version(), packaged: chosen.packaged };
    progress(`browser: Chromium ${chromium.version}, ${chromium.packaged ? 'the packaged one (@sparticuz/chromium): the system has none' : 'the system’s'} (${chromium.path})`);
    const pmChunk = basename(xtermAssets().find((f) => f.endsWith('.js')) ?? 'xterm');
    const b: Bench = { agent, session, browser, floors, floodFile, pmChunk, progress, round: 0 };
    const profiles = {} as Record<ProfileName, ProfileResult>;
    for (const name of Object.keys(PROFILES) as ProfileName[]) profiles[name] = await profileBench(b, name);
    return { chromium, chunks: { pocketmux: pmChunk, wetty: WETTY_CHUNK }, profiles, seconds: (performance.now() - started) / 1000 };
  } finally {
    await browser?.close();
    await floors.stop();
    await cleanupAgents();
  }
}
