/**
 * The last-known state when the agent cannot be reached, in every engine of ENGINES
 * (Chromium and WebKit), at phone size: the list seen is kept in IndexedDB; with the agent
 * stopped, a reload is served by the service worker and shows that list read-only under an
 * offline bar that retries by itself; when the agent is back, the live list takes over without
 * a reload. Each engine has an agent of its own (it is stopped and started again).
 * Screenshots: test-artifacts/engines-<engine>-offline-phone.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, startAgent } from '../support/agent.js';
import { ARTIFACTS } from '../support/browser.js';
import { createTab, localDevice, localPairing } from '../support/client.js';
import { ENGINES, type Engine, type EnginePage, openEngine, workerActivated } from '../support/engines.js';
import { eventually } from '../support/eventually.js';

beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));
afterAll(cleanupAgents);

/** In the page: the tab ids of the list the app saved in IndexedDB, or null before it saved one. */
function savedTabs(): Promise<string[] | null> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('pocketmux-offline');
    open.onerror = () => reject(open.error);
    // No database yet: opening must not make one the app would then find empty.
    open.onupgradeneeded = () => {
      open.transaction?.abort();
      resolve(null);
    };
    open.onsuccess = () => {
      const db = open.result;
      const get = db.transaction('lists', 'readonly').objectStore('lists').get('snapshot');
      get.onerror = () => reject(get.error);
      get.onsuccess = () => {
        db.close();
        const list = get.result as { workspaces: { tabs: { id: string }[] }[] } | undefined;
        resolve(list ? list.workspaces.flatMap((w) => w.tabs.map((t) => t.id)) : null);
      };
    };
  });
}

describe.each(ENGINES)('in %s', (name) => {
  let agent: AgentHandle;
  let engine: Engine;
  let phone: EnginePage;
  let tab: TabView;
  const row = (offline: boolean) => `${offline ? 'pm-offline-view' : 'pm-session-list:not([offline])'} >>> pm-tab-row[data-tab-id="${tab.id}"]`;
  const bar = 'pm-offline-view >>> pm-session-list >>> pm-offline-bar';

  beforeAll(async () => {
    [agent, engine] = await Promise.all([startAgent(), openEngine(name)]);
    phone = await engine.newPage('phone');
    await phone.goto((await localPairing(agent)).url);
    await phone.click({ role: 'button', name: 'Pair' });
    await phone.waitFor({ role: 'button', name: 'Settings' });
    tab = await createTab(await localDevice(agent));
  }, 90_000);

  afterAll(async () => {
    await engine?.close();
  });

  it('shows the last list seen, read-only, with the agent stopped, and retries by itself', async () => {
    await phone.waitFor({ css: row(false) });
    await eventually(async () => (await phone.evaluate(savedTabs))?.includes(tab.id), 15_000, 'the list saved in IndexedDB');
    // The worker is activated, so it serves the app's files when the agent is gone.
    await workerActivated(phone);

    await agent.stop();
    await phone.reload();
    expect(await phone.text({ role: 'status', name: /.*/, within: bar })).toMatch(/^Offline · last updated \d/);
    await phone.waitFor({ css: row(true) });
    // Read-only: the tab's actions are not offered.
    expect(await phone.has({ role: 'button', name: 'New tab' })).toBe(false);
    await phone.screenshot(join(ARTIFACTS, `engines-${name}-offline-phone.png`));

    await phone.click({ role: 'button', name: 'Retry now', within: bar });
    await eventually(async () => /Can.t reach pocketmux; retrying\./.test(await phone.text({ css: bar })), 15_000, 'the retry to fail');
    expect(await phone.has({ css: 'pm-unreachable-screen' })).toBe(false);
  }, 120_000);

  it('hands over to the live list when the agent is back, without a reload', async () => {
    await phone.evaluate(() => {
      (window as unknown as { notReloaded?: boolean }).notReloaded = true;
    });
    agent = await startAgent({ reuse: agent, args: ['--port', String(agent.port)] });
    // No `online` event: the backoff finds the agent.
    await phone.waitFor({ css: row(false) }, 30_000);
    await eventually(async () => !(await phone.has({ css: 'pm-offline-bar' })) && !(await phone.has({ css: bar })), 10_000, 'the offline bar gone');
    expect(await phone.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await phone.has({ role: 'button', name: 'New tab' })).toBe(true);
  }, 120_000);
});
