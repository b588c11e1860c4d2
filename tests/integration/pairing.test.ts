
import { request } from 'node:http';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, DevicesResponse, PairingResponse, SessionResponse } from '../../protocol/api.js';
import { CloseCode } from '../../protocol/close-codes.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { api, claim, createTab, deviceHeaders, deviceSocket, newDeviceKey, pairAnother, pairDevice, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';

let agent: AgentHandle;
let owner: Session;

beforeAll(async () => {
  agent = await startAgent();
  owner = await claim(agent, 'owner laptop');
});
afterAll(cleanupAgents);

/** A raw pairing request, with a new device key unless the body says otherwise (`publicKey: undefined` sends none). */
function pair(body: object, headers: Record<string, string> = {}): Promise<Response> {
  const withKey = 'publicKey' in body ? body : { ...body, publicKey: newDeviceKey().publicKey };
  return fetch(new URL('/api/pair', agent.url), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(withKey) });
}

describe('pairing', () => {
  it('takes a secret once, then never again', async () => {
    const fresh = await api<PairingResponse>(owner, 'POST', '/api/pairings');
    expect(fresh.status).toBe(201);
    const secret = new URL(fresh.body.url).hash.replace('#pair=', '');
    const first = await pairDevice(agent, { secret }, 'phone');
    expect((await api<SessionResponse>(first, 'GET', '/api/session')).body.deviceName).toBe('phone');
    const again = await pair({ secret });
    expect(again.status).toBe(401);
    const refusal = (await again.json()) as ApiError;
    expect(refusal).toEqual({ error: expect.stringMatching(/^this pairing link was used already: each pairs one device/), code: 'pairing-used' });
    // Said to a browser not paired: the command as typed from PATH, no path of this machine, no npx.
    expect(refusal.error).toContain('`pocketmux pair` (the command that started the agent, with `pair` in place of `start`)');
    expect(refusal.error).not.toMatch(/npx|\//);
  });

  it('takes the short code typed any way, once', async () => {
    const fresh = await api<PairingResponse>(owner, 'POST', '/api/pairings');
    expect(fresh.body.qrSvg).toMatch(/^<svg/);
    const typed = ` ${fresh.body.code.toLowerCase()} `;
    await pairDevice(agent, { code: typed });
    expect((await pair({ code: fresh.body.code })).status).toBe(401);
  });

  it('refuses a pairing after it expired (POCKETMUX_PAIRING_TTL_MS)', async () => {
    // Ten minutes by the clock is tests/integration/pairing-clock.test.ts; here the setting, end to end.
    const own = await startAgent({ env: { POCKETMUX_PAIRING_TTL_MS: '10' } });
    // Asked for as the CLI does: the pairing printed at start is already gone.
    const token = readFileSync(join(own.dataDir, 'hook-token'), 'utf8').trim();
    const made = await fetch(new URL('/api/pairings', own.url), { method: 'POST', headers: { 'x-pocketmux-token': token } });
    expect(made.status).toBe(201);
    const fresh = (await made.json()) as PairingResponse;
    expect(Date.parse(fresh.expiresAt) - Date.now()).toBeLessThanOrEqual(10);
    await eventually(() => Date.now() > Date.parse(fresh.expiresAt), 5_000, 'the pairing to expire');
    const late = await fetch(new URL('/api/pair', own.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: fresh.code, publicKey: newDeviceKey().publicKey }) });
    expect(late.status).toBe(401);
    await own.stop();
  });

  it('refuses bad bodies and foreign origins, saying what is missing', async () => {
    const empty = await pair({});
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as ApiError).error).toBe(
      'invalid pairing: missing the pairing code (code) or the secret of a pairing link (secret): give one',
    );
    const both = await pair({ secret: 'a', code: 'b' });
    expect(both.status).toBe(400);
    expect(((await both.json()) as ApiError).error).toBe('invalid pairing: give the pairing code (code) or the secret of a pairing link (secret), not both');
    expect((await pair({ code: 'x', extra: 1 })).status).toBe(400);
    expect((await pair({ code: 'ABCD2345' }, { origin: 'http://evil.example' })).status).toBe(403);
  });

  it('limits wrong codes per source, for at most a minute', async () => {
    const own = await startAgent();
    const tries: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(new URL('/api/pair', own.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'ZZZZ-ZZZZ', publicKey: newDeviceKey().publicKey }) });
      tries.push(res.status);
      if (res.status === 429) {
        const wait = Number(res.headers.get('retry-after'));
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(60);
      }
    }
    expect(tries).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // While limited, even the right code waits: guessing cannot race the owner's code.
    const blocked = await fetch(new URL('/api/pair', own.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: own.pairCode }) });
    expect(blocked.status).toBe(429);
    await own.stop();
  });
});

