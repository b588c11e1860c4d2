import { afterEach, describe, expect, it, vi } from 'vitest';
import { WEBSOCKET_PATHS } from '../../agent/channels/channel-table.js';
import { apiRouter, listRoutes, type RouteDeps } from '../../agent/http/routes/api-router.js';
import { API_ROUTES, CHANNEL_PATHS, outsideInput, tabInput } from '../../pwa/shared/api.js';

const AGENT_ROUTES = listRoutes(apiRouter({} as RouteDeps)).map(({ method, path }) => `${method} ${path}`);

describe('the PWA API client', () => {
  it.each(Object.entries(API_ROUTES))('calls %s on a route the agent serves', (_name, route) => {
    expect(AGENT_ROUTES).toContain(`${route.method} ${route.path}`);
  });

  it.each(Object.entries(CHANNEL_PATHS))('opens the %s channel on a path the agent serves', (_name, path) => {
    expect(WEBSOCKET_PATHS).toContain(path);
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
    await outsideInput('unmanaged-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', { text: 'go on', enter: true });
    expect(calls).toEqual([
      { url: '/api/tabs/t1/input', method: 'POST', body: { text: 'go on', enter: true } },
      { url: '/api/outside/unmanaged-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0/input', method: 'POST', body: { text: 'go on', enter: true } },
    ]);
  });
});
