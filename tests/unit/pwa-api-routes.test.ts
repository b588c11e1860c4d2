import { describe, expect, it } from 'vitest';
import { WEBSOCKET_PATHS } from '../../agent/channels/channel-table.js';
import { apiRouter, listRoutes, type RouteDeps } from '../../agent/http/routes/api-router.js';
import { API_ROUTES, CHANNEL_PATHS } from '../../pwa/shared/api.js';

const AGENT_ROUTES = listRoutes(apiRouter({} as RouteDeps)).map(({ method, path }) => `${method} ${path}`);

describe('the PWA API client', () => {
  it.each(Object.entries(API_ROUTES))('calls %s on a route the agent serves', (_name, route) => {
    expect(AGENT_ROUTES).toContain(`${route.method} ${route.path}`);
  });

  it.each(Object.entries(CHANNEL_PATHS))('opens the %s channel on a path the agent serves', (_name, path) => {
    expect(WEBSOCKET_PATHS).toContain(path);
  });
});
