/**
 * Names, paths and typed text that tmux could read as more than text: format commands
 * (`#(...)`), format variables (`#{...}`), a trailing `;` (tmux's command separator), tabs
 * and newlines (the pane listing's old separators), escape sequences and a leading `-`.
 * Each goes through REST, the CLI, a terminal and a reboot; no command may run (a marker
 * file would appear), every tab must survive adoption, and typed text must arrive exactly.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { FrameType } from '../../protocol/terminal-frame.js';
import { type AgentHandle, agentEnv, cleanupAgents, runCli, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, recordTypedText, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';

/** Each would run `touch` in the agent's HOME if tmux expanded it as a format. */
const HOSTILE_DIRS = [
  'fmt#(cd;touch pwned-format)',
  'var#{session_name}#{pane_pid}',
  'semi;',
  'a;b',
  'tab\there',
  'new\nline',
  '-leading',
  'esc\x1b]0;owned\x07\x1b[2J',
];

/** Text a person might type, with the same characters; each line must arrive as sent. */
const HOSTILE_TEXT = ['#(cd;touch pwned-typed)', '#{session_name}', 'ends with;', 'a\\;', 'tab\there', '-rf --', 'ünï 日本 🙂'];

const POLL_MS = 300;

afterAll(cleanupAgents);

function markers(agent: AgentHandle): string[] {
  return readdirSync(agent.home).filter((f) => f.startsWith('pwned'));
}

async function tabs(session: Session): Promise<TabView[]> {
  return (await api<{ tabs: TabView[] }>(session, 'GET', '/api/tabs')).body.tabs;
}

describe('hostile directory names', () => {
  let agent: AgentHandle;
  let session: Session;
  const created = new Map<string, string>();

  beforeAll(async () => {
    agent = await startAgent({ env: { POCKETMUX_SAFETY_POLL_MS: String(POLL_MS) } });
    session = await claim(agent);
    for (const name of HOSTILE_DIRS) mkdirSync(join(agent.home, name));
  });

  it('creates a workspace and a tab in each, started in that very directory', async () => {
    for (const name of HOSTILE_DIRS) {
      const dir = join(agent.home, name);
      const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir, name: 'hostile' });
      expect(ws.status, name).toBe(201);
      const tab = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id });
      expect(tab.status, name).toBe(201);
      created.set(tab.body.id, dir);
    }
    for (const [id, dir] of created) {
      const tab = (await tabs(session)).find((t) => t.id === id);
      expect(tab?.alive).toBe(true);
      expect(tab?.title?.path, JSON.stringify(dir)).toBe(dir);
      expect(tab?.cwd).toBe(dir);
    }
    expect(markers(agent)).toEqual([]);
  });

  it('sends a terminal the tab title with its control characters made harmless', async () => {
    const [id] = [...created].find(([, dir]) => dir.endsWith(HOSTILE_DIRS[7] as string)) ?? [];
    const term = new TerminalClient(session, id as string);
    await term.opened;
    await term.waitFor('owned');
    const out = term.output();
    // tmux sets the title with OSC 0 ... BEL; the name's own BEL and ESC must not end it early.
    const shown = `${agent.home}/esc?]0;owned??[2J`;
    expect(out).toContain(`\x1b]0;bash|${shown}\x07`);
    expect(out).not.toContain('owned\x07');
    term.close();
  });

  it('creates tabs for them from the CLI too', async () => {
    for (const name of HOSTILE_DIRS.slice(0, 3)) {
      const dir = join(agent.home, name);
      const out = await runCli(['tab', 'new', '--json', '--data-dir', agent.dataDir, dir], agentEnv(agent));
      expect(out.code, out.stderr).toBe(0);
      const tab = JSON.parse(out.stdout) as TabView;
      created.set(tab.id, dir);
    }
    await eventually(async () => {
      const all = await tabs(session);
      return [...created].every(([id, dir]) => all.find((t) => t.id === id)?.title?.path === dir);
    }, 10_000, 'every CLI tab to report its directory');
    expect(markers(agent)).toEqual([]);
  });

  it('keeps every tab, and adopts no fake one, while shells cd into such directories', async () => {
    const [shellTab] = created.keys();
    const term = new TerminalClient(session, shellTab as string);
    await term.opened;
    // printf builds the names with real tabs and newlines in them.
    term.type(`cd "$HOME/$(printf 'new\\nline')" && cd ../"$(printf 'tab\\there')" && echo "in-$?"\r`);
    await term.waitFor('in-0');
    await eventually(async () => (await tabs(session)).find((t) => t.id === shellTab)?.cwd === join(agent.home, 'tab\there'), 10_000, 'the cd to be seen');
    // A session made by hand is adopted by the next safety poll: once it is, discovery ran
    // after the cd and had its chance to adopt something that is not there.
    await tmux(agent.tmuxSocket, 'new-session', '-d', '-s', 'by-hand', '-c', agent.home);
    const all = await eventually(async () => {
      const list = await tabs(session);
      return list.some((t) => t.name === 'by-hand') ? list : null;
    }, 10_000, 'the hand-made session to be adopted');
    expect(all.map((t) => t.id).sort()).toEqual([...created.keys(), all.find((t) => t.name === 'by-hand')?.id].sort());
    expect(all.every((t) => t.alive)).toBe(true);
    term.close();
    expect(markers(agent)).toEqual([]);
  });

  it('starts every shell again in its directory after a reboot', async () => {
    await agent.stop('SIGTERM');
    await tmux(agent.tmuxSocket, 'kill-server');
    agent = await startAgent({ reuse: agent, env: { POCKETMUX_SAFETY_POLL_MS: String(POLL_MS) } });
    session = await claim(agent);
    const [shellTab] = created.keys();
    const expected = new Map(created);
    expected.set(shellTab as string, join(agent.home, 'tab\there'));
    await eventually(async () => {
      const all = await tabs(session);
      return [...expected].every(([id, dir]) => all.find((t) => t.id === id)?.title?.path === dir);
    }, 15_000, 'every tab to run again in its directory');
    expect((await tabs(session)).length).toBe(created.size + 1);
    expect(markers(agent)).toEqual([]);
  });
});