describe('a refused pairing says why', () => {
  const refused = async (res: Response) => ({ status: res.status, ...((await res.json()) as ApiError) });

  it('tells a wrong code, a used one and a wrong link apart, each a 401', async () => {
    const own = await startAgent();
    const ownPair = (body: object) =>
      fetch(new URL('/api/pair', own.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, publicKey: newDeviceKey().publicKey }) });
    expect(await refused(await ownPair({ code: 'ZZZZ-ZZZZ' }))).toEqual({
      status: 401,
      code: 'pairing-wrong',
      error: expect.stringMatching(/^no pairing has this code: check it against the one shown on the computer, or get a new one on the agent's machine: `pocketmux pair` /),
    });
    expect(await refused(await ownPair({ secret: 'not-a-secret-the-agent-made' }))).toEqual({
      status: 401,
      code: 'pairing-wrong',
      error: expect.stringMatching(/^this pairing link is not one the agent made/),
    });
    await pairDevice(own, { code: own.pairCode }, 'first phone');
    expect(await refused(await ownPair({ code: own.pairCode.toLowerCase() }))).toEqual({
      status: 401,
      code: 'pairing-used',
      error: expect.stringMatching(/^this pairing code was used already: each pairs one device \(if that was not you, remove the device it paired in Settings\); get a new one/),
    });
    await own.stop();
  });

  it('tells an expired code or link, with the agent’s own limit in words', async () => {
    const own = await startAgent({ env: { POCKETMUX_PAIRING_TTL_MS: '2000' } });
    const owner2 = await pairDevice(own, { secret: own.token }, 'owner');
    const ownPair = (body: object) =>
      fetch(new URL('/api/pair', own.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, publicKey: newDeviceKey().publicKey }) });
    const soon = (await api<PairingResponse>(owner2, 'POST', '/api/pairings')).body;
    expect(soon.validForSeconds).toBe(2);
    await eventually(() => Date.now() > Date.parse(soon.expiresAt), 10_000, 'the pairing to expire');
    expect(await refused(await ownPair({ code: soon.code }))).toEqual({
      status: 401,
      code: 'pairing-expired',
      error: expect.stringMatching(/^this pairing code expired: each works for 2 seconds; get a new one/),
    });
    const secret = new URL(soon.url).hash.replace('#pair=', '');
    expect(await refused(await ownPair({ secret }))).toMatchObject({ status: 401, code: 'pairing-expired', error: expect.stringMatching(/^this pairing link expired/) });
    await own.stop();
  });

  it('tells a code that newer pairings replaced', async () => {
    const fresh = async () => (await api<PairingResponse>(owner, 'POST', '/api/pairings')).body;
    const oldest = await fresh();
    // Eight work at once: the ninth pushes the oldest out.
    for (let i = 0; i < 8; i++) await fresh();
    expect(await refused(await pair({ code: oldest.code }))).toEqual({
      status: 401,
      code: 'pairing-replaced',
      error: expect.stringMatching(/^this pairing code was replaced: only the newest 8 pairings work; get a new one/),
    });
  });

  it('says how long a pairing works to a browser that is not paired, and no more', async () => {
    const terms = await fetch(new URL('/api/pair', agent.url));
    expect(terms.status).toBe(200);
    expect(await terms.json()).toEqual({ validForSeconds: 600 });
    expect((await api<PairingResponse>(owner, 'POST', '/api/pairings')).body.validForSeconds).toBe(600);
    expect((await fetch(new URL('/api/pair', agent.url), { headers: { origin: 'http://evil.example' } })).status).toBe(403);
  });

  it('prints the agent’s own limit in the CLI, in words with the right plural', async () => {
    const own = await startAgent({ env: { POCKETMUX_PAIRING_TTL_MS: '60000' } });
    expect(own.stdout()).toContain('(works once, for 1 minute):');
    const { stdout } = await runCli(['pair', '--data-dir', own.dataDir], agentEnv(own));
    expect(stdout).toContain('(works once, for 1 minute):');
    const json = JSON.parse((await runCli(['pair', '--json', '--data-dir', own.dataDir], agentEnv(own))).stdout) as PairingResponse;
    expect(json.validForSeconds).toBe(60);
    await own.stop();
    expect(agent.stdout()).toContain('(works once, for 10 minutes):');
  });
});

