/**
 * What a client without a credential (any web page, any host on the network) can make the
 * agent do: nothing but a refusal, and the refusals must not fill the disk or cost parsing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionResponse } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, startAgent } from '../support/agent.js';
import { api, claim, deviceHeaders, newDeviceKey, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';

let agent: AgentHandle;
let session: Session;

beforeAll(async () => {
  agent = await startAgent();
  session = await claim(agent);
});
afterAll(cleanupAgents);

function logLines(): string[] {
  const path = join(agent.dataDir, 'logs', 'agent.log');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

function refusedUpgrade(): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${agent.url.replace(/^http/, 'ws')}api/status`);
    ws.once('open', () => {
      ws.close();
      reject(new Error('an upgrade without a credential was accepted'));
    });
    ws.once('unexpected-response', (req, res) => {
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

describe('a client without a credential', () => {
  it('cannot flood the log with refused WebSocket upgrades', async () => {
    await eventually(() => logLines().some((l) => l.includes('agent listening')), 10_000, 'the start lines in the log');
    const before = logLines().length;

    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      statuses.push(...(await Promise.all(Array.from({ length: 50 }, () => refusedUpgrade()))));
    }
    expect(statuses).toHaveLength(500);
    expect(new Set(statuses)).toEqual(new Set([401]));

    // The first refusal from this source is logged; the other 499 are only counted.
    await eventually(() => logLines().slice(before).some((l) => l.includes('refused a WebSocket')), 10_000, 'the first refusal logged');
    const me = await api<SessionResponse>(session, 'GET', '/api/session');
    expect(me.status).toBe(200);
    const added = logLines().slice(before);
    expect(added.length, added.slice(0, 10).join('\n')).toBeLessThanOrEqual(5);
  });

  it('gets 401 for a malformed JSON body: the body is not parsed before the credential check', async () => {
    const res = await fetch(new URL('/api/workspaces', agent.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"dir": ',
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(/credential/);

    // With a credential the same body still gets the parser's clear 400.
    const authed = await fetch(new URL('/api/workspaces', agent.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...deviceHeaders(session, 'POST', '/api/workspaces') },
      body: '{"dir": ',
    });
    expect(authed.status).toBe(400);
  });

  it('can still pair: the public pairing route parses its own body', async () => {
    const res = await fetch(new URL('/api/pair', agent.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'AAAA-AAAA', deviceName: 'x', publicKey: newDeviceKey().publicKey }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(/^no pairing has this code/);
    const malformed = await fetch(new URL('/api/pair', agent.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"code": ',
    });
    expect(malformed.status).toBe(400);
  });

  it('is counted in one summary line, written with the rest of the log when the agent stops', async () => {
    expect(await agent.stop()).toBe(0);
    const lines = logLines();
    const summary = lines.filter((l) => l.includes('only counted'));
    expect(summary).toHaveLength(1);
    expect(summary[0]).toContain('"count":499');
    expect(lines.at(-1)).toMatch(/agent stopped/);
  });
});
