import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request } from 'node:https';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionResponse } from '../../protocol/api.js';
import { UNPROVEN_LIMITS } from '../../agent/auth/unproven-connections.js';
import { AGENT_BIN, type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, testCertificate } from '../support/agent.js';
import { deviceHeaders, deviceSocket, newDeviceKey, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { paneEnv } from '../support/status.js';

let agent: AgentHandle;
let cert: Buffer;
const env = newTestEnvironment();

function httpsJson<T>(
  path: string,
  init: { method?: string; body?: unknown; device?: Session; at?: { agent: AgentHandle; cert: Buffer } } = {},
): Promise<{ status: number; body: T; setCookie: string | undefined }> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = request(
      new URL(path, (init.at?.agent ?? agent).url),
      {
        method: init.method ?? 'GET',
        ca: init.at?.cert ?? cert,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(init.device ? deviceHeaders(init.device, init.method ?? 'GET', path) : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: (text && res.headers['content-type']?.includes('json') ? JSON.parse(text) : text) as T, setCookie: res.headers['set-cookie']?.[0] }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  const files = testCertificate(env.root, 60);
  cert = readFileSync(files.cert);
  agent = await startAgent({ reuse: env, args: ['--tls-cert', files.cert, '--tls-key', files.key] });
});
afterAll(cleanupAgents);

describe('HTTPS', () => {
  it('serves the app and pairs over https, with a Secure cookie', async () => {
    expect(agent.link).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/#pair=/);
    const page = await httpsJson<string>('/');
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<html/i);
    const paired = await httpsJson<SessionResponse>('/api/pair', { method: 'POST', body: { secret: agent.token, deviceName: 'tls phone', publicKey: newDeviceKey().publicKey } });
    expect(paired.status).toBe(201);
    expect(paired.setCookie).toMatch(/; Secure/);
  });

  it('carries the terminal and status over wss, and hooks still reach it from this machine', async () => {
    const pairing = await httpsJson<SessionResponse>('/api/pair', { method: 'POST', body: { code: 'WRONG-CODE', publicKey: newDeviceKey().publicKey } });
    expect(pairing.status).toBe(401);
    // A session for the client helpers, paired with a fresh code from the CLI.
    const cli = spawn(process.execPath, [AGENT_BIN, 'pair', '--json', '--data-dir', agent.dataDir], { env: agentEnv(agent) });
    let out = '';
    cli.stdout.on('data', (d) => {
      out += d;
    });
    await once(cli, 'exit');
    const { code } = JSON.parse(out) as { code: string };
    const key = newDeviceKey();
    const res = await httpsJson<SessionResponse>('/api/pair', { method: 'POST', body: { code, publicKey: key.publicKey } });
    const session: Session = { agent, cookie: (res.setCookie ?? '').split(';')[0] as string, key: key.privateKey };

    const workspaces = await httpsJson<{ workspaces: { id: string }[] }>('/api/workspaces', { device: session });
    const created = await httpsJson<{ id: string; workspaceId: string }>('/api/tabs', {
      method: 'POST',
      device: session,
      body: { workspaceId: workspaces.body.workspaces[0]?.id },
    });
    const tab = created.body;
    const wss = deviceSocket(session, '/api/status', { ca: cert });
    const messages: string[] = [];
    wss.on('message', (d) => messages.push(String(d)));
    await once(wss, 'open');

    // hook.sh talks plain HTTP to a loopback-only twin: no TLS handshake on the hot path.
    const script = readFileSync(join(agent.dataDir, 'hooks', 'hook.sh'), 'utf8');
    expect(script).toMatch(/http:\/\/127\.0\.0\.1:\d+\/hooks\//);
    const pane = await paneEnv(agent, tab);
    const hook = spawn('/bin/sh', [join(agent.dataDir, 'hooks', 'hook.sh'), 'UserPromptSubmit'], { env: { PATH: process.env.PATH, ...pane } });
    hook.stdin.end(`${JSON.stringify({ session_id: 's-tls', hook_event_name: 'UserPromptSubmit', prompt: 'hi' })}\n`);
    await once(hook, 'exit');
    await expect.poll(() => messages.some((m) => m.includes('"state":"busy"')), { timeout: 5000 }).toBe(true);
    wss.close();
  });

  it('cuts TLS connections that never shake hands past the cap, and keeps one that proved itself', async () => {
    const token = readFileSync(join(env.dataDir, 'hook-token'), 'utf8').trim();
    const keepAlive = new HttpsAgent({ keepAlive: true, maxSockets: 1, ca: cert });
    // The CLI's token over TLS: the request's socket is the TLS one, the connection counted is TCP.
    const session = () =>
      new Promise<{ status: number; reused: boolean; localPort: number | undefined }>((resolve, reject) => {
        const req = request(new URL('/api/session', agent.url), { agent: keepAlive, headers: { 'x-pocketmux-token': token } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, localPort: req.socket?.localPort }));
        });
        req.on('error', reject);
        req.end();
      });
    const first = await session();
    expect(first.status).toBe(200);

    // More than one address may hold, none of them ever sending a ClientHello.
    const count = UNPROVEN_LIMITS.perSource + 44;
    let closedByAgent = 0;
    const silent: Socket[] = [];
    for (let i = 0; i < count; i++) {
      const socket = connect(agent.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.on('close', () => closedByAgent++);
      silent.push(socket);
      await once(socket, 'connect');
    }
    try {
      await eventually(() => closedByAgent >= count - UNPROVEN_LIMITS.perSource, 10_000, 'the agent to cut the connections past the cap');
      // The oldest of them all, it would have gone first had it not proved itself.
      const second = await session();
      expect(second).toEqual({ status: 200, reused: true, localPort: first.localPort });
    } finally {
      for (const socket of silent) socket.destroy();
      keepAlive.destroy();
    }
  });

  it('warns in one paragraph when bound beyond loopback over plain HTTP', async () => {
    const open = await startAgent({ args: ['--host', '0.0.0.0'] });
    expect(open.stderr()).toMatch(/reachable from other machines over plain HTTP\. Phones can use it as a web page, but browsers allow installing the app, offline use and push notifications only over HTTPS/);
    await open.stop();
    expect(agent.stderr()).not.toMatch(/plain HTTP/);
  });

  it('pocketmux doctor checks each part and says what to fix', async () => {
    const run = async (...args: string[]) => {
      const { code, stdout } = await runCli(['doctor', '--json', '--data-dir', agent.dataDir, ...args], agentEnv(agent));
      return { code, checks: JSON.parse(stdout) as { name: string; status: string; ok: boolean; detail: string }[] };
    };
    const files = { cert: join(env.root, 'cert.pem'), key: join(env.root, 'key.pem') };
    const good = await run('--tls-cert', files.cert, '--tls-key', files.key, '--public-url', agent.url, '--claude-bin', '/bin/true');
    const byName = Object.fromEntries(good.checks.map((c) => [c.name, c]));
    expect(byName.tmux?.ok).toBe(true);
    expect(byName.claude?.ok).toBe(true);
    expect(byName.agent?.ok).toBe(true);
    expect(byName.hooks?.ok).toBe(true);
    // The hook script reads its token header from a file: curl 7.55 or newer.
    expect(byName.curl).toMatchObject({ ok: true, detail: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    expect(byName.tls).toMatchObject({ ok: true, detail: expect.stringMatching(/valid until/) });
    expect(byName.push).toMatchObject({ ok: true, detail: expect.stringMatching(/^VAPID keys ready; 0 of \d+ paired devices subscribed$/) });
    // The public URL is https with a certificate no CA vouches for: doctor says it does not answer.
    expect(byName['public url']?.ok).toBe(false);
    expect(good.code).toBe(1);

    const bad = await run('--claude-bin', 'no-such-claude');
    const badByName = Object.fromEntries(bad.checks.map((c) => [c.name, c]));
    expect(badByName.claude).toMatchObject({ ok: false, detail: expect.stringMatching(/--claude-bin/) });
    // On loopback alone, HTTPS and push are for a phone: optional, not to fix.
    expect(badByName.tls).toMatchObject({ status: 'optional', detail: expect.stringMatching(/no HTTPS/) });
    expect(badByName.push).toMatchObject({ status: 'optional', detail: expect.stringMatching(/phones cannot turn notifications on without HTTPS/) });
  });

  it('--tailscale serves through tailscale serve, puts the tailnet name in the QR, and undoes it on exit', async () => {
    const tsEnv = newTestEnvironment();
    const log = join(tsEnv.root, 'tailscale.log');
    const fake = join(tsEnv.root, 'tailscale');
    // A stand-in for the tailscale CLI: records its arguments and answers status --json.
    writeFileSync(
      fake,
      `#!/bin/sh\necho "$*" >> '${log}'\nif [ "$1" = status ]; then echo '{"Self":{"DNSName":"box.tail1234.ts.net."}}'; fi\nexit 0\n`,
      { mode: 0o755 },
    );
    const served = await startAgent({ reuse: tsEnv, args: ['--tailscale'], env: { POCKETMUX_TAILSCALE_BIN: fake } });
    expect(served.link).toMatch(/^https:\/\/box\.tail1234\.ts\.net\/#pair=/);
    const localPort = readFileSync(join(served.dataDir, 'port'), 'utf8').trim();
    expect(readFileSync(log, 'utf8')).toContain(`serve --bg --https=443 http://127.0.0.1:${localPort}`);
    // Requests forwarded by tailscale carry the tailnet name as Host: accepted.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: Number(localPort), path: '/', headers: { host: 'box.tail1234.ts.net' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    expect(await served.stop()).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain('serve --https=443 off');
  });

  it('stops on SIGTERM though a connection still shaking hands then asks for a WebSocket', async () => {
    const own = newTestEnvironment();
    const files = testCertificate(own.root, 60);
    const at = { agent: await startAgent({ reuse: own, args: ['--tls-cert', files.cert, '--tls-key', files.key] }), cert: readFileSync(files.cert) };
    const key = newDeviceKey();
    const paired = await httpsJson<SessionResponse>('/api/pair', { method: 'POST', body: { secret: at.agent.token, publicKey: key.publicKey }, at });
    const session: Session = { agent: at.agent, cookie: (paired.setCookie ?? '').split(';')[0] as string, key: key.privateKey };
    // Accepted, no ClientHello yet: not one of the server's HTTP connections while it stops.
    const raw = connect(at.agent.port, '127.0.0.1');
    await once(raw, 'connect');
    const exited = once(at.agent.process, 'exit');
    at.agent.process.kill('SIGTERM');
    await eventually(() => at.agent.stderr().includes('SIGTERM, stopping'), 10_000, 'the agent to start stopping');
    const ws = deviceSocket(session, '/api/status', { createConnection: () => tlsConnect({ socket: raw, ca: at.cert }) });
    const refused = new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => resolve(101));
      ws.once('error', () => resolve(0));
    });
    // The channels have said their goodbyes: a socket upgraded now would keep the agent running.
    expect(await refused).toBe(503);
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    ws.terminate();
  });

  it('keeps its loopback twin on the same port across restarts, where the Claudes started before post their hooks', async () => {
    const own = newTestEnvironment();
    const files = testCertificate(own.root, 60);
    const start = () => startAgent({ reuse: own, args: ['--tls-cert', files.cert, '--tls-key', files.key] });
    const twinPort = () => Number(readFileSync(join(own.dataDir, 'port'), 'utf8').trim());
    let restarted = await start();
    const first = twinPort();
    expect(first).not.toBe(restarted.port);
    await restarted.stop();
    restarted = await start();
    expect(twinPort()).toBe(first);
    expect(readFileSync(join(own.dataDir, 'hooks', 'hook.sh'), 'utf8')).toContain(`http://127.0.0.1:${first}/hooks/`);
    await restarted.stop('SIGKILL');
    // Taken meanwhile: another port, and the log says what that means for those Claudes.
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(first, '127.0.0.1', resolve));
    try {
      restarted = await start();
      expect(twinPort()).not.toBe(first);
      const log = readFileSync(join(own.dataDir, 'logs', 'agent.log'), 'utf8');
      expect(log).toContain('the port Claude sessions started before this restart post their hooks to was taken');
      await restarted.stop();
    } finally {
      squatter.close();
    }
  });
});
