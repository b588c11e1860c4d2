import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { outsideSessionKey } from '../../../../protocol/hook-contract.js';
import { API_ROUTES } from '../../../../pwa/core/api.js';
import { sessionRoutes } from '../../../../pwa/core/session-routes.js';

const OUTSIDE = outsideSessionKey('0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0');

describe('the routes that drive a session, by its key', () => {
  const calls: { url: string; method: string | undefined; body: unknown }[] = [];

  beforeEach(() => {
    calls.length = 0;
    // Requests are signed over their target on the page's origin; no device key here, so none carries a proof.
    vi.stubGlobal('location', new URL('http://127.0.0.1:8420/'));
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method, body: JSON.parse(String(init.body)) });
      return new Response(null, { status: 204 });
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("types and presses keys in a tab through the tabs' routes", async () => {
    const tab = sessionRoutes('t1');
    expect(tab.kind).toBe('tab');
    await tab.input({ text: 'go on', enter: true });
    await tab.key({ key: 'Escape' });
    expect(calls).toEqual([
      { url: '/api/tabs/t1/input', method: 'POST', body: { text: 'go on', enter: true } },
      { url: '/api/tabs/t1/keys', method: 'POST', body: { key: 'Escape' } },
    ]);
    expect(tab.upload).toBe(API_ROUTES.tabUpload);
  });

  it('types and presses keys in a Claude started outside pocketmux through the outside routes, by its whole key', async () => {
    const outside = sessionRoutes(OUTSIDE);
    expect(outside.kind).toBe('outside');
    await outside.input({ text: 'go on', enter: true });
    await outside.key({ key: 'Escape' });
    expect(calls).toEqual([
      { url: `/api/outside/${OUTSIDE}/input`, method: 'POST', body: { text: 'go on', enter: true } },
      { url: `/api/outside/${OUTSIDE}/keys`, method: 'POST', body: { key: 'Escape' } },
    ]);
    expect(outside.upload).toBe(API_ROUTES.outsideUpload);
  });

  it('switches the permission mode of a tab and of an outside session, each by its own route', async () => {
    await sessionRoutes('t1').mode({ mode: 'plan' });
    await sessionRoutes(OUTSIDE).mode({ mode: 'bypass', confirm: true });
    expect(calls).toEqual([
      { url: '/api/tabs/t1/mode', method: 'POST', body: { mode: 'plan' } },
      { url: `/api/outside/${OUTSIDE}/mode`, method: 'POST', body: { mode: 'bypass', confirm: true } },
    ]);
  });
});
