/**
 * The desktop split in every engine of ENGINES (Chromium, and WebKit: Safari on a Mac is
 * WebKit too), at 1280×800 against a real agent and tmux: a tab opened on a wide screen puts the
 * list beside it as a 360 px sidebar, a second tab opens beside the first from its pane's
 * menu, and each pane's terminal is attached to its own tmux session and draws its prompt,
 * both at once.
 * Screenshots: test-artifacts/engines-<engine>-split-desktop.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, startAgent, tmux } from '../support/agent.js';
import { ARTIFACTS } from '../support/browser.js';
import { api, localDevice, localPairing, type Session } from '../support/client.js';
import { ENGINES, type Engine, type EnginePage, openEngine } from '../support/engines.js';
import { eventually } from '../support/eventually.js';
import { decodePng, inkIn } from '../support/png.js';

let agent: AgentHandle;
let session: Session;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  agent = await startAgent();
  session = await localDevice(agent);
});

afterAll(cleanupAgents);

describe.each(ENGINES)('in %s', (name) => {
  let engine: Engine;
  let desktop: EnginePage;
  let first: TabView;
  let second: TabView;
  const pane = (tab: TabView) => `pm-terminal-view[data-tab-id="${tab.id}"]`;
  const clients = async (tab: TabView) => (await tmux(agent.tmuxSocket, 'list-clients', '-t', `=pm_${tab.workspaceId}_${tab.id}`)).trim().split('\n').filter(Boolean).length;

  /** How much is drawn in the top row band of each pane's screen, first then second (either renderer: read from pixels). */
  async function inkOfPanes(): Promise<number[]> {
    const boxes = [];
    for (const tab of [first, second]) {
      const r = await desktop.box({ css: `${pane(tab)} >>> .xterm-screen` });
      boxes.push({ x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) });
    }
    const image = decodePng(await desktop.screenshot());
    return boxes.map((box) => {
      // The screen's background: its bottom right corner, where nothing is written yet.
      const at = ((box.y + box.height - 2) * image.width + box.x + box.width - 2) * 4;
      const background: [number, number, number] = [image.rgba[at] as number, image.rgba[at + 1] as number, image.rgba[at + 2] as number];
      return inkIn(image, { ...box, height: Math.min(box.height, 40) }, background);
    });
  }

  beforeAll(async () => {
    engine = await openEngine(name);
    desktop = await engine.newPage('desktop');
    await desktop.goto((await localPairing(agent)).url);
    await desktop.click({ role: 'button', name: 'Pair' });
    await desktop.waitFor({ role: 'button', name: 'Settings' });
    const ws = (await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: agent.home, name: `${name} desk` })).body;
    const tab = async (tabName: string) => (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.id, kind: 'shell', name: tabName })).body;
    first = await tab(`${name} alpha`);
    second = await tab(`${name} beta`);
  }, 90_000);

  afterAll(async () => {
    await engine?.close();
  });

  it('puts the list beside an open tab, and a second tab beside the first, each attached to its own session', async () => {
    await desktop.goto(new URL(`/t/${first.id}`, agent.url).href);
    await desktop.waitFor({ css: `${pane(first)} >>> .xterm-screen` });
    const sidebar = await desktop.box({ css: 'pm-session-list' });
    expect({ x: sidebar.x, width: sidebar.width }).toEqual({ x: 0, width: 360 });
    await desktop.waitFor({ role: 'button', name: new RegExp(`^Open ${name} beta`) });

    await desktop.click({ role: 'button', name: 'Open another tab beside', within: pane(first) });
    await desktop.click({ role: 'button', name: new RegExp(`${name} beta`), within: '[role="dialog"]' });
    await desktop.waitFor({ css: `${pane(second)} >>> .xterm-screen` });
    await eventually(async () => (await desktop.url()).endsWith(`/t/${second.id}`), 10_000, 'the second tab in the address');
    const [a, b] = [await desktop.box({ css: pane(first) }), await desktop.box({ css: pane(second) })];
    expect(a.x).toBeGreaterThanOrEqual(360);
    expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
    expect(Math.abs(a.width - b.width)).toBeLessThan(4);
    // Each pane is a tmux client of its own tab's session, and draws its shell's prompt.
    await eventually(async () => (await clients(first)) === 1 && (await clients(second)) === 1, 10_000, 'a client on each session');
    await eventually(async () => (await inkOfPanes()).every((ink) => ink > 0), 15_000, 'a prompt drawn in each pane', async () => `ink: ${(await inkOfPanes()).join(', ')}`);
    // No connection note (each pane's header has one, the list another) says it is still connecting.
    const notes = await desktop.evaluate(() => {
      const labels = (root: Document | ShadowRoot): string[] =>
        [...root.querySelectorAll('*')].flatMap((el) => [...(el.localName === 'pm-connection-note' ? [el.getAttribute('label') ?? ''] : []), ...(el.shadowRoot ? labels(el.shadowRoot) : [])]);
      return labels(document);
    });
    expect(notes.length).toBeGreaterThanOrEqual(2);
    expect(notes.filter((label) => label !== '')).toEqual([]);
    expect(await desktop.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await desktop.screenshot(join(ARTIFACTS, `engines-${name}-split-desktop.png`));
  });
});
