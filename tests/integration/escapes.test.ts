import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DisplayName, type PairingResponse, type TabView, type WorkspacesResponse, type WorkspaceView } from '../../protocol/api.js';
import { type AgentHandle, agentEnv, cleanupAgents, runCli, startAgent, tmux } from '../support/agent.js';
import { api, claim, type Session, newDeviceKey } from '../support/client.js';
import { eventually } from '../support/eventually.js';

// A directory name that retitles the terminal and clears the screen when printed raw,
// then a C1 control (NEL) and a right-to-left override.
const HOSTILE = '\x1b]0;owned\x07\x1b[2J\u0085\u202e';
const HOSTILE_VISIBLE = '\\x1b]0;owned\\x07\\x1b[2J\\u0085\\u202e';
const HOSTILE_IN_JSON = '\\u001b]0;owned\\u0007\\u001b[2J\\u0085\\u202e';
// What must never reach a terminal: controls other than the line breaks of the output
// itself, C1, and bidi formatting characters.
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let agent: AgentHandle;
let session: Session;
let dir: string;
beforeAll(async () => {
  agent = await startAgent();
  session = await claim(agent);
  dir = join(agent.home, HOSTILE);
  mkdirSync(dir);
});
afterAll(cleanupAgents);

function cli(...args: string[]) {
  return runCli([...args, '--data-dir', agent.dataDir], agentEnv(agent));
}

function expectPrintable(out: { stdout: string; stderr: string }): void {
  expect(out.stdout).not.toMatch(RAW_UNSAFE);
  expect(out.stderr).not.toMatch(RAW_UNSAFE);
}

describe('text from paths, names and tmux reaches the terminal escaped', () => {
  it('tabs, tabs --json and tab status show a hostile directory as visible escapes', async () => {
    const created = await cli('tab', 'new', dir, '--json');
    expect(created.code).toBe(0);
    expectPrintable(created);
    const tab = JSON.parse(created.stdout) as TabView;
    expect(tab.cwd).toBe(dir);

    // The workspace made for the directory is named after it, escapes and all.
    const { body } = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces');
    const ws = body.workspaces.find((w) => w.id === tab.workspaceId) as WorkspaceView;
    expect(ws.name).toBe(HOSTILE_VISIBLE);
    // tmux has reported the pane's path by now, so titles are part of what is printed.
    expect(ws.tabs.find((t) => t.id === tab.id)?.title?.path).toBe(dir);

    const plain = await cli('tabs');
    expect(plain.code).toBe(0);
    expectPrintable(plain);
    const line = plain.stdout.split('\n').find((l) => l.startsWith(tab.id)) as string;
    expect(line).toContain(`${agent.home}/${HOSTILE_VISIBLE}`);

    const json = await cli('tabs', '--json');
    expect(json.code).toBe(0);
    expectPrintable(json);
    expect(json.stdout).toContain(HOSTILE_IN_JSON);
    const rows = JSON.parse(json.stdout) as { id: string; cwd: string; workspace: string }[];
    // Scripts still read the exact path.
    expect(rows.find((r) => r.id === tab.id)).toMatchObject({ cwd: dir, workspace: HOSTILE_VISIBLE });

    for (const args of [['tab', 'status', tab.id], ['tab', 'status', tab.id, '--json']]) {
      const status = await cli(...args);
      expect(status.code).toBe(0);
      expectPrintable(status);
    }
    const statusJson = JSON.parse((await cli('tab', 'status', tab.id, '--json')).stdout) as { cwd: string };
    expect(statusJson.cwd).toBe(dir);
  });

  it('error messages that echo a path or an argument are escaped too', async () => {
    const missing = await cli('tab', 'new', join(agent.home, `nothere${HOSTILE}`));
    expect(missing.code).toBe(1);
    expectPrintable(missing);
    expect(missing.stderr).toContain(`nothere${HOSTILE_VISIBLE}`);

    const noTab = await cli('tab', 'status', `tb-${HOSTILE}`, '--json');
    expect(noTab.code).toBe(1);
    expectPrintable(noTab);
    expect(noTab.stderr).toContain(`no tab tb-${HOSTILE_VISIBLE}`);
    expect(JSON.parse(noTab.stdout)).toEqual({ error: `no tab tb-${HOSTILE}` });

    const unknown = await cli('tab', HOSTILE);
    expect(unknown.code).toBe(2);
    expectPrintable(unknown);
    expect(unknown.stderr).toContain(HOSTILE_VISIBLE);
  });
});

describe('names with control or bidi characters are refused and change nothing', () => {
  const stateOnDisk = () => readFileSync(join(agent.dataDir, 'workspaces.json'), 'utf8');

  it('on workspaces and tabs', async () => {
    const made = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: agent.home, name: 'plain' });
    expect(made.status).toBe(201);
    const tab = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: made.body.id, name: 'plain tab' });
    expect(tab.status).toBe(201);
    const before = stateOnDisk();
    for (const name of ['a\x1b[2Jb', 'a\u0085b', 'invoice\u202efdp.exe', 'a\u2066b']) {
      const cases: [string, string, unknown][] = [
        ['POST', '/api/workspaces', { dir: agent.home, name }],
        ['PATCH', `/api/workspaces/${made.body.id}`, { name }],
        ['POST', '/api/tabs', { workspaceId: made.body.id, name }],
        ['PATCH', `/api/tabs/${tab.body.id}`, { name }],
      ];
      for (const [method, path, body] of cases) {
        const res = await api<{ error: string }>(session, method, path, body);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
        expect(res.body.error).toMatch(/name must not contain (control|bidirectional formatting) characters \(found U\+[0-9A-F]{4}\)/);
      }
    }
    expect(stateOnDisk()).toBe(before);
  });

  it('on device names at pairing, and the pairing stays usable', async () => {
    const pairing = await api<PairingResponse>(session, 'POST', '/api/pairings');
    const secret = new URL(pairing.body.url).hash.replace('#pair=', '');
    const devicesBefore = readFileSync(join(agent.dataDir, 'devices.json'), 'utf8');
    const pair = (deviceName: string) =>
      fetch(new URL('/api/pair', agent.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret, deviceName, publicKey: newDeviceKey().publicKey }) });
    const refused = await pair('phone\u202e');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/bidirectional formatting characters \(found U\+202E\)/);
    expect(readFileSync(join(agent.dataDir, 'devices.json'), 'utf8')).toBe(devicesBefore);
    expect((await pair('phone')).status).toBe(201);
  });
});

describe('names the agent makes itself', () => {
  it('an adopted tmux session named with a bidi override gets a valid, visible name', async () => {
    const other = await startAgent({ env: { POCKETMUX_SAFETY_POLL_MS: '300' } });
    const s = await claim(other);
    // tmux writes C0 and C1 out as octal itself, but passes U+202E through.
    await tmux(other.tmuxSocket, 'new-session', '-d', '-s', `by-hand\u202e\u0085`, '-c', other.home);
    const tab = await eventually(async () => {
      const res = await api<{ tabs: TabView[] }>(s, 'GET', '/api/tabs');
      return res.body.tabs.find((t) => t.name?.startsWith('by-hand'));
    }, 10_000, 'the hand-made session to become a tab');
    expect(tab.name).not.toMatch(RAW_UNSAFE);
    expect(tab.name).toContain('by-hand\\u202e');
    expect(DisplayName.safeParse(tab.name).success).toBe(true);
    await other.stop();
  });
});
