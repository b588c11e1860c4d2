/**
 * The terminal never stays blank, at the pixel ratio of a desktop (1) and of phones (2 and 3),
 * with WebGL (SwiftShader) and without: text typed into a real shell is found in a screenshot of
 * the terminal, as pixels that differ from the background where the text is, not only in
 * xterm's buffer. Headless Chromium with an emulated scale factor sizes the WebGL canvas wrong
 * (its device-pixel box comes in CSS pixels), as a GPU could on a phone: the app must notice
 * and draw with the DOM renderer.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { sessionNameFor } from '../../agent/tmux/commands.js';
import { tmux } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, typeCommand, useAgentAndBrowser } from '../support/browser.js';
import { createTab, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { decodePng, inkIn, type Pixels } from '../support/png.js';

const env = useAgentAndBrowser();
let session: Session;
let withWebgl: Browser;

beforeAll(async () => {
  session = await localDevice(env.agent);
  withWebgl = await launchBrowser([], { webgl: true });
});

afterAll(async () => {
  await withWebgl?.close();
});

/** What the console says when the app gives WebGL up. */
const GIVEN_UP = 'drawing the terminal with the DOM renderer from here';

/** The size tmux gives the tab's window: the terminal's, in cells. */
async function cells(tab: TabView): Promise<{ cols: number; rows: number }> {
  const out = await tmux(env.agent.tmuxSocket, 'display-message', '-p', '-t', `=${sessionNameFor(tab.workspaceId, tab.id)}:`, '#{window_width} #{window_height}');
  const [cols, rows] = out.trim().split(' ').map(Number) as [number, number];
  return { cols, rows };
}

function renderer(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector<HTMLElement>('.pm-term-host')?.dataset.renderer ?? '');
}

interface RowInk {
  /** Pixels of ink over the marker's cells. */
  marker: number;
  /** Pixels of ink over the cells just past it, which hold nothing once the marker is printed. */
  beside: number;
}

/**
 * The ink on the screen's first row, over the marker's cells and over the cells just past
 * them, in a screenshot of the terminal as the page shows it (device pixels). The background is
 * what the screen shows in its middle row, which the cleared screen leaves empty.
 */
function firstRowInk(image: Pixels, size: { cols: number; rows: number }, markerLength: number): RowInk {
  const cell = { width: image.width / size.cols, height: image.height / size.rows };
  const middle = (Math.floor(size.rows / 2) * cell.height + cell.height / 2) * image.width + image.width / 2;
  const at = Math.floor(middle) * 4;
  const background: [number, number, number] = [image.rgba[at] as number, image.rgba[at + 1] as number, image.rgba[at + 2] as number];
  const box = (from: number, to: number) => ({ x: from * cell.width, y: 0, width: (to - from) * cell.width, height: cell.height });
  return { marker: inkIn(image, box(0, markerLength), background), beside: inkIn(image, box(markerLength + 2, markerLength + 12), background) };
}

/**
 * Opens the tab's terminal and waits until the shell's prompt is drawn: keys typed before the
 * terminal's socket is open are dropped, not replayed, and the prompt comes through that socket.
 */
async function openWithPrompt(page: Page, tab: TabView): Promise<void> {
  await page.goto(new URL(`/t/${tab.id}`, env.agent.url).href);
  await page.locator('.pm-term-host .xterm-screen').waitFor();
  await eventually(
    async () => {
      const image = decodePng(await page.locator('.pm-term-host .xterm-screen').screenshot());
      return firstRowInk(image, await cells(tab), 2).marker > 0;
    },
    20_000,
    `the shell's prompt drawn (renderer ${await renderer(page)})`,
  );
}

interface Screen {
  name: string;
  options: BrowserContextOptions;
}

/**
 * Style recalculations a page at rest may make in two seconds: a few for what the app updates
 * now and then (a clock, a status), none a frame.
 */
const STILL_RECALCS = 6;

const ON_A_DESKTOP: Screen = { name: 'a desktop at ratio 1', options: DESKTOP };
const ON_PHONES: Screen[] = [1, 2, 3].map((ratio) => ({ name: `a phone at ratio ${ratio}`, options: { ...PHONE, deviceScaleFactor: ratio } }));

/**
 * Each screen is a context of its own, paired anew: a context's `deviceScaleFactor` is what a
 * phone's browser starts with, and the failure it shows (the WebGL canvas sized in CSS pixels)
 * does not come when a page already open is switched to another ratio.
 */
