/**
 * A device's credential cookie is bound to a key its browser keeps (see docs/security.md,
 * "Who is who"): the cookie alone, replayed from wherever it leaked, gets nothing. The real
 * agent, real HTTP and WebSockets; the device keys are made as the app makes them (P-256).
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevicesResponse } from '../../protocol/api.js';
import { AGENT_TIME_HEADER, PROOF_HEADER, PROOF_TIME_ERROR, PROOF_WINDOW_MS } from '../../protocol/device-proof.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { api, claim, deviceHeaders, deviceSocketUrl, localDevice, localPairing, pairDevice, type Session, signProof, upgradeStatus } from '../support/client.js';

let agent: AgentHandle;
let owner: Session;

beforeAll(async () => {
  agent = await startAgent();
  owner = await claim(agent, 'owner');
});
afterAll(cleanupAgents);

function get(path: string, headers: Record<string, string>): Promise<Response> {
  return fetch(new URL(path, agent.url), { headers });
}

describe('a device proves each request with its key', () => {
  it('takes a proof once: the same request replayed gets 401, over REST and WebSocket alike', async () => {
    const headers = deviceHeaders(owner, 'GET', '/api/session');
    expect((await get('/api/session', headers)).status).toBe(200);
    const replayed = await get('/api/session', headers);
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { error: string }).error).toMatch(/used already/);

    const url = deviceSocketUrl(owner, '/api/status');
    expect(await upgradeStatus(url, { cookie: owner.cookie })).toBe(101);
    expect(await upgradeStatus(url, { cookie: owner.cookie })).toBe(401);
  });

  it('answers a proof signed by a clock far from its own with its clock, so the app signs again', async () => {
    const off = signProof(owner.key as NonNullable<Session['key']>, 'GET', '/api/session', Date.now() - 2 * PROOF_WINDOW_MS);
    const refused = await get('/api/session', { cookie: owner.cookie, [PROOF_HEADER]: off });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: PROOF_TIME_ERROR });
    const agentTime = Number(refused.headers.get(AGENT_TIME_HEADER));
    expect(Math.abs(agentTime - Date.now())).toBeLessThan(PROOF_WINDOW_MS);
    // Signed again in the agent's time: in.
    const again = signProof(owner.key as NonNullable<Session['key']>, 'GET', '/api/session', agentTime);
    expect((await get('/api/session', { cookie: owner.cookie, [PROOF_HEADER]: again })).status).toBe(200);
  });

  it('refuses a proof made by another device, even one paired to the same agent', async () => {
    const other = await localDevice(agent, 'other');
    const borrowed = signProof(other.key as NonNullable<Session['key']>, 'GET', '/api/session');
    expect((await get('/api/session', { cookie: owner.cookie, [PROOF_HEADER]: borrowed })).status).toBe(401);
  });

  it('pairs a browser only with a key, unless its page is on a plain-HTTP LAN address; a refused pairing is not spent', async () => {
    const pairing = await localPairing(agent);
    const post = (body: object, origin?: string) =>
      fetch(new URL('/api/pair', agent.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body: JSON.stringify(body),
      });
    const noKey = await post({ code: pairing.code }, agent.url.replace(/\/$/, ''));
    expect(noKey.status).toBe(400);
    expect(((await noKey.json()) as { error: string }).error).toMatch(/device key/);
    expect((await post({ code: pairing.code })).status).toBe(400);
    const notOnCurve = await post({ code: pairing.code, publicKey: { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) } });
    expect(notOnCurve.status).toBe(400);
    // The same code still pairs, with a key.
    const paired = await pairDevice(agent, { code: pairing.code }, 'keyed');
    expect((await api(paired, 'GET', '/api/session')).status).toBe(200);
  });
});

describe('a page on a plain-HTTP LAN address', () => {
  it('pairs with its cookie alone, which is all such a page can hold, and the Devices list says so', async () => {
    // Bound to every address, the agent answers to this machine's name; the page's Origin is
    // that name over plain HTTP, where a browser gives no WebCrypto. Requests go to loopback.
    const lan = await startAgent({ args: ['--host', '0.0.0.0'] });
    const origin = `http://${hostname().toLowerCase()}:${lan.port}`;
    const send = (method: string, path: string, headers: Record<string, string>, body?: object) =>
      new Promise<{ status: number; setCookie: string; text: string }>((resolve, reject) => {
        const req = request(
          new URL(path, lan.url),
          { method, headers: { host: new URL(origin).host, origin, ...(body ? { 'content-type': 'application/json' } : {}), ...headers } },
          (res) => {
            let text = '';
            res.on('data', (d) => {
              text += d;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie']?.[0] ?? '', text }));
          },
        );
        req.on('error', reject);
        req.end(body ? JSON.stringify(body) : undefined);
      });
    const paired = await send('POST', '/api/pair', {}, { secret: lan.token, deviceName: 'lan phone' });
    expect(paired.status).toBe(201);
    const cookie = paired.setCookie.split(';')[0] as string;
    const devices = await send('GET', '/api/devices', { cookie });
    expect(devices.status).toBe(200);
    expect((JSON.parse(devices.text) as DevicesResponse).devices).toEqual([expect.objectContaining({ name: 'lan phone', binding: 'cookie', current: true })]);
    await lan.stop();
  });
});

describe('devices paired before keys', () => {
  it('stay listed, are refused with a reason, and a new pairing works', async () => {
    const env = newTestEnvironment();
    const first = await startAgent({ reuse: env });
    await first.stop();
    // A devices file as the previous version wrote it: credential hashes, no keys.
    const credential = randomBytes(32).toString('base64url');
    const device = {
      id: 'dv-oldphone',
      name: 'old phone',
      platform: 'Android',
      credentialHash: createHash('sha256').update(credential).digest('hex'),
      pairedAt: '2026-01-01T00:00:00.000Z',
      lastSeenAt: null,
    };
    writeFileSync(join(env.dataDir, 'devices.json'), JSON.stringify({ version: 1, devices: [device] }), { mode: 0o600 });
    const again = await startAgent({ reuse: env });
    const cookieName = (await claim(again, 'new phone')).cookie.split('=')[0] as string;
    const old = await fetch(new URL('/api/session', again.url), { headers: { cookie: `${cookieName}=${credential}` } });
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual({ error: expect.stringMatching(/pair it again/), code: 'device-pair-again' });
    const fresh = await pairDevice(again, { code: (await localPairing(again)).code }, 'checker');
    const listed = (await api<DevicesResponse>(fresh, 'GET', '/api/devices')).body.devices;
    expect(listed.find((d) => d.id === 'dv-oldphone')).toMatchObject({ binding: 'pair-again' });
    expect(listed.find((d) => d.name === 'new phone')).toMatchObject({ binding: 'key' });
    await again.stop();
  });
});
