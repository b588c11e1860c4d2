import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionResponse, TabView, WorkspacesResponse, WorkspaceView } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, firstWorkspaceId, type Session, deviceHeaders } from '../support/client.js';

let agent: AgentHandle;
let session: Session;

beforeAll(async () => {
  agent = await startAgent();
  session = await claim(agent);
});
afterAll(cleanupAgents);

async function stateOnDisk(): Promise<string> {
  return readFileSync(join(agent.dataDir, 'workspaces.json'), 'utf8');
}

describe('access', () => {


  it('refuses a forged credential (401)', async () => {
    const forged: Session = { ...session, cookie: `${session.cookie.split('=')[0]}=${'A'.repeat(43)}` };
    expect((await api(forged, 'GET', '/api/workspaces')).status).toBe(401);
  });





  it('never writes the pairing secret or the credential to its log', async () => {
    const log = readFileSync(join(agent.dataDir, 'logs', 'agent.log'), 'utf8');
    expect(log).toMatch(/device paired/);
    expect(log).not.toContain(agent.pairCode.replace('-', ''));
    expect(log).not.toContain(agent.token);
    expect(log).not.toContain(session.cookie.split('=')[1]);
    expect(agent.stderr()).not.toContain(agent.token);
  });
});

describe('session', () => {
  it('names the device and tells the agent home, for showing paths as ~', async () => {
    const res = await api<SessionResponse>(session, 'GET', '/api/session');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deviceName: 'test device', home: agent.home });
    expect(res.body.deviceId).toMatch(/^dv-/);
  });
});

describe('workspaces and tabs', () => {
  it('creates, renames and closes workspaces and tabs', async () => {
    const dir = join(agent.home, 'proj');
    mkdirSync(dir, { recursive: true });
    const created = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: '~/proj' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'proj', dir, tabs: [] });
    const wsId = created.body.id;

    const renamed = await api<WorkspaceView>(session, 'PATCH', `/api/workspaces/${wsId}`, { name: '  Project X  ' });
    expect(renamed.body.name).toBe('Project X');

    const tab = await createTab(session, wsId);
    expect(tab).toMatchObject({ workspaceId: wsId, cwd: dir, alive: true, name: null });
    const path = await tmux(agent.tmuxSocket, 'display', '-p', '-t', `=pm_${wsId}_${tab.id}:`, '#{pane_current_path}');
    expect(path.trim()).toBe(dir);

    const tabRenamed = await api<TabView>(session, 'PATCH', `/api/tabs/${tab.id}`, { name: 'server' });
    expect(tabRenamed.body.name).toBe('server');

    const list = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces');
    const mine = list.body.workspaces.find((w) => w.id === wsId);
    expect(mine?.tabs.map((t) => [t.id, t.name])).toEqual([[tab.id, 'server']]);
    expect(mine?.tabs[0]?.title?.path).toBe(dir);

    expect((await api(session, 'DELETE', `/api/workspaces/${wsId}`)).status).toBe(204);
    // With its last session gone the tmux server exits too: no server also means no session.
    expect(await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}').catch(() => '')).not.toContain(tab.id);
    const after = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces');
    expect(after.body.workspaces.map((w) => w.id)).not.toContain(wsId);
  });

  it('refuses bad bodies with a clear message and changes nothing', async () => {
    const wsId = await firstWorkspaceId(session);
    writeFileSync(join(agent.home, 'a-file'), 'x');
    const before = await stateOnDisk();
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/api/workspaces', { dir: 'relative/path' }, 400, /absolute path/],
      ['POST', '/api/workspaces', { dir: '/nonexistent/dir' }, 400, /does not exist/],
      ['POST', '/api/workspaces', { dir: '~/a-file' }, 400, /not a directory/],
      ['POST', '/api/workspaces', { dir: 42 }, 400, /dir/],
      ['POST', '/api/workspaces', { dir: '/tmp', extra: true }, 400, /extra/],
      ['POST', '/api/workspaces', {}, 400, /dir/],
      ['PATCH', `/api/workspaces/${wsId}`, { name: '' }, 400, /must not be empty/],
      ['PATCH', `/api/workspaces/${wsId}`, { name: 'a\u0007b' }, 400, /control characters/],
      ['PATCH', `/api/workspaces/${wsId}`, { name: 'x'.repeat(81) }, 400, /at most 80/],
      // A `length` no number can be made of: zod's length check threw on it rather than failing.
      ['PATCH', `/api/workspaces/${wsId}`, { name: { length: { toString: 1, valueOf: 1 } } }, 400, /name/],
      ['PATCH', '/api/workspaces/NOT_AN_ID', { name: 'x' }, 400, /workspace id/],
      ['PATCH', '/api/workspaces/ws-missing', { name: 'x' }, 404, /no workspace/],
      ['POST', '/api/tabs', { workspaceId: 'ws-missing' }, 404, /no workspace/],
      ['POST', '/api/tabs', { workspaceId: 7 }, 400, /workspaceId/],
      ['DELETE', '/api/tabs/tb-missing', undefined, 404, /no tab/],
      ['GET', '/api/nowhere', undefined, 404, /no such API route/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const res = await api<{ error: string }>(session, method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body.error).toMatch(message);
    }
    // Malformed JSON and an oversized body, sent raw.
    const raw = async (body: string) =>
      fetch(new URL('/api/workspaces', agent.url), { method: 'POST', headers: { ...deviceHeaders(session, 'POST', '/api/workspaces'), 'content-type': 'application/json' }, body });
    const malformed = await raw('{"dir": ');
    expect(malformed.status).toBe(400);
    const huge = await raw(JSON.stringify({ dir: 'x'.repeat(600_000) }));
    expect(huge.status).toBe(413);
    expect(await stateOnDisk()).toBe(before);
    expect((await api(session, 'GET', '/api/session')).status).toBe(200);
  });

  it('refuses a Claude tab, clearly, when claude is not installed', async () => {
    const bare = await startAgent({ args: ['--claude-bin', 'claude-not-installed-here'] });
    const s = await claim(bare);
    const before = await api<{ tabs: TabView[] }>(s, 'GET', '/api/tabs');
    const res = await api<{ error: string }>(s, 'POST', '/api/tabs', { workspaceId: await firstWorkspaceId(s), kind: 'claude' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/claude-not-installed-here.*not found.*--claude-bin/);
    expect((await api<{ tabs: TabView[] }>(s, 'GET', '/api/tabs')).body.tabs).toEqual(before.body.tabs);
    const badMode = await api<{ error: string }>(s, 'POST', '/api/tabs', { workspaceId: await firstWorkspaceId(s), kind: 'claude', claude: { permissionMode: 'yolo' } });
    expect(badMode.status).toBe(400);
    expect(badMode.body.error).toMatch(/permissionMode/);
    await bare.stop();
  });

  it('serves the app shell to anyone, with a strict content security policy', async () => {
    const res = await fetch(agent.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(await res.text()).toMatch(/<html/i);
    const deep = await fetch(new URL('/t/tb-anything', agent.url));
    expect(deep.status).toBe(200);
  });
});