describe.each([
  { drawing: 'with WebGL (SwiftShader)', webgl: true, screens: [ON_A_DESKTOP, ...ON_PHONES] },
  // The DOM renderer at ratio 2 is what the other browser suites see on their phones.
  { drawing: 'without WebGL', webgl: false, screens: [ON_A_DESKTOP, ON_PHONES[2] as Screen] },
])('the terminal $drawing', ({ webgl, screens }) => {
  it.each(screens)('draws what is typed into it on $name', async (screen) => {
    const context = await (webgl ? withWebgl : env.browser).newContext(screen.options);
    try {
      await pairBrowser(context, env.agent);
      const page = await context.newPage();
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'warning') warnings.push(m.text());
      });
      const tab = await createTab(session);
      await openWithPrompt(page, tab);
      const marker = `MARK-${randomBytes(4).toString('hex')}`;
      // The typed line is longer than the marker: until the shell has cleared the screen and
      // printed it, the cells past the marker hold ink.
      await typeCommand(page, `clear; printf 'MARK-%s\\n' ${marker.slice(5)}`);
      const size = await cells(tab);
      let shot: Buffer = Buffer.alloc(0);
      const name = `e2e-terminal-pixels-${webgl ? 'webgl' : 'dom'}-${screen.name.replaceAll(' ', '-')}.png`;
      try {
        const ink = await eventually(
          async () => {
            shot = await page.locator('.pm-term-host .xterm-screen').screenshot();
            const found = firstRowInk(decodePng(shot), size, marker.length);
            if (found.marker < marker.length * 10 || found.beside > 0) throw new Error(`ink over the marker ${found.marker} px, past it ${found.beside} px`);
            return found;
          },
          20_000,
          `${marker} drawn alone on the first row (renderer ${await renderer(page)})`,
        );
        expect(ink.beside).toBe(0);
        expect(ink.marker).toBeGreaterThanOrEqual(marker.length * 10);
        // The whole screen too, to look at: the terminal with its text among the app's chrome.
        await page.screenshot({ path: join(ARTIFACTS, name.replace(/\.png$/, '-page.png')) });
      } finally {
        writeFileSync(join(ARTIFACTS, name), shot);
      }
      // Whichever renderer draws, the page says so once at most; a working WebGL is kept.
      expect(warnings.filter((w) => w.includes(GIVEN_UP)).length).toBeLessThanOrEqual(1);
      if (!webgl) expect(await renderer(page)).toBe('dom');
      if (webgl && screen.options.deviceScaleFactor === 1) expect(await renderer(page)).toBe('webgl');
    } finally {
      await context.close();
    }
  });
});

/** How often the page recalculated its styles over a while: each frame a page draws needs one. */
async function styleRecalcsOver(page: Page, ms: number): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Performance.enable');
    const count = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'RecalcStyleCount')?.value ?? Number.NaN;
    const before = await count();
    await new Promise((resolve) => setTimeout(resolve, ms));
    return (await count()) - before;
  } finally {
    await cdp.detach();
  }
}

/**
 * A focused terminal with nothing happening draws nothing: no frame every 16 ms for a cursor's
 * blink, which on a phone costs battery and makes each key wait for a frame clock already
 * running. xterm's DOM renderer blinks with an endless CSS animation (about 60 style
 * recalculations a second); the app's cursor is steady, and one a program asks to blink stays
 * steady there too, still drawn.
 */
describe.each([
  { drawing: 'without WebGL', webgl: false },
  { drawing: 'with WebGL (SwiftShader)', webgl: true },
])('a focused terminal at rest $drawing', ({ webgl }) => {
  it('leaves the page still, even when a program asks for a blinking cursor', async () => {
    const context = await (webgl ? withWebgl : env.browser).newContext(DESKTOP);
    try {
      await pairBrowser(context, env.agent);
      const page = await context.newPage();
      const tab = await createTab(session);
      await openWithPrompt(page, tab);
      expect(await renderer(page)).toBe(webgl ? 'webgl' : 'dom');
      await page.locator('.pm-term-host .xterm-helper-textarea').focus();
      expect(await styleRecalcsOver(page, 2000)).toBeLessThanOrEqual(STILL_RECALCS);

      // A blinking block (DECSCUSR 1), asked for by the shell: tmux passes it to the page.
      await typeCommand(page, "printf '\\033[1 q'; echo asked");
      if (webgl) {
        // WebGL blinks by a timer, a frame each half second, and draws no cursor element.
        expect(await styleRecalcsOver(page, 2000)).toBeLessThanOrEqual(STILL_RECALCS);
        return;
      }
      const cursor = page.locator('.pm-term-host .xterm-rows .xterm-cursor');
      await eventually(async () => (await cursor.getAttribute('class'))?.includes('xterm-cursor-blink'), 10_000, 'the blinking cursor the program asked for');
      expect(await styleRecalcsOver(page, 2000)).toBeLessThanOrEqual(STILL_RECALCS);
      // Steady, and drawn: the cursor's cell is the cursor's colour, not the background.
      const box = await cursor.boundingBox();
      if (!box) throw new Error('the cursor has no box');
      const image = decodePng(await page.screenshot({ clip: box }));
      const centre = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 4;
      const cursorColour = await page.evaluate(() => getComputedStyle(document.querySelector('.pm-term-host .xterm-rows .xterm-cursor') as Element).backgroundColor);
      expect(cursorColour).not.toBe('rgba(0, 0, 0, 0)');
      const [r, g, b] = [image.rgba[centre], image.rgba[centre + 1], image.rgba[centre + 2]];
      expect(`rgb(${r}, ${g}, ${b})`).toBe(cursorColour);
    } finally {
      await context.close();
    }
  });
});
