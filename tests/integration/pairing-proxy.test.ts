/**
 * Pairing behind a proxy on loopback (`tailscale serve`, or any with --public-url): wrong
 * codes are counted per forwarded client, and only a proxy on loopback is believed.
 */
import { createServer, request, type Server } from 'node:http';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROXIED_FAILURES } from '../../agent/auth/pairing.js';
import { type AgentHandle, cleanupAgents, startAgent } from '../support/agent.js';
import { newDeviceKey } from '../support/client.js';

const PUBLIC_URL = 'https://box.example.ts.net/';
const PUBLIC_HOST = new URL(PUBLIC_URL).host;
const WRONG = { code: 'ZZZZ-ZZZZ' };

/** An address of this machine that is not loopback, for a client reaching the agent directly. */
function offLoopbackAddress(): string | null {
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  const v4 = all.find((a) => !a.internal && a.family === 'IPv4');
  const v6 = all.find((a) => !a.internal && a.family === 'IPv6' && !a.address.startsWith('fe80'));
  return v4?.address ?? (v6 ? `[${v6.address}]` : null);
}

/** The port the agent really listens on: with --public-url its printed link names the proxy. */
function listeningPort(agent: AgentHandle): number {
  return Number(readFileSync(join(agent.dataDir, 'port'), 'utf8').trim());
}

/**
 * A reverse proxy as nginx's `$proxy_add_x_forwarded_for` does it: it forwards the public
 * Host and appends the client it saw to whatever X-Forwarded-For the client sent. The client
 * it "saw" is the test's choice (x-test-client), so one test can be many people.
 */
async function startProxy(agentPort: number): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const client = String(req.headers['x-test-client']);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: PUBLIC_HOST };
    delete headers['x-test-client'];
    const sent = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = sent ? `${sent}, ${client}` : client;
    const upstream = request({ host: '127.0.0.1', port: agentPort, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as { port: number }).port };
}

async function pairAt(base: string, body: object, headers: Record<string, string> = {}): Promise<number> {
  const withKey = { ...body, publicKey: newDeviceKey().publicKey };
  const res = await fetch(new URL('/api/pair', base), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(withKey) });
  await res.arrayBuffer();
  return res.status;
}

describe('pairing behind a proxy on loopback', () => {
  let agent: AgentHandle;
  let agentPort: number;
  let proxy: { server: Server; port: number };
  /** Through the proxy, as the client at `client`; `forged` is an X-Forwarded-For the client itself writes. */
  const viaProxy = (client: string, body: object, forged?: string) =>
    pairAt(`http://127.0.0.1:${proxy.port}/`, body, { 'x-test-client': client, ...(forged ? { 'x-forwarded-for': forged } : {}) });

  beforeAll(async () => {
    // On every address, so a client off loopback can reach it too; phones would use the proxy.
    agent = await startAgent({ args: ['--host', '0.0.0.0', '--public-url', PUBLIC_URL] });
    agentPort = listeningPort(agent);
    proxy = await startProxy(agentPort);
  });
  afterAll(async () => {
    proxy.server.close();
    await cleanupAgents();
  });

  it('limits one forwarded client’s wrong codes, whatever it writes in front, while another pairs', async () => {
    const a: number[] = [];
    // Client A writes a different X-Forwarded-For each time: only what the proxy appended counts.
    for (let i = 0; i < 7; i++) a.push(await viaProxy('198.51.100.7', WRONG, `203.0.113.${i}`));
    expect(a).toEqual([401, 401, 401, 401, 401, 429, 429]);

    // B, behind the same proxy (so from the same 127.0.0.1), is not held up by A.
    expect(await viaProxy('198.51.100.8', WRONG)).toBe(401);
    expect(await viaProxy('198.51.100.8', { code: agent.pairCode, deviceName: 'phone B' })).toBe(201);
    // A still waits.
    expect(await viaProxy('198.51.100.7', WRONG)).toBe(429);
  });

  const offLoopback = offLoopbackAddress();
  it.skipIf(offLoopback === null)('counts a client off loopback at its own address, whatever X-Forwarded-For it sends', async () => {
    const direct: number[] = [];
    for (let i = 0; i < 7; i++) direct.push(await pairAt(`http://${offLoopback}:${agentPort}/`, WRONG, { 'x-forwarded-for': `198.51.100.${50 + i}` }));
    expect(direct).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // It claimed to be 198.51.100.60 and others; the real one at that address is not held up.
    expect(await viaProxy('198.51.100.60', WRONG)).toBe(401);
  });
});

describe('a program on this machine writing X-Forwarded-For', () => {
  afterAll(cleanupAgents);

  it('is believed only with a proxy configured, and even then gets no more than the proxy’s share', async () => {
    // No proxy configured: a loopback client is just itself, whatever it writes.
    const plain = await startAgent();
    const tries: number[] = [];
    for (let i = 0; i < 7; i++) tries.push(await pairAt(plain.url, WRONG, { 'x-forwarded-for': `203.0.113.${i}` }));
    expect(tries).toEqual([401, 401, 401, 401, 401, 429, 429]);
    await plain.stop();

    // Behind a proxy it looks just like the proxy; a new address per attempt still runs into
    // the limit on everything the proxy passes on.
    const proxied = await startAgent({ args: ['--public-url', PUBLIC_URL] });
    const base = `http://127.0.0.1:${listeningPort(proxied)}/`;
    const forged = (i: number) => `${198 + Math.floor(i / 65_536)}.${Math.floor(i / 256) % 256}.${i % 256}.7`;
    const statuses: number[] = [];
    for (let i = 0; i < MAX_PROXIED_FAILURES + 2; i++) statuses.push(await pairAt(base, WRONG, { 'x-forwarded-for': forged(i) }));
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_PROXIED_FAILURES);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // It cannot go on guessing codes as yet another address, the right code included: none is checked.
    expect(await pairAt(base, { code: proxied.pairCode }, { 'x-forwarded-for': '198.51.100.99' })).toBe(429);
    // The link's secret, which no count of guesses brings closer, still pairs: the pairing was not spent.
    expect(await pairAt(base, { secret: proxied.token }, { 'x-forwarded-for': '198.51.100.99' })).toBe(201);
  });
});

describe('many clients behind the proxy sending wrong codes', () => {
  let agent: AgentHandle;
  let proxy: { server: Server; port: number };
  const viaProxy = (client: string, body: object) => pairAt(`http://127.0.0.1:${proxy.port}/`, body, { 'x-test-client': client });

  beforeAll(async () => {
    agent = await startAgent({ args: ['--public-url', PUBLIC_URL] });
    proxy = await startProxy(listeningPort(agent));
  });
  afterAll(async () => {
    proxy.server.close();
    await cleanupAgents();
  });

  it('keep no one out: 40 wrong codes in a minute from eight clients, then the right code from another pairs', async () => {
    const statuses: number[] = [];
    for (let client = 0; client < 8; client++) {
      for (let i = 0; i < 5; i++) statuses.push(await viaProxy(`198.51.100.${client + 20}`, WRONG));
    }
    // Each client's five are its own to spend; none of them holds up the next.
    expect(statuses).toEqual(Array(40).fill(401));
    // Each is still limited on its own.
    expect(await viaProxy('198.51.100.20', WRONG)).toBe(429);
    expect(await viaProxy('198.51.100.50', { code: agent.pairCode, deviceName: 'the owner' })).toBe(201);
  });
});
