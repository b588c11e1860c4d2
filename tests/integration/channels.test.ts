/**
 * The JSON channels (/api/sync, /api/status, /api/timeline) against clients that misbehave:
 * one that asks for snapshots and never reads them, one that stalls and comes back, one
 * that stops answering pings.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspacesResponse } from '../../protocol/api.js';
import type { StatusServerMessage } from '../../protocol/status.js';
import type { TimelineServerMessage } from '../../protocol/timeline.js';
import { type AgentHandle, cleanupAgents, startAgent } from '../support/agent.js';
import { RawChannel, procBytesRead, procMemory, unreadByAgent } from '../support/channels.js';
import { api, claim, firstWorkspaceId, type Session, deviceHeaders } from '../support/client.js';
import { eventually } from '../support/eventually.js';

const MB = 1024 * 1024;

let agent: AgentHandle;
let session: Session;

/** Posts a hook the way hook.sh does, for a session the agent does not manage. */
async function postHook(target: AgentHandle, event: string, payload: Record<string, unknown>): Promise<void> {
  const token = readFileSync(join(target.dataDir, 'hook-token'), 'utf8').trim();
  const res = await fetch(new URL(`/hooks/${event}`, target.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pocketmux-token': token },
    body: JSON.stringify({ hook_event_name: event, ...payload }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(204);
}

/** Waits until the agent has read everything a client sent, then until it answers REST. */
async function agentHasRead(channel: RawChannel): Promise<void> {
  await eventually(() => unreadByAgent(agent.port, channel.localPort) === 0, 60_000, 'the agent to read the flood');
  const res = await fetch(new URL('/api/workspaces', agent.url), { headers: deviceHeaders(session, 'GET', '/api/workspaces'), signal: AbortSignal.timeout(30_000) });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  agent = await startAgent();
  session = await claim(agent);
  // Workspaces with long directories make every sync snapshot some 30 KB, as a busy agent's are.
  const deep = join(agent.home, ...Array.from({ length: 15 }, (_, i) => `${String.fromCharCode(97 + i)}`.repeat(200)));
  mkdirSync(deep, { recursive: true });
  for (let i = 0; i < 9; i++) expect((await api(session, 'POST', '/api/workspaces', { dir: deep, name: `deep ${i}` })).status).toBe(201);
});
afterAll(cleanupAgents);

describe('a client that asks for snapshots and never reads them', () => {
  it('costs the agent a bounded amount of memory on /api/sync, and the agent keeps answering', async () => {
    const flooder = new RawChannel(session, '/api/sync');
    await flooder.opened;
    await eventually(() => flooder.of('sync:snapshot').length > 0, 10_000, 'the first snapshot');
    expect(JSON.stringify(flooder.messages[0]).length).toBeGreaterThan(25_000);
    flooder.pause();

    const before = procMemory(agent.pid, 'VmRSS');
    await flooder.flood(JSON.stringify({ type: 'sync:request' }), 20_000);
    await agentHasRead(flooder);
    const peak = procMemory(agent.pid, 'VmHWM');
    console.log(`/api/sync flood: agent RSS ${(before / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB`);
    expect(peak - before).toBeLessThan(64 * MB);

    // Others are still served.
    const other = new RawChannel(session, '/api/sync');
    await eventually(() => other.of('sync:snapshot').length > 0, 10_000, 'a snapshot for another client');
    const listed = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces');
    expect(listed.body.workspaces).toHaveLength(10);
    other.ws.close();
    flooder.ws.terminate();
  });

  it('costs the agent a bounded amount of memory on /api/status', async () => {
    // Sessions with long transcript paths make every status snapshot some 30 KB.
    for (let i = 0; i < 40; i++) {
      await postHook(agent, 'SessionStart', {
        session_id: `padded-${i}`,
        transcript_path: join(agent.home, '.claude', 'projects', 'p'.repeat(200), `${'s'.repeat(200)}-${i}.jsonl`),
      });
    }
    const flooder = new RawChannel(session, '/api/status');
    await eventually(() => flooder.of('status:sync').length > 0, 10_000, 'the first status:sync');
    expect(JSON.stringify(flooder.messages[0]).length).toBeGreaterThan(25_000);
    flooder.pause();

    const before = procMemory(agent.pid, 'VmRSS');
    await flooder.flood(JSON.stringify({ type: 'status:request-sync' }), 20_000);
    await agentHasRead(flooder);
    const peak = procMemory(agent.pid, 'VmHWM');
    console.log(`/api/status flood: agent RSS ${(before / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB`);
    expect(peak - before).toBeLessThan(64 * MB);
    flooder.ws.terminate();
  });
});

describe('a client that stalls and comes back', () => {
  it('gets a fresh status:sync in place of the updates it could not take, so it misses no state', async () => {
    const client = new RawChannel(session, '/api/status');
    await eventually(() => client.of('status:sync').length === 1, 10_000, 'the first status:sync');
    client.pause();
    // Far more than the kernel holds for a socket: the agent has to hold the rest, or not.
    const loud = 'n'.repeat(256 * 1024);
    const notifications = 40;
    for (let i = 0; i < notifications; i++) await postHook(agent, 'Notification', { session_id: 'stalled', message: `${i} ${loud}` });
    await postHook(agent, 'Stop', { session_id: 'stalled' });
    client.resume();

    const synced = await eventually(
      () => client.of<Extract<StatusServerMessage, { type: 'status:sync' }>>('status:sync').find((m, i) => i > 0 && m.tabs['outside-stalled']?.state === 'ready-for-review'),
      20_000,
      'a fresh status:sync showing the last state',
    );
    expect(synced.tabs['outside-stalled']?.seq).toBe(notifications + 1);
    expect(client.of('status:hook-event').length).toBeLessThan(notifications);
    client.ws.close();
  });
});

describe('heartbeat on the JSON channels', () => {
  it('cuts sync, status and timeline clients that stop answering pings, and keeps those that answer', async () => {
    const quick = await startAgent({ env: { POCKETMUX_HEARTBEAT_INTERVAL_MS: '100', POCKETMUX_HEARTBEAT_TIMEOUT_MS: '2000' } });
    const s = await claim(quick);
    // A timeline follows only a session the agent knows: one is made known by its first hook.
    await postHook(quick, 'SessionStart', { session_id: 'nobody' });
    const paths = ['/api/sync', '/api/status', '/api/timeline?tab=outside-nobody'];
    const silent = paths.map((path) => new RawChannel(s, path, { autoPong: false }));
    const answering = paths.map((path) => new RawChannel(s, path));
    await Promise.all([...silent, ...answering].map((c) => c.opened));
    for (const [i, channel] of silent.entries()) {
      const closed = await Promise.race([
        channel.closed,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
      ]);
      expect(closed, `${paths[i]} without pongs`).toMatchObject({ code: 1006 });
    }
    for (const channel of answering) expect(channel.ws.readyState).toBe(channel.ws.OPEN);
    for (const channel of answering) channel.ws.close();
  });
});

describe('transcripts named by hooks', () => {
  let reader: AgentHandle;
  let s: Session;
  const projects = () => join(reader.home, '.claude', 'projects');

  beforeAll(async () => {
    reader = await startAgent({ env: { POCKETMUX_TRANSCRIPT_POLL_MS: '100' } });
    s = await claim(reader);
  });

  const logText = () => {
    const path = join(reader.dataDir, 'logs', 'agent.log');
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  const refusalLogged = (path: string) =>
    logText()
      .split('\n')
      .some((l) => l.includes('refused to read a transcript') && l.includes(JSON.stringify(path)));

  it('never opens a FIFO, a device or a file outside the projects folder, and keeps answering', async () => {
    const dir = join(projects(), '-home-someone');
    mkdirSync(dir, { recursive: true });
    const fifos = [0, 1, 2, 3].map((i) => join(dir, `fifo-${i}.jsonl`));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const linked = join(dir, 'linked.jsonl');
    execFileSync('ln', ['-s', '/etc/passwd', linked]);
    const paths = [...fifos, '/dev/zero', '/etc/passwd', linked];

    const timelines: RawChannel[] = [];
    for (const [i, path] of paths.entries()) {
      // Busy: the agent follows the transcript for Esc, and the timeline reads it.
      await postHook(reader, 'UserPromptSubmit', { session_id: `odd-${i}`, transcript_path: path, prompt: 'hi' });
      timelines.push(new RawChannel(s, `/api/timeline?tab=outside-odd-${i}`));
    }
    for (const timeline of timelines) {
      const page = await eventually(() => timeline.of<Extract<TimelineServerMessage, { type: 'timeline:page' }>>('timeline:page')[0], 10_000, 'a timeline page');
      expect(page.entries).toEqual([]);
    }

    // Still answering, file system work included (it shares the thread pool a blocked open would hold).
    const workspaceId = await firstWorkspaceId(s);
    const res = await fetch(new URL(`/api/workspaces/${workspaceId}/claude-sessions`, reader.url), {
      headers: deviceHeaders(s, 'GET', `/api/workspaces/${workspaceId}/claude-sessions`),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);

    await eventually(() => paths.every((p) => logText().includes(JSON.stringify(p))), 10_000, 'a refusal logged for every path');
    // Many polls later, still one line per path. A poll walks the sessions in the order they
    // came, so the refusal of a transcript named later shows a poll that went past these first.
    for (const [round, later] of ['/etc/hostname', '/etc/hosts', '/etc/group', '/etc/shells', '/etc/os-release'].entries()) {
      await postHook(reader, 'UserPromptSubmit', { session_id: `odd-later-${round}`, transcript_path: later, prompt: 'hi' });
      await eventually(() => refusalLogged(later), 10_000, `a refusal logged for ${later}`);
    }
    for (const path of paths) {
      const lines = logText().split('\n').filter((l) => l.includes('refused to read a transcript') && l.includes(JSON.stringify(path)));
      expect(lines, path).toHaveLength(1);
    }

    // Nobody holds a FIFO open for reading: a writer that will not wait finds no reader.
    for (const fifo of fifos) {
      let code = 'opened';
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch (err) {
        code = (err as NodeJS.ErrnoException).code ?? 'error';
      }
      expect(code, fifo).toBe('ENXIO');
    }
    for (const timeline of timelines) timeline.ws.close();
  });

  it('resumes a transcript from where it stopped when a timeline reconnects, instead of reading it again', async () => {
    const dir = join(projects(), '-home-someone-big');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'big.jsonl');
    const fixture = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332', 'transcript.jsonl'), 'utf8');
    writeFileSync(path, fixture.repeat(150));
    const size = Buffer.byteLength(fixture) * 150;
    expect(size).toBeGreaterThan(4 * MB);
    await postHook(reader, 'SessionStart', { session_id: 'big', transcript_path: path });

    const pageOf = async (channel: RawChannel) =>
      eventually(() => channel.of<Extract<TimelineServerMessage, { type: 'timeline:page' }>>('timeline:page').find((p) => p.entries.length > 0), 20_000, 'a page of entries');
    const first = new RawChannel(s, '/api/timeline?tab=outside-big');
    const firstPage = await pageOf(first);
    first.ws.close();
    await first.closed;

    const before = procBytesRead(reader.pid);
    const second = new RawChannel(s, '/api/timeline?tab=outside-big');
    const secondPage = await pageOf(second);
    const read = procBytesRead(reader.pid) - before;
    expect(secondPage.entries).toEqual(firstPage.entries);
    expect(read).toBeLessThan(size / 4);
    second.ws.close();
  });

  it('reads a working transcript once for both the status monitor and a timeline that shows it', async () => {
    const dir = join(projects(), '-home-someone-shared');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'shared.jsonl');
    const fixture = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332', 'transcript.jsonl'), 'utf8');
    writeFileSync(path, fixture);
    // Busy: the monitor follows the transcript for Esc, every 100 ms here.
    await postHook(reader, 'UserPromptSubmit', { session_id: 'shared', transcript_path: path, prompt: 'hi' });
    const timeline = new RawChannel(s, '/api/timeline?tab=outside-shared');
    await eventually(
      () => timeline.of<Extract<TimelineServerMessage, { type: 'timeline:page' }>>('timeline:page').find((p) => p.entries.length > 0),
      20_000,
      'a page of entries',
    );

    const growth = fixture.repeat(100);
    const size = Buffer.byteLength(growth);
    expect(size).toBeGreaterThan(2 * MB);
    const before = procBytesRead(reader.pid);
    appendFileSync(path, growth);
    await eventually(() => procBytesRead(reader.pid) - before >= size && timeline.of('timeline:append').length > 0, 20_000, 'the growth read and shown');
    // Many monitor polls later (each refusal of a transcript named later shows a poll that went
    // past this one first), and timeline polls meanwhile: a second reader would have read it all again.
    for (const [round, later] of ['/etc/fstab', '/etc/issue', '/etc/debian_version', '/etc/nsswitch.conf', '/etc/profile'].entries()) {
      await postHook(reader, 'UserPromptSubmit', { session_id: `shared-later-${round}`, transcript_path: later, prompt: 'hi' });
      await eventually(() => refusalLogged(later), 10_000, `a refusal logged for ${later}`);
    }
    expect(procBytesRead(reader.pid) - before).toBeLessThan(1.5 * size);
    timeline.ws.close();
  });
});
