/**
 * Layout shift in real Chromium against a real agent: the page must not jump when its data
 * arrives (issue 14). Chromium reports every shift of laid-out content as a `layout-shift`
 * performance entry; an observer installed before the page's own scripts run collects them,
 * with the nodes that moved, on a phone and on a desktop.
 *
 * Three moments are measured: the list opening on a paired device that has several
 * workspaces, tabs and inbox cards; data arriving while the list is open (a new approval
 * card, a status change, a tab added from outside); and a Claude session's timeline opening
 * until its transcript is shown. The cards come without Claude, as in themes-a11y.test.ts:
 * the agent's installed hook script reports Claude sessions started outside pocketmux.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceView } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, pairedPhone } from '../support/browser.js';
import { api, createTab, type Session } from '../support/client.js';
import { type OutsideFixture, outsideFixture } from '../support/hook-script.js';
import { OutsideClaudes } from '../support/outside-claudes.js';
import { TmuxServer } from '../support/tmux-server.js';

/**
 * The most layout shift a view may have while its data arrives. Web Vitals calls a page
 * "good" below 0.1; "no layout shift" is meant strictly, so the bar is half that.
 */
const MAX_SHIFT = 0.05;

/** How long no shift has to be reported before the page counts as still. */
const STILL_MS = 1_000;

type Size = 'phone' | 'desktop';
const SIZES: Record<Size, BrowserContextOptions> = { phone: PHONE, desktop: DESKTOP };

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface ShiftSource {
  node: string;
  previous: Rect;
  current: Rect;
}

interface Shift {
  value: number;
  time: number;
  sources: ShiftSource[];
}

interface ShiftWindow {
  shifts?: Shift[];
  lastShiftAt?: number;
}

let agent: AgentHandle;
let browser: Browser;
let session: Session;
let workspaces: WorkspaceView[] = [];
const own = TmuxServer.named('own');
/** The Claudes outside pocketmux whose cards and rows are measured. */
let claudes: OutsideClaudes;
/** The hook environment in the pane of the session whose status changes. */
let workingEnv: Record<string, string>;

let reviewed: OutsideFixture;
let asking: OutsideFixture;
let working: OutsideFixture;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  reviewed = outsideFixture(env.home, 'api-server');
  asking = outsideFixture(env.home, 'web-app');
  working = outsideFixture(env.home, 'docs-site');
  [agent, browser] = await Promise.all([startAgent({ reuse: env }), launchBrowser()]);

  ({ session } = await pairedPhone(browser, agent));
  claudes = new OutsideClaudes(agent, session, own);

  // Several workspaces, each with a couple of shell tabs.
  for (const name of ['frontend', 'backend']) {
    const dir = join(env.home, 'code', name);
    mkdirSync(dir, { recursive: true });
    const created = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir, name });
    expect(created.status).toBe(201);
  }
  workspaces = (await api<{ workspaces: WorkspaceView[] }>(session, 'GET', '/api/workspaces')).body.workspaces;
  for (const ws of workspaces) {
    await createTab(session, ws.id);
    await createTab(session, ws.id);
  }

  // A claude that finished its turn: a review card.
  const inPane = await claudes.standIn(reviewed);
  await claudes.hook(reviewed, 'SessionStart', inPane);
  await claudes.hook(reviewed, 'UserPromptSubmit', inPane);
  await claudes.hook(reviewed, 'Stop', inPane, { last_assistant_message: 'The API server is refactored: **3 files** changed, tests pass.' });
  // A claude that has just started, whose status changes while the list is open.
  workingEnv = await claudes.standIn(working);
  await claudes.hook(working, 'SessionStart', workingEnv);
  // A claude asking to run a command: an approval card.
  await claudes.askApproval(asking, 'npm run check-web');
}, 90_000);

afterAll(async () => {
  claudes?.stop();
  await browser?.close();
  await cleanupAgents();
  await own.stop();
});

/**
 * A paired browser at `size` whose pages record every layout shift from their first byte on,
 * the moved nodes described at the time of the shift (they may be gone by the time it is read).
 * Shifts right after input do not count, as in Web Vitals: the person caused them.
 */
