/**
 * Every REST route and WebSocket path, enumerated from the router and the upgrade table
 * themselves (a new route cannot be forgotten), tried without a credential, with a revoked
 * one, from a foreign Origin, and under a rebinding Host: each must refuse.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevicesResponse } from '../../protocol/api.js';
import { WEBSOCKET_PATHS } from '../../agent/channels/channel-table.js';
import { apiRouter, listRoutes, type RouteDeps } from '../../agent/http/routes/api-router.js';
import { type AgentHandle, cleanupAgents, startAgent } from '../support/agent.js';
import { api, claim, createTab, deviceHeaders, deviceSocketUrl, pairAnother, type Session, upgradeStatus } from '../support/client.js';

/** Reading the route table only: building the router registers routes and calls no dependency. */
const ROUTES = listRoutes(apiRouter({} as RouteDeps)).map(({ method, path }) => [method, `/api${path.replace(/:id/g, 'x-1')}`] as const);
/**
 * The only routes that work without a credential: pairing is how a device gets one, and its
 * `GET` says how long a pairing works, the agent's setting and nothing else.
 */
const PUBLIC = new Set(['POST /api/pair', 'GET /api/pair']);

let agent: AgentHandle;
let owner: Session;
let revoked: Session;
let tabId: string;

beforeAll(async () => {
  agent = await startAgent();
  owner = await claim(agent, 'owner');
  revoked = await pairAnother(agent, owner, 'revoked');
  const devices = await api<DevicesResponse>(owner, 'GET', '/api/devices');
  await api(owner, 'DELETE', `/api/devices/${devices.body.devices.find((d) => d.name === 'revoked')?.id}`);
  tabId = (await createTab(owner)).id;
});
afterAll(cleanupAgents);

function send(method: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
    const req = request(new URL(path, agent.url), { method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function upgrade(path: string, headers: Record<string, string>, proofOf?: Session): Promise<number> {
  return upgradeStatus(proofOf ? deviceSocketUrl(proofOf, path) : `${agent.url.replace(/^http/, 'ws')}${path.slice(1)}`, headers);
}

describe('every route refuses', () => {
  it('knows the routes it guards', () => {
    expect(ROUTES.length).toBeGreaterThan(15);
    expect(ROUTES.map(([m, p]) => `${m} ${p}`)).toContain('POST /api/pair');
  });

  it('without a credential (401), with a revoked one (401), with the cookie but no proof of its key (401), from a foreign Origin (403), under another Host (421)', async () => {
    const origin = agent.url.slice(0, -1);
    for (const [method, path] of ROUTES) {
      const name = `${method} ${path}`;
      if (!PUBLIC.has(name)) {
        expect(await send(method, path, { origin }), `${name} without credential`).toBe(401);
        expect(await send(method, path, { origin, ...deviceHeaders(revoked, method, path) }), `${name} revoked`).toBe(401);
        expect(await send(method, path, { origin, cookie: owner.cookie }), `${name} cookie alone`).toBe(401);
        const elsewhere = deviceHeaders(owner, method, '/api/elsewhere');
        expect(await send(method, path, { origin, ...elsewhere }), `${name} proof of another request`).toBe(401);
      }
      expect(await send(method, path, { origin: 'http://evil.example', cookie: owner.cookie }), `${name} foreign origin`).toBe(403);
      expect(await send(method, path, { cookie: owner.cookie, host: `rebind.example:${agent.port}` }), `${name} rebinding`).toBe(421);
    }
  });

  it('and every WebSocket path refuses the same way, before upgrading', async () => {
    const origin = agent.url.slice(0, -1);
    for (const base of WEBSOCKET_PATHS) {
      const path = `${base}?tab=${tabId}`;
      expect(await upgrade(path, { origin }), `${base} without credential`).toBe(401);
      expect(await upgrade(path, { origin, cookie: revoked.cookie }, revoked), `${base} revoked`).toBe(401);
      expect(await upgrade(path, { origin, cookie: owner.cookie }), `${base} cookie alone`).toBe(401);
      const proofForAnother = new URL(deviceSocketUrl(owner, `${base}?tab=another`)).searchParams.get('proof');
      expect(await upgrade(`${path}&proof=${proofForAnother}`, { origin, cookie: owner.cookie }), `${base} proof of another target`).toBe(401);
      expect(await upgrade(path, { origin: 'http://evil.example', cookie: owner.cookie }), `${base} foreign origin`).toBe(403);
      expect(await upgrade(path, { cookie: owner.cookie, host: 'rebind.example' }), `${base} rebinding`).toBe(421);
      expect(await upgrade(path, { origin, cookie: owner.cookie }, owner), `${base} with a credential and its proof`).toBe(101);
    }
    expect(await upgrade('/api/elsewhere', { cookie: owner.cookie })).toBe(404);
  });
});