describe('a device refused', () => {
  it('is told it was removed, after a restart too, and nothing about who or when', async () => {
    const env = newTestEnvironment();
    const own = await startAgent({ reuse: env });
    const keeper = await pairDevice(own, { secret: own.token }, 'keeper');
    const gone = await pairAnother(own, keeper, 'secret-name-of-the-gone-phone');
    const id = (await api<DevicesResponse>(keeper, 'GET', '/api/devices')).body.devices.find((d) => d.name === 'secret-name-of-the-gone-phone')?.id as string;
    expect((await api(keeper, 'DELETE', `/api/devices/${id}`)).status).toBe(204);
    const told = await api<ApiError>(gone, 'GET', '/api/session');
    expect(told).toEqual({ status: 401, body: { error: 'this device was removed from the devices list: pair it again', code: 'device-revoked' } });
    expect(JSON.stringify(told.body)).not.toMatch(/secret-name|keeper|dv-/);
    await own.stop();
    const again = await startAgent({ reuse: env });
    const after = await api<ApiError>({ ...gone, agent: again }, 'GET', '/api/session');
    expect(after).toEqual({ status: 401, body: { error: 'this device was removed from the devices list: pair it again', code: 'device-revoked' } });
    await again.stop();
  });

  it('whose credential the agent never knew is told so, apart from a removed one', async () => {
    const env = newTestEnvironment();
    const own = await startAgent({ reuse: env });
    const phone = await pairDevice(own, { secret: own.token }, 'phone');
    await own.stop();
    // The devices list reset (a new data dir, or a damaged file set aside): the credential means nothing.
    rmSync(join(env.dataDir, 'devices.json'));
    const again = await startAgent({ reuse: env });
    expect(await api<ApiError>({ ...phone, agent: again }, 'GET', '/api/session')).toEqual({
      status: 401,
      body: { error: 'unknown device credential', code: 'device-unknown' },
    });
    // No credential at all: nothing to tell apart.
    const none = await fetch(new URL('/api/session', again.url));
    expect(await none.json()).toEqual({ error: 'no device credential' });
    await again.stop();
  });
});