async function measuredContext(size: Size): Promise<BrowserContext> {
  const context = await browser.newContext(SIZES[size]);
  await pairBrowser(context, agent, `Measured ${size}`);
  await context.addInitScript(() => {
    const w = window as unknown as ShiftWindow;
    w.shifts = [];
    w.lastShiftAt = performance.now();
    const describe = (node: Node | null): string => {
      if (!node) return '(a node since removed)';
      if (!(node instanceof Element)) return `text "${(node.textContent ?? '').trim().slice(0, 40)}"`;
      const hosts: string[] = [];
      for (let root = node.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) hosts.unshift(root.host.localName);
      const cls = node.getAttribute('class')?.trim().replace(/\s+/g, '.');
      const text = (node.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `${[...hosts, `${node.localName}${cls ? `.${cls}` : ''}`].join(' > ')}${text ? ` "${text}"` : ''}`;
    };
    const rect = (r: DOMRectReadOnly): Rect => ({ x: r.x, y: r.y, width: r.width, height: r.height });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Array<{ node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> }>) {
        if (entry.hadRecentInput) continue;
        w.shifts?.push({
          value: entry.value,
          time: Math.round(entry.startTime),
          sources: entry.sources.map((s) => ({ node: describe(s.node), previous: rect(s.previousRect), current: rect(s.currentRect) })),
        });
        w.lastShiftAt = performance.now();
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return context;
}

/**
 * Waits until the page is still: no shift reported for a while, through rendered frames. The
 * data having arrived is waited for first, by what it shows; this only lets what follows it
 * (a late font, an image, a second render) have its chance to move something.
 */
async function waitUntilStill(page: Page): Promise<void> {
  await page.waitForFunction(
    (still) =>
      new Promise<boolean>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - ((window as unknown as ShiftWindow).lastShiftAt ?? 0) >= still))),
      ),
    STILL_MS,
    { timeout: 15_000, polling: 100 },
  );
}

async function shiftsOf(page: Page): Promise<Shift[]> {
  return page.evaluate(() => (window as unknown as ShiftWindow).shifts ?? []);
}

function total(shifts: Shift[]): number {
  return shifts.reduce((sum, s) => sum + s.value, 0);
}

const round = (n: number) => Math.round(n);

/** The shifts as a person reads them in a failure: each value and what it moved, from where to where. */
function describeShifts(shifts: Shift[]): string {
  if (shifts.length === 0) return 'no shift';
  return shifts
    .map((s) => {
      const moved = s.sources.map((m) => `    ${m.node}: (${round(m.previous.x)},${round(m.previous.y)} ${round(m.previous.width)}×${round(m.previous.height)}) → (${round(m.current.x)},${round(m.current.y)} ${round(m.current.width)}×${round(m.current.height)})`);
      return [`  ${s.value.toFixed(4)} at ${s.time} ms`, ...moved].join('\n');
    })
    .join('\n');
}

/** Layout shift of `shifts` summed, with every shift and its nodes in the message when over the bar. */
function expectLittleShift(what: string, shifts: Shift[]): void {
  const cls = total(shifts);
  console.info(`${what}: layout shift ${cls.toFixed(4)}`);
  expect(cls, `${what}: layout shift ${cls.toFixed(4)}\n${describeShifts(shifts)}`).toBeLessThan(MAX_SHIFT);
}

/**
 * An insertion may push down what is below it: a card or a row that appears must go
 * somewhere, and keeping empty space for one that may never come would be worse. What it may
 * not do is move anything that lies wholly above where it appears, or move anything sideways
 * or up: those are shifts a person reading the top of the list would see. So a moved node is
 * fair only if it reached below the new element's top edge and went straight down, or out of
 * the screen at the bottom (Chromium then reports its new place as an empty rectangle, as the
 * screen clips it).
 */
function unfairShifts(shifts: Shift[], insertedTop: number): Shift[] {
  const offScreen = (r: Rect) => r.width === 0 && r.height === 0;
  const fair = (m: ShiftSource) =>
    m.previous.y + m.previous.height > insertedTop && (offScreen(m.current) || (m.current.y > m.previous.y && Math.abs(m.previous.x - m.current.x) < 1));
  return shifts.filter((s) => !s.sources.every(fair));
}

/** Opens the list and waits for what its data shows: the cards, the workspaces' rows, the sessions outside. */
async function openList(page: Page): Promise<void> {
  await page.goto(agent.url);
  await page.locator('pm-inbox pm-approval-card').getByText('npm run check-web').first().waitFor();
  await page.locator('pm-inbox pm-review-card').getByRole('textbox', { name: 'Reply to Claude' }).waitFor();
  await page.locator('pm-tab-row').nth(5).waitFor();
  await page.locator(`pm-outside-row[data-key="${working.key}"]`).waitFor();
  await page.locator('pm-add-workspace').waitFor();
  await waitUntilStill(page);
}

