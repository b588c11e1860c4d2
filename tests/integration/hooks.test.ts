import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabStatus } from '../../protocol/status.js';
import { HOOK_BODY_BYTES } from '../../agent/http/hook-routes.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, } from '../support/agent.js';
import { api, claim, createTab, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { runHookScript } from '../support/hook-script.js';
import { paneEnv, StatusClient } from '../support/status.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332');
const captured = readFileSync(join(FIXTURES, 'hooks.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { hook_event_name: string; session_id: string });

let agent: AgentHandle;
let session: Session;

beforeAll(async () => {
  agent = await startAgent();
  session = await claim(agent);
});
afterAll(cleanupAgents);


/** A Stop payload padded, in Claude's last message, to exactly `bytes` of JSON. */
function sizedStop(stop: string, bytes: number): string {
  const bare = JSON.stringify({ ...JSON.parse(stop), last_assistant_message: '' });
  return JSON.stringify({ ...JSON.parse(stop), last_assistant_message: 'x'.repeat(bytes - Buffer.byteLength(bare)) });
}

/** Runs the installed hook script exactly as Claude would: sh, payload on stdin, pane in env. */
const runHook = (event: string, payload: unknown, env: Record<string, string>) => runHookScript(agent.dataDir, event, payload, env);

function tabPaneEnv(tabId: string, workspaceId: string): Promise<Record<string, string>> {
  return paneEnv(agent, { id: tabId, workspaceId });
}

describe('Claude hooks', () => {
  it('installs HTTP and command-only settings files and a private script for every event', () => {
    type Settings = { hooks: Record<string, { matcher: string; hooks: { type: string; command?: string; url?: string; timeout: number }[] }[]> };
    const read = (name: string) => JSON.parse(readFileSync(join(agent.dataDir, 'hooks', name), 'utf8')) as Settings;
    const http = read('settings.json');
    const command = read('settings-command.json');
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'Notification', 'PostToolUse', 'Stop', 'SessionEnd', 'PreCompact', 'PostCompact']) {
      const entry = command.hooks[event]?.[0];
      expect(entry?.matcher, event).toBe('');
      expect(entry?.hooks[0]?.type).toBe('command');
      expect(entry?.hooks[0]?.command).toContain(`hook.sh' ${event}`);
      const viaHttp = http.hooks[event]?.[0]?.hooks[0];
      if (event === 'SessionStart') expect(viaHttp?.command).toContain(`hook.sh' ${event}`);
      else expect(viaHttp).toMatchObject({ type: 'http', url: `http://127.0.0.1:${agent.port}/hooks/${event}` });
    }
    expect(command.hooks.PermissionRequest?.[0]?.hooks[0]?.timeout).toBeGreaterThanOrEqual(300);
    expect(http.hooks.PermissionRequest?.[0]?.hooks[0]?.timeout).toBeGreaterThanOrEqual(300);
    for (const name of ['settings.json', 'settings-command.json']) expect(statSync(join(agent.dataDir, 'hooks', name)).mode & 0o777, name).toBe(0o600);
    const script = readFileSync(join(agent.dataDir, 'hooks', 'hook.sh'), 'utf8');
    expect(script).toContain(`http://127.0.0.1:${agent.port}/hooks/`);
    // The hot path starts sh and one curl, nothing else.
    expect(script).not.toMatch(/\b(tmux|cat|node|python)\b/);
    expect(statSync(join(agent.dataDir, 'hooks', 'hook.sh')).mode & 0o777).toBe(0o700);
    expect(statSync(join(agent.dataDir, 'hook-token')).mode & 0o777).toBe(0o600);
    // The token reaches curl from this file, never on its command line.
    const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
    expect(script).not.toContain(token);
    expect(script).toContain(`-H @'${join(agent.dataDir, 'hooks', 'token-header')}'`);
    expect(readFileSync(join(agent.dataDir, 'hooks', 'token-header'), 'utf8')).toBe(`X-Pocketmux-Token: ${token}\n`);
    expect(statSync(join(agent.dataDir, 'hooks', 'token-header')).mode & 0o777).toBe(0o600);
  });

  it('moves a tab through the states of a real session, seen on /api/status', async () => {
    const tab = await createTab(session);
    const env = await tabPaneEnv(tab.id, tab.workspaceId);
    const client = new StatusClient(session);
    await client.opened;
    const seen: string[] = [];
    // The agent holds a PermissionRequest until it is settled: here by what follows it in the
    // session (the tool running, a new prompt), as when the person answers in the terminal.
    const held: ReturnType<typeof runHook>[] = [];
    for (const payload of captured) {
      if (payload.hook_event_name === 'PermissionRequest') held.push(runHook(payload.hook_event_name, payload, env));
      else {
        const r = await runHook(payload.hook_event_name, payload, env);
        expect(r.code).toBe(0);
        expect(r.stdout).toBe('');
      }
      const status = await eventually(() => {
        const s = client.latest(tab.id);
        return s && s.seq === seen.length + 1 ? s : null;
      }, 5000, `status after ${payload.hook_event_name}`);
      seen.push(`${payload.hook_event_name}:${status.state}`);
    }
    expect(seen).toEqual([
      'SessionStart:idle',
      'UserPromptSubmit:busy',
      'PreToolUse:busy',
      'PermissionRequest:needs-input',
      'Notification:needs-input',
      'PostToolUse:busy',
      'Stop:ready-for-review',
      'UserPromptSubmit:busy',
      'PreToolUse:busy',
      'PermissionRequest:needs-input',
      'UserPromptSubmit:busy',
      'SessionEnd:idle',
    ]);
    expect(client.messages.filter((m) => m.type === 'status:hook-event')).toHaveLength(captured.length);
    // Both were let go with no decision, so the dialog was the person's to answer.
    for (const r of await Promise.all(held)) expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(client.messages.filter((m) => m.type === 'approval-resolved').map((m) => m.type === 'approval-resolved' && m.resolution.outcome)).toEqual([
      'answered-in-terminal',
      'answered-in-terminal',
    ]);
    client.ws.close();
  });

  it('keeps a tab waiting while one of two permission requests is still open', async () => {
    const tab = await createTab(session);
    const env = await tabPaneEnv(tab.id, tab.workspaceId);
    const client = new StatusClient(session);
    await client.opened;
    const request = captured.find((p) => p.hook_event_name === 'PermissionRequest') as Record<string, unknown>;
    const asks = ['echo one', 'echo two'].map((command) => ({ ...request, tool_input: { command, description: command } }));
    const hooks = asks.map((ask) => runHook('PermissionRequest', ask, env));
    const open = await eventually(() => (client.openApprovals().length === 2 ? client.openApprovals() : null), 5000, 'two approvals');
    const first = open.find((a) => a.summary.body === 'echo one');
    expect((await api(session, 'POST', `/api/approvals/${first?.id}`, { decision: 'allow' })).status).toBe(200);
    // The first tool ran; Claude still waits on the second.
    const ran = { ...captured.find((p) => p.hook_event_name === 'PostToolUse'), tool_input: asks[0]?.tool_input };
    await runHook('PostToolUse', ran, env);
    // The hook's own update, then the one the open approval makes: the last word is needs-input.
    const heard = await eventually(() => {
      const i = client.messages.findIndex((m) => m.type === 'status:hook-event' && m.hook.tabId === tab.id && m.hook.event === 'PostToolUse');
      return i >= 0 ? i : null;
    }, 5000, 'PostToolUse');
    await eventually(() => client.messages.slice(heard).some((m) => m.type === 'status:update' && m.tabId === tab.id && m.status.state === 'needs-input'), 5000, 'needs-input again');
    expect(client.latest(tab.id)?.state).toBe('needs-input');
    expect(client.openApprovals().map((a) => a.summary.body)).toEqual(['echo two']);
    await runHook('PostToolUse', { ...ran, tool_input: asks[1]?.tool_input }, env);
    await client.waitState(tab.id, 'busy', () => true, 5000);
    expect(client.openApprovals()).toEqual([]);
    const [one, two] = await Promise.all(hooks);
    expect(JSON.parse(one?.stdout ?? '')).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'allow' } } });
    expect(two?.stdout).toBe('');
    client.ws.close();
  });

  it('holds a PermissionRequest from the script until a device decides, and the script prints the decision', async () => {
    const tab = await createTab(session);
    const env = await tabPaneEnv(tab.id, tab.workspaceId);
    const client = new StatusClient(session);
    await client.opened;
    const request = captured.find((p) => p.hook_event_name === 'PermissionRequest');
    const hook = runHook('PermissionRequest', request, env);
    const approval = await client.waitApproval(tab.id, 5000);
    expect(approval).toMatchObject({ kind: 'permission', tool: 'Bash', alwaysAllow: expect.stringContaining('/opt/hooks') });
    const decided = await api(session, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow-always' });
    expect(decided.status).toBe(200);
    const r = await hook;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedPermissions: [{ type: 'addDirectories', directories: ['/opt/hooks'], destination: 'session' }] },
      },
    });
    client.ws.close();
  });

  it('clears ready-for-review when a client dismisses the tab', async () => {
    const tab = await createTab(session);
    const env = await tabPaneEnv(tab.id, tab.workspaceId);
    const client = new StatusClient(session);
    await client.opened;
    const stop = captured.find((p) => p.hook_event_name === 'Stop');
    await runHook('Stop', stop, env);
    await eventually(() => client.latest(tab.id)?.state === 'ready-for-review', 5000, 'ready-for-review');
    client.ws.send(JSON.stringify({ type: 'status:tab-dismissed', tabId: tab.id }));
    await eventually(() => client.latest(tab.id)?.state === 'idle', 5000, 'idle after dismiss');
    client.ws.send('not json');
    await eventually(() => client.messages.some((m) => m.type === 'status:error'), 5000, 'an error reply');
    client.ws.close();
  });

  it('keeps events from a pane it does not manage as an outside session', async () => {
    const client = new StatusClient(session);
    await client.opened;
    const start = { ...captured[0], session_id: 'outside-1234' };
    await runHook('SessionStart', start, { TMUX_PANE: '%999', TMUX: '/tmp/tmux-0/default,1,0' });
    await eventually(() => client.latest('outside-outside-1234')?.state === 'idle', 5000, 'outside session');
    client.ws.close();
  });

  it('refuses bad input with a clear status and changes nothing', async () => {
    const tab = await createTab(session);
    const env = await tabPaneEnv(tab.id, tab.workspaceId);
    const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
    const before = JSON.stringify((await statusSnapshot()).tabs[tab.id] ?? null);
    const send = (method: string, path: string, body: string | ReadableStream | undefined, headers: Record<string, string> = {}) =>
      fetch(new URL(path, agent.url), {
        method,
        headers: { 'content-type': 'application/json', 'x-pocketmux-token': token, 'x-pocketmux-pane': env.TMUX_PANE as string, 'x-pocketmux-tmux': env.TMUX as string, ...headers },
        body,
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit);
    const post = (path: string, body: string, headers: Record<string, string> = {}) => send('POST', path, body, headers);
    const stop = JSON.stringify(captured.find((p) => p.hook_event_name === 'Stop'));
    // Sent in pieces with no length declared: the cap holds while the body is read.
    const streamed = (text: string) => {
      const bytes = Buffer.from(text);
      let at = 0;
      return new ReadableStream({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.subarray(at, at + 256 * 1024));
          at += 256 * 1024;
        },
      });
    };
    const cases: [string, Promise<Response>, number, RegExp][] = [
      ['malformed JSON', post('/hooks/Stop', '{"session_id": '), 400, /JSON/],
      ['wrong types', post('/hooks/UserPromptSubmit', JSON.stringify({ session_id: 's', hook_event_name: 'UserPromptSubmit', prompt: 42 })), 400, /prompt/],
      ['missing required field', post('/hooks/Stop', JSON.stringify({ hook_event_name: 'Stop' })), 400, /session_id/],
      // zod's length check threw on a `length` no number can be made of, rather than failing.
      ['a length that is no number', post('/hooks/Stop', JSON.stringify({ ...JSON.parse(stop), session_id: { length: { toString: 1, valueOf: 1 } } })), 400, /session_id|cannot be checked/],
      ['unknown event', post('/hooks/Bogus', stop), 400, /unknown hook event/],
      ['event mismatch', post('/hooks/SessionEnd', stop), 400, /posted to SessionEnd/],
      ['a body one byte past 2 MB', post('/hooks/Stop', sizedStop(stop, HOOK_BODY_BYTES + 1)), 413, /too large/],
      ['the same, streamed with no length', send('POST', '/hooks/Stop', streamed(sizedStop(stop, HOOK_BODY_BYTES + 1))), 413, /too large/],
      ['no body', post('/hooks/Stop', ''), 400, /no body/],
      ['JSON that is no object', post('/hooks/Stop', '"Stop"'), 400, /JSON object/],
      ['a compressed body', post('/hooks/Stop', stop, { 'content-encoding': 'gzip' }), 415, /compressed/],
      ['a GET', send('GET', '/hooks/Stop', undefined), 405, /POST/],
      ['a path below an event', post('/hooks/Stop/again', stop), 404, /hooks\/<event>/],
      ['a GET without the token', send('GET', '/hooks/Stop', undefined, { 'x-pocketmux-token': '' }), 401, /hook token/],
      ['no token', post('/hooks/Stop', stop, { 'x-pocketmux-token': '' }), 401, /hook token/],
      ['a wrong token', post('/hooks/Stop', stop, { 'x-pocketmux-token': 'A'.repeat(token.length) }), 401, /hook token/],
      ['a browser Origin', post('/hooks/Stop', stop, { origin: agent.url.slice(0, -1) }), 403, /browser/],
    ];
    for (const [name, request, status, message] of cases) {
      const res = await request;
      expect(res.status, name).toBe(status);
      expect(((await res.json()) as { error: string }).error, name).toMatch(message);
    }
    // fetch will not send another Host: node:http does. A rebound name is refused here too.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(new URL('/hooks/Stop', agent.url), { method: 'POST', headers: { host: `rebind.example:${agent.port}`, 'x-pocketmux-token': token, 'x-pocketmux-pane': env.TMUX_PANE as string, 'x-pocketmux-tmux': env.TMUX as string } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end(stop);
    });
    expect(rebound.status).toBe(421);
    expect(rebound.body).toMatch(/does not answer to the host/);
    // A client gone halfway through its body: nothing is taken, and the intake still answers.
    const half = connect(agent.port, '127.0.0.1');
    await once(half, 'connect');
    const cutBefore = agent.stderr().length;
    // Handed to the kernel before the close, so the agent reads the headers and a part of the body.
    await new Promise((resolve) => half.write(
      `POST /hooks/Stop HTTP/1.1\r\nHost: 127.0.0.1:${agent.port}\r\nX-Pocketmux-Token: ${token}\r\nX-Pocketmux-Pane: ${env.TMUX_PANE}\r\n` +
        `X-Pocketmux-Tmux: ${env.TMUX}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(stop)}\r\n\r\n${stop.slice(0, 40)}`,
      resolve,
    ));
    half.destroy();
    // The agent saw the request cut in its body (its log says so) before the next one comes.
    await eventually(() => agent.stderr().slice(cutBefore).includes('hook intake failed {"error":"aborted"}'), 10_000, 'the agent to see the cut body', () => agent.stderr().slice(cutBefore));
    expect((await post('/hooks/Stop', '{')).status).toBe(400);
    expect(JSON.stringify((await statusSnapshot()).tabs[tab.id] ?? null)).toBe(before);
  });

  it('leaves a request whose tool input is nested 100,000 deep to the terminal, answered with no decision', async () => {
    const tab = await createTab(session);
    const env = await tabPaneEnv(tab.id, tab.workspaceId);
    const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
    const client = new StatusClient(session);
    await client.opened;
    const logBefore = agent.stderr().length;
    const post = (event: string, body: string) =>
      fetch(new URL(`/hooks/${event}`, agent.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pocketmux-token': token, 'x-pocketmux-pane': env.TMUX_PANE as string, 'x-pocketmux-tmux': env.TMUX as string },
        body,
      });
    // Written as text: JSON.stringify itself recurses, and could not write it.
    const depth = 100_000;
    const deepInput = `{"command":"echo deep","nested":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const deepQuestion = `{"questions":[{"question":"Which one?","header":"Pick","options":[{"label":"A","description":"a"}],"multiSelect":false}],"more":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const withInput = (event: string, fields: Record<string, unknown>, input: string) =>
      JSON.stringify({ ...captured.find((p) => p.hook_event_name === event), ...fields, tool_input: '<input>' }).replace('"<input>"', input);

    const bash = await post('PermissionRequest', withInput('PermissionRequest', {}, deepInput));
    expect(bash.status).toBe(200);
    expect(await bash.text()).toBe('');
    await client.waitState(tab.id, 'needs-input', () => true, 5000);
    const question = await post('PermissionRequest', withInput('PermissionRequest', { tool_name: 'AskUserQuestion' }, deepQuestion));
    expect(question.status).toBe(200);
    expect(await question.text()).toBe('');
    // Nothing was offered to answer: the dialogs are the terminal's.
    expect(client.openApprovals().filter((a) => a.tabId === tab.id)).toEqual([]);
    expect(client.latest(tab.id)?.state).toBe('needs-input');

    // The tool ran: its PostToolUse carries the same input, and moves the tab on.
    const ran = await post('PostToolUse', withInput('PostToolUse', {}, deepInput));
    expect(ran.status).toBe(204);
    await client.waitState(tab.id, 'busy', () => true, 5000);
    expect(agent.stderr().slice(logBefore)).not.toMatch(/hook intake failed/);
    expect(agent.stderr().slice(logBefore)).toMatch(/nested too deep to offer/);
    client.ws.close();
  });

  it('takes a body of exactly 2 MB, as Claude sends for a Write of a large file', async () => {
    const tab = await createTab(session);
    const env = await tabPaneEnv(tab.id, tab.workspaceId);
    const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
    const stop = JSON.stringify({ ...captured.find((p) => p.hook_event_name === 'Stop'), session_id: 'two-megabytes' });
    expect(HOOK_BODY_BYTES).toBe(2 * 1024 * 1024);
    const body = sizedStop(stop, HOOK_BODY_BYTES);
    expect(Buffer.byteLength(body)).toBe(HOOK_BODY_BYTES);
    const res = await fetch(new URL('/hooks/Stop', agent.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-pocketmux-token': token, 'x-pocketmux-pane': env.TMUX_PANE as string, 'x-pocketmux-tmux': env.TMUX as string },
      body,
    });
    expect(res.status).toBe(204);
    // Taken as a hook: the tab heard its Stop.
    await eventually(async () => ((await statusSnapshot()).tabs[tab.id]?.seq ?? 0) > 0, 10_000, 'the Stop to count');
  });

  it('takes statusLine reports as usage per tab, and still prints the person’s own line', async () => {
    const env = newTestEnvironment();
    mkdirSync(join(env.home, '.claude'), { recursive: true });
    writeFileSync(join(env.home, '.claude', 'settings.json'), JSON.stringify({ statusLine: { type: 'command', command: `printf 'my line'` } }));
    const own = await startAgent({ reuse: env });
    const s = await claim(own);
    const tab = await createTab(s);
    const { TMUX_PANE, TMUX } = await paneEnv(own, tab);
    const client = new StatusClient(s);
    await client.opened;
    const report = readFileSync(join(FIXTURES, 'statusline.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).at(-1) as string;
    const script = join(own.dataDir, 'hooks', 'hook.sh');
    const printed = await new Promise<string>((resolve) => {
      const child = spawn('/bin/sh', [script, 'statusline'], { env: { PATH: process.env.PATH, TMUX_PANE, TMUX } });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.on('exit', () => resolve(out));
      child.stdin.end(`${report}\n`);
    });
    expect(printed).toBe('my line');
    const usage = await eventually(() => client.latest(tab.id)?.usage, 5000, 'usage on /api/status');
    expect(usage).toMatchObject({ model: 'Opus 5.5', contextPercent: 0, costUsd: 0.00154, fiveHour: null });
    // A report changes no state and bumps no sequence.
    expect(client.latest(tab.id)).toMatchObject({ state: 'idle', seq: 0 });
    const settings = JSON.parse(readFileSync(join(own.dataDir, 'hooks', 'settings.json'), 'utf8')) as { statusLine: { command: string } };
    expect(settings.statusLine.command).toBe(`'${script}' statusline`);
    client.ws.close();
    await own.stop();
  });

  it('returns at once, silently and with exit 0, when the agent is down', async () => {
    const other = await startAgent();
    await other.stop();
    const script = join(other.dataDir, 'hooks', 'hook.sh');
    for (let i = 0; i < 40; i++) {
      const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn('/bin/sh', ['-c', `'${script}' Stop`]);
        // A script that waited on the missing agent would be cut here and fail below; how fast
        // it gives up is the bench's to measure, not a bound a loaded machine can hold.
        const cut = setTimeout(() => child.kill('SIGKILL'), 30_000);
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.stderr.on('data', (d) => {
          out += d;
        });
        child.on('exit', (code) => {
          clearTimeout(cut);
          resolve({ code, out });
        });
        child.stdin.end(`${JSON.stringify(captured[6])}\n`);
      });
      expect(r.code).toBe(0);
      expect(r.out).toBe('');
    }
  }, 120_000);
});

async function statusSnapshot(): Promise<{ tabs: Record<string, TabStatus> }> {
  const client = new StatusClient(session);
  await client.opened;
  const sync = await eventually(() => client.messages.find((m) => m.type === 'status:sync'), 5000, 'status sync');
  client.ws.close();
  return sync as { tabs: Record<string, TabStatus> };
}