describe('devices', () => {
  it('lists devices and revokes one: its requests fail and its sockets close within a second', async () => {
    const fresh = await api<PairingResponse>(owner, 'POST', '/api/pairings');
    const phone = await pairDevice(agent, { code: fresh.body.code }, 'doomed phone');
    const list = await api<DevicesResponse>(owner, 'GET', '/api/devices');
    const doomed = list.body.devices.find((d) => d.name === 'doomed phone');
    expect(doomed).toBeDefined();
    expect(list.body.devices.find((d) => d.current)?.name).toBe('owner laptop');

    const socket = deviceSocket(phone, '/api/status');
    await once(socket, 'open');
    const closed = once(socket, 'close') as Promise<[number, Buffer]>;
    expect((await api(owner, 'DELETE', `/api/devices/${doomed?.id}`)).status).toBe(204);
    // The close comes from the revocation itself, not from a timer; the deadline is only
    // generous against a loaded machine.
    const [code] = await Promise.race([closed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('socket still open 15 s after revocation')), 15_000))]);
    expect(code).toBe(CloseCode.DeviceRevoked);
    expect((await api(phone, 'GET', '/api/session')).status).toBe(401);
    expect((await api(owner, 'DELETE', `/api/devices/${doomed?.id}`)).status).toBe(404);
  });

  it('closes a revoked device’s terminal and timeline sockets too (4401), and no other device’s', async () => {
    const fresh = await api<PairingResponse>(owner, 'POST', '/api/pairings');
    const tablet = await pairDevice(agent, { code: fresh.body.code }, 'doomed tablet');
    const tab = await createTab(owner);
    const timeline = (s: Session) => deviceSocket(s, `/api/timeline?tab=${tab.id}`);
    const term = new TerminalClient(tablet, tab.id);
    const feed = timeline(tablet);
    const ownersTerm = new TerminalClient(owner, tab.id);
    const ownersFeed = timeline(owner);
    await Promise.all([term.opened, once(feed, 'open'), ownersTerm.opened, once(ownersFeed, 'open')]);
    const feedClosed = once(feed, 'close') as Promise<[number, Buffer]>;

    const id = (await api<DevicesResponse>(owner, 'GET', '/api/devices')).body.devices.find((d) => d.name === 'doomed tablet')?.id;
    expect((await api(owner, 'DELETE', `/api/devices/${id}`)).status).toBe(204);
    // A generous deadline against a loaded machine; the close itself is the revocation's.
    const within = <T>(p: Promise<T>, what: string) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} still open 15 s after revocation`)), 15_000))]);
    expect((await within(term.closed, 'the terminal')).code).toBe(CloseCode.DeviceRevoked);
    expect((await within(feedClosed, 'the timeline'))[0]).toBe(CloseCode.DeviceRevoked);
    // The owner's sockets on the same tab stay, and its terminal still works.
    expect(ownersFeed.readyState).toBe(WebSocket.OPEN);
    ownersTerm.type('echo still-$((6*7))\r');
    await ownersTerm.waitForLine(/^still-42$/, 15_000);
    // A revoked device cannot open them again.
    const again = timeline(tablet);
    again.on('error', () => undefined);
    const refused = await new Promise<number>((resolve) => again.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(refused).toBe(401);
    again.terminate();
    ownersTerm.close();
    ownersFeed.close();
  });

  it('pairs and revokes from the CLI too', async () => {
    const run = async (...args: string[]) => {
      const { code, stdout } = await runCli([...args, '--data-dir', agent.dataDir], agentEnv(agent));
      return { code, out: stdout };
    };
    const paired = await run('pair');
    expect(paired.code).toBe(0);
    expect(paired.out).toMatch(/http:\/\/127\.0\.0\.1:\d+\/#pair=/);
    const code = /enter the code: ([A-Z0-9-]{9})/.exec(paired.out)?.[1];
    const tablet = await pairDevice(agent, { code: code as string }, 'tablet');
    const listed = JSON.parse((await run('devices', '--json')).out) as { id: string; name: string }[];
    const id = listed.find((d) => d.name === 'tablet')?.id as string;
    expect((await run('devices', 'revoke', id)).code).toBe(0);
    expect((await api(tablet, 'GET', '/api/session')).status).toBe(401);
  });
});

describe('DNS rebinding', () => {
  it('refuses requests and upgrades for a Host it does not serve', async () => {
    // fetch will not send a forged Host; node:http will, as a rebinding page's browser does.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(new URL('/api/session', agent.url), { headers: { ...deviceHeaders(owner, 'GET', '/api/session'), host: `evil.example:${agent.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(rebound).toBe(421);
    const upgrade = await new Promise<number>((resolve) => {
      const ws = deviceSocket(owner, '/api/sync', { headers: { host: 'evil.example' } });
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => resolve(101));
    });
    expect(upgrade).toBe(421);
    expect((await api({ ...owner, agent: { ...agent, url: agent.url.replace('127.0.0.1', 'localhost') } }, 'GET', '/api/session')).status).toBe(200);
  });

  it('never logs a pairing secret, code or credential', () => {
    const log = readFileSync(join(agent.dataDir, 'logs', 'agent.log'), 'utf8') + agent.stderr();
    expect(log).toMatch(/device paired/);
    expect(log).not.toContain(agent.token);
    expect(log).not.toContain(agent.pairCode);
    expect(log).not.toContain(owner.cookie.split('=')[1]);
  });
});