describe('hostile typed text', () => {
  let agent: AgentHandle;
  let session: Session;
  let tabId: string;
  let file: string;
  const secret = `typed-secret-${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    agent = await startAgent();
    session = await claim(agent);
    tabId = (await createTab(session)).id;
    file = join(agent.root, 'typed.txt');
    await recordTypedText(session, tabId, file);
  });

  async function typedLines(count: number): Promise<string[]> {
    return eventually(() => {
      const lines = readFileSync(file, 'utf8').split('\n');
      return lines.length > count ? lines.slice(0, count) : null;
    }, 15_000, `${count} typed lines`);
  }

  it('types every character as sent, through REST and the terminal input bar', async () => {
    for (const text of HOSTILE_TEXT) {
      const res = await api(session, 'POST', `/api/tabs/${tabId}/input`, { text });
      expect(res.status, text).toBe(204);
    }
    const term = new TerminalClient(session, tabId);
    await term.opened;
    for (const text of HOSTILE_TEXT) term.send({ type: FrameType.WebStdin, text: `${text}\r` });
    const lines = await typedLines(HOSTILE_TEXT.length * 2);
    expect(lines).toEqual([...HOSTILE_TEXT, ...HOSTILE_TEXT]);
    term.close();
    expect(markers(agent)).toEqual([]);
  });

  it('types 64 KB of text, non-ASCII included, in one request', async () => {
    const before = readFileSync(file, 'utf8').length;
    const text = `${secret}:${'é日'.repeat(16 * 1024)}`.slice(0, 64 * 1024);
    const res = await api(session, 'POST', `/api/tabs/${tabId}/input`, { text });
    expect(res.status).toBe(204);
    const line = await eventually(() => {
      const rest = readFileSync(file, 'utf8').slice(before);
      return rest.includes('\n') ? rest.slice(0, rest.indexOf('\n')) : null;
    }, 15_000, 'the long line');
    expect(line).toBe(text);
  });

  it('refuses NUL with 400 and never writes typed text to the log', async () => {
    const res = await api<{ error: string }>(session, 'POST', `/api/tabs/${tabId}/input`, { text: `${secret}\u0000rm -rf` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/NUL/);
    const log = await eventually(() => {
      const text = readFileSync(join(agent.dataDir, 'logs', 'agent.log'), 'utf8');
      return text.length > 0 ? text : null;
    });
    expect(log).not.toContain(secret);
    expect(agent.stderr()).not.toContain(secret);
  });
});
