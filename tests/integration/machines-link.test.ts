/**
 * Linking agents, with real agents on this machine, each with its own data dir, tmux server
 * and port: the other machine serves HTTPS with a self-signed certificate of its own, prints a
 * link code, and the home agent (plain HTTP on loopback, as a phone's home agent on a laptop)
 * claims it through the CLI. The pin is checked on every connection, before anything is sent.
 */
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeLinkCode } from '../../agent/machines/link-code.js';
import { MachineClient } from '../../agent/machines/machine-client.js';
import type { MachineRecord } from '../../agent/machines/machine-store.js';
import type { DevicesResponse } from '../../protocol/api.js';
import type { MachineLinkResponse, MachineView } from '../../protocol/machines.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, testCertificate } from '../support/agent.js';

let home: AgentHandle;
let other: AgentHandle;
const otherEnv = newTestEnvironment();
let otherCert: { cert: string; key: string };

async function cli(agent: AgentHandle, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCli([...args, '--data-dir', agent.dataDir], agentEnv(agent), 30_000);
}

async function json<T>(agent: AgentHandle, ...args: string[]): Promise<T> {
  const run = await cli(agent, ...args, '--json');
  if (run.code !== 0) throw new Error(`pocketmux ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

async function linkCode(agent: AgentHandle): Promise<MachineLinkResponse> {
  return json<MachineLinkResponse>(agent, 'machines', 'link-code');
}

beforeAll(async () => {
  otherCert = testCertificate(otherEnv.root, 30);
  other = await startAgent({ reuse: otherEnv, args: ['--tls-cert', otherCert.cert, '--tls-key', otherCert.key] });
  home = await startAgent();
}, 60_000);

afterAll(cleanupAgents);

describe('linking another agent', () => {
  it('links with a one-time code over a pinned certificate, keeps what it needs 0600, and is listed on both sides', async () => {
    expect(other.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    const link = await linkCode(other);
    expect(link.trust).toBe('pinned');
    expect(link.validForSeconds).toBe(600);

    // What a person reads on the other machine: the command to run at home, with the code.
    const printed = await cli(other, 'machines', 'link-code');
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^ {2}pocketmux machines add pmlink1\.[A-Za-z0-9_-]+$/m);
    expect(printed.stdout).toContain('It works once, for 10 minutes');

    const added = await cli(home, 'machines', 'add', link.code, '--name', 'Build box');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const pin = new X509Certificate(readFileSync(otherCert.cert)).fingerprint256;
    expect(added.stdout).toBe(`linked “Build box” (${/\((mc-[a-z0-9]+)\)/.exec(added.stdout)?.[1]}) at ${other.url}: its own certificate, pinned (SHA-256 ${pin})\n`);

    const machines = await json<MachineView[]>(home, 'machines');
    expect(machines).toHaveLength(1);
    expect(machines[0]).toMatchObject({ name: 'Build box', url: other.url, trust: 'pinned', pin, reach: 'ok', problem: null });

    // The credential and the key live in a file only the user reads.
    const file = join(home.dataDir, 'machines.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { machines: { credential: string; privateKey: string; remoteDeviceId: string }[] };
    expect(kept.machines[0]?.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);

    // The other agent lists the home agent among its devices, as a machine.
    const devices = await json<DevicesResponse['devices']>(other, 'devices');
    const linked = devices.find((d) => d.id === kept.machines[0]?.remoteDeviceId);
    expect(linked).toMatchObject({ kind: 'machine', platform: 'pocketmux agent', binding: 'key' });
  });

  it('refuses the same code twice, and a code that was damaged, saying why', async () => {
    const link = await linkCode(other);
    const third = await startAgent();
    expect((await cli(third, 'machines', 'add', link.code)).code).toBe(0);
    const again = await startAgent();
    const reused = await cli(again, 'machines', 'add', link.code);
    expect(reused.code).toBe(1);
    expect(reused.stderr).toContain('refused the link: this pairing link was used already');
    const cut = await cli(again, 'machines', 'add', link.code.slice(0, 40));
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain('the link code is damaged');
    const foreign = await cli(again, 'machines', 'add', 'hello');
    expect(foreign.stderr).toContain('not a link code: it starts with pmlink1.');
    expect(await json<MachineView[]>(again, 'machines')).toEqual([]);
  }, 60_000);

  it('sends nothing to an agent whose certificate is not the pinned one: the code stays unspent', async () => {
    const link = await linkCode(other);
    const real = JSON.parse(Buffer.from(link.code.slice('pmlink1.'.length), 'base64url').toString('utf8')) as Parameters<typeof encodeLinkCode>[0];
    const wrongPin = real.pin?.replace(/^[0-9A-F]{2}/, (b) => (b === '00' ? '01' : '00')) ?? null;
    const forged = encodeLinkCode({ ...real, pin: wrongPin });
    const fresh = await startAgent();
    const refused = await cli(fresh, 'machines', 'add', forged);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`presents a certificate with SHA-256 ${real.pin}, not the ${wrongPin} pinned when it was linked: nothing was sent`);
    expect(await json<MachineView[]>(fresh, 'machines')).toEqual([]);
    // Had the pairing secret reached the other agent, the real code would now be spent.
    expect((await cli(fresh, 'machines', 'add', link.code)).code).toBe(0);
  }, 60_000);

  it('never links over plain HTTP to another machine', async () => {
    const link = await linkCode(other);
    const real = JSON.parse(Buffer.from(link.code.slice('pmlink1.'.length), 'base64url').toString('utf8')) as Parameters<typeof encodeLinkCode>[0];
    const plain = await cli(home, 'machines', 'add', encodeLinkCode({ ...real, url: 'http://192.0.2.7:8420/', pin: null }));
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('refusing plain HTTP to 192.0.2.7:8420: nothing goes to another machine without TLS');
  });

  it('renames; a linked machine may not pair devices or link machines there', async () => {
    const [machine] = await json<MachineView[]>(home, 'machines');
    if (!machine) throw new Error('no machine');
    const renamed = await cli(home, 'machines', 'rename', machine.id, 'Dev server');
    expect(renamed.stdout).toBe(`${machine.id} is now “Dev server”\n`);
    const record = (JSON.parse(readFileSync(join(home.dataDir, 'machines.json'), 'utf8')) as { machines: MachineRecord[] }).machines.find((m) => m.id === machine.id);
    if (!record) throw new Error('no record');
    // The home agent's own credential there, used as the home agent uses it.
    const client = new MachineClient({ url: record.url, pin: record.pin }, record);
    expect((await client.request('GET', '/api/session')).status).toBe(200);
    expect((await client.request('POST', '/api/pairings')).status).toBe(403);
    expect((await client.request('POST', '/api/machine-links')).status).toBe(403);
  });

  it('says why when the machine now serves another certificate, and when it removed this agent', async () => {
    // The other agent restarts on its port with a new certificate.
    await other.stop();
    const renewed = join(otherEnv.root, 'renewed');
    mkdirSync(renewed);
    const next = testCertificate(renewed, 30);
    other = await startAgent({ reuse: otherEnv, args: ['--tls-cert', next.cert, '--tls-key', next.key, '--port', String(other.port)] });
    const [changed] = await json<MachineView[]>(home, 'machines');
    expect(changed?.reach).toBe('certificate');
    expect(changed?.problem).toContain(`presents a certificate with SHA-256 ${new X509Certificate(readFileSync(next.cert)).fingerprint256}, not the`);

    // Back on its first certificate, it answers again.
    await other.stop();
    other = await startAgent({ reuse: otherEnv, args: ['--tls-cert', otherCert.cert, '--tls-key', otherCert.key, '--port', String(other.port)] });
    const [back] = await json<MachineView[]>(home, 'machines');
    expect(back?.reach).toBe('ok');

    // Removed from the other agent's devices: the home agent is told so, and says it.
    const record = (JSON.parse(readFileSync(join(home.dataDir, 'machines.json'), 'utf8')) as { machines: { remoteDeviceId: string }[] }).machines[0];
    expect((await cli(other, 'devices', 'revoke', record?.remoteDeviceId as string)).code).toBe(0);
    const [revoked] = await json<MachineView[]>(home, 'machines');
    expect(revoked?.reach).toBe('revoked');
    expect(revoked?.problem).toContain('no longer knows this one: it was removed from its devices list there');
  }, 60_000);

  it('removing a machine takes this agent off its devices too', async () => {
    const link = await linkCode(other);
    const [old] = await json<MachineView[]>(home, 'machines');
    await cli(home, 'machines', 'remove', old?.id as string);
    expect((await cli(home, 'machines', 'add', link.code)).code).toBe(0);
    const [machine] = await json<MachineView[]>(home, 'machines');
    const before = await json<DevicesResponse['devices']>(other, 'devices');
    const removed = await cli(home, 'machines', 'remove', machine?.id as string);
    expect(removed.stdout).toBe(`removed ${machine?.id}: it no longer lists this agent among its devices\n`);
    const after = await json<DevicesResponse['devices']>(other, 'devices');
    expect(after.length).toBe(before.length - 1);
    expect(await json<MachineView[]>(home, 'machines')).toEqual([]);
  });
});
