/**
 * What the app shows for directories named to deceive: a right-to-left override that would
 * turn `report<U+202E>txt.exe` into `reportexe.txt`, and escape sequences. Names, paths and
 * titles spell such characters out, inside isolates, so nothing is reordered or hidden.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkspaceView } from '../../protocol/api.js';
import { ARTIFACTS, DESKTOP, PHONE, pairBrowser, pairPage, useAgentAndBrowser } from '../support/browser.js';
import { api, createTab, localDevice } from '../support/client.js';

const SPOOF = 'report\u202etxt.exe';
const ESCAPES = 'esc\x1b]0;owned\x07';

const env = useAgentAndBrowser();

describe('hostile names in the app', () => {
  it('spells out control and bidi characters in made names and isolates paths, at phone and desktop size', async () => {
    const { agent, browser } = env;
    const phone = await browser.newContext(PHONE);
    const page = await phone.newPage();
    await pairPage(page, { link: agent.link }, 'Phone');
    const session = await localDevice(agent);
    for (const name of [SPOOF, ESCAPES]) {
      const dir = join(agent.home, name);
      mkdirSync(dir);
      const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir });
      expect(ws.status).toBe(201);
      await createTab(session, ws.body.id);
    }
    await page.reload();
    const spoofCard = page.locator('h2', { hasText: 'report\\u202etxt.exe' });
    await spoofCard.waitFor();
    await page.locator('h2', { hasText: 'esc\\x1b]0;owned\\x07' }).waitFor();
    // Paths and titles spell them out too, so the spoof reads as what it is.
    const dirs = await page.locator('.dir bdi').allTextContents();
    expect(dirs).toContain('~/report\\u202etxt.exe');
    await page.locator('.path bdi', { hasText: '~/esc\\x1b]0;owned\\x07' }).waitFor();
    // Every name, path and title on the page (locators reach into the components' shadow roots).
    const shown = await page.locator('bdi').allTextContents();
    expect(shown.length).toBeGreaterThanOrEqual(8);
    for (const text of shown) expect(text).not.toMatch(/[\u202e\x1b\x07]/);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-hostile-names-phone.png'), fullPage: true });

    const desktop = await browser.newContext(DESKTOP);
    await pairBrowser(desktop, agent, 'Desktop');
    const wide = await desktop.newPage();
    await wide.goto(agent.url);
    await wide.locator('h2', { hasText: 'report\\u202etxt.exe' }).waitFor();
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-hostile-names-desktop.png'), fullPage: true });
    await Promise.all([phone.close(), desktop.close()]);
  });
});
