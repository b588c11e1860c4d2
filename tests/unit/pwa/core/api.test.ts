import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WEBSOCKET_PATHS } from '../../../../agent/channels/channel-table.js';
import { apiRouter, listRoutes, type RouteDeps } from '../../../../agent/http/routes/api-router.js';
import { API_ROUTES as PROTOCOL_ROUTES } from '../../../../protocol/routes.js';
import { API_ROUTES, adoptOutside, CHANNEL_PATHS, outsideInput, tabInput } from '../../../../pwa/core/api.js';

// Requests are signed over their target on the page's origin; this browser holds no device key (no IndexedDB here), so none carries a proof.
beforeEach(() => {
  vi.stubGlobal('location', new URL('http://127.0.0.1:8420/'));
});

const AGENT_ROUTES = listRoutes(apiRouter({} as RouteDeps)).map(({ method, path }) => `${method} ${path}`);

describe('the PWA API client', () => {
  it.each(Object.entries(API_ROUTES))('calls %s on a route the agent serves', (_name, route) => {
    expect(AGENT_ROUTES).toContain(`${route.method} ${route.path}`);
  });

  it.each(Object.entries(CHANNEL_PATHS))('opens the %s channel on a path the agent serves', (_name, path) => {
    expect(WEBSOCKET_PATHS).toContain(path);
  });
});

describe("the agent's router", () => {
  const TABLE_ROUTES = Object.values(PROTOCOL_ROUTES).map(({ method, path }) => `${method} ${path}`);

  it.each(AGENT_ROUTES)('serves %s from the protocol table', (route) => {
    expect(TABLE_ROUTES).toContain(route);
  });

  it('serves each route of the table once', () => {
    expect([...AGENT_ROUTES].sort()).toEqual([...TABLE_ROUTES].sort());
  });
});

describe('replies typed into a pane', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("go to a tab by its id, and to a Claude outside pocketmux by its key, each in the route's one parameter", async () => {
    const calls: { url: string; method: string | undefined; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method, body: JSON.parse(String(init.body)) });
      return new Response(null, { status: 204 });
    });
    await tabInput('t1', { text: 'go on', enter: true });
    await outsideInput('outside-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', { text: 'go on', enter: true });
    expect(calls).toEqual([
      { url: '/api/tabs/t1/input', method: 'POST', body: { text: 'go on', enter: true } },
      { url: '/api/outside/outside-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0/input', method: 'POST', body: { text: 'go on', enter: true } },
    ]);
  });
});

describe('adopting a Claude started outside pocketmux', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts to its key, with the workspace only when one is chosen, and resolves with the new tab', async () => {
    const calls: { url: string; method: string | undefined; body: unknown }[] = [];
    const tab = { id: 't9', workspaceId: 'w1', name: null, kind: 'claude', claudeSessionId: '0f1e2d3c', createdAt: '', cwd: '/p', title: null, alive: true };
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(tab), { status: 201, headers: { 'content-type': 'application/json' } });
    });
    expect(await adoptOutside('outside-0f1e2d3c')).toEqual(tab);
    await adoptOutside('outside-0f1e2d3c', { workspaceId: 'w1' });
    expect(calls).toEqual([
      { url: '/api/outside/outside-0f1e2d3c/adopt', method: 'POST', body: {} },
      { url: '/api/outside/outside-0f1e2d3c/adopt', method: 'POST', body: { workspaceId: 'w1' } },
    ]);
  });

  it("fails with the agent's reason when it refuses", async () => {
    const error = 'Claude is working or waiting on an answer: adopt it when its turn has ended';
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error }), { status: 409, headers: { 'content-type': 'application/json' } }));
    await expect(adoptOutside('outside-0f1e2d3c')).rejects.toMatchObject({ status: 409, message: expect.stringContaining('adopt it when its turn has ended') });
  });
});