describe.each(['phone', 'desktop'] as const)('on a %s', (size) => {
  it('opens the list with its workspaces, tabs and inbox cards without moving anything', async () => {
    const context = await measuredContext(size);
    const page = await context.newPage();
    await openList(page);
    await page.screenshot({ path: join(ARTIFACTS, `e2e-layout-shift-list-${size}.png`), fullPage: true });
    expectLittleShift(`the list opening on a ${size}`, await shiftsOf(page));
    await context.close();
  });

  it('keeps what is above a new card or a new tab in place, and moves nothing when a status changes', async () => {
    const context = await measuredContext(size);
    const page = await context.newPage();
    await openList(page);
    const seen = async () => (await shiftsOf(page)).length;

    // A new approval card, at the top of the inbox.
    let before = await seen();
    const who = outsideFixture(agent.home, `late-${size}`);
    await claudes.askApproval(who, `npm run late-${size}`);
    const card = page.locator('pm-inbox pm-approval-card').filter({ hasText: `npm run late-${size}` });
    await card.waitFor();
    await waitUntilStill(page);
    const cardTop = (await card.boundingBox())?.y ?? 0;
    const cardShifts = (await shiftsOf(page)).slice(before);
    expect(unfairShifts(cardShifts, cardTop), `a new approval card moved what was above it or resized something\n${describeShifts(cardShifts)}`).toEqual([]);

    // A status change: the session's row says it is working. Nothing may move at all.
    before = await seen();
    // Shifts are only counted on screen, so what is watched is brought there first.
    const row = page.locator(`pm-outside-row[data-key="${working.key}"]`);
    await row.scrollIntoViewIfNeeded();
    await claudes.hook(working, 'UserPromptSubmit', workingEnv);
    await row.locator('pm-status-dot[state="busy"]').waitFor();
    await waitUntilStill(page);
    const statusShifts = (await shiftsOf(page)).slice(before);
    // One movement is allowed: along the row's own second line, the words after the state
    // ("Idle" becoming "Working…") move with its length. Keeping room for the longest state
    // instead would cut the path short on a phone for good. Nothing else may move, not a
    // button, not another row.
    const line = await row.locator('.secondary-text').boundingBox();
    const alongLine = (m: ShiftSource) => line !== null && Math.abs(m.previous.y - m.current.y) < 1 && m.previous.y >= line.y - 1 && m.previous.y + m.previous.height <= line.y + line.height + 1;
    const otherShifts = statusShifts.filter((s) => !s.sources.every(alongLine));
    expect(otherShifts, `a status change moved something\n${describeShifts(statusShifts)}`).toEqual([]);

    // A tab added from outside (REST), and its row's title filled in as its shell starts: the
    // wait for stillness takes in that update too.
    await page.locator('pm-tab-row').first().scrollIntoViewIfNeeded();
    before = await seen();
    const added = await createTab(session, workspaces[0]?.id);
    const newRow = page.locator(`pm-tab-row[data-tab-id="${added.id}"]`);
    await newRow.waitFor();
    await waitUntilStill(page);
    const rowTop = (await newRow.boundingBox())?.y ?? 0;
    const tabShifts = (await shiftsOf(page)).slice(before);
    expect(unfairShifts(tabShifts, rowTop), `a new tab moved what was above it or resized something\n${describeShifts(tabShifts)}`).toEqual([]);
    console.info(`data arriving on a ${size}: card ${total(cardShifts).toFixed(4)}, status ${total(statusShifts).toFixed(4)}, new tab ${total(tabShifts).toFixed(4)}`);
    await page.screenshot({ path: join(ARTIFACTS, `e2e-layout-shift-arrivals-${size}.png`), fullPage: true });
    await context.close();
  });

  it("opens a Claude session's timeline without moving its entries as they arrive", async () => {
    const context = await measuredContext(size);
    const page = await context.newPage();
    // The asking session's: opening the reviewed one's would take its review card off the list.
    await page.goto(new URL(`/t/${asking.key}/timeline`, agent.url).href);
    await page.locator('pm-timeline-view').getByText('please run it').first().waitFor({ timeout: 20_000 });
    await waitUntilStill(page);
    await page.screenshot({ path: join(ARTIFACTS, `e2e-layout-shift-timeline-${size}.png`) });
    expectLittleShift(`the timeline opening on a ${size}`, await shiftsOf(page));
    await context.close();
  });
});
