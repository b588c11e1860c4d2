/**
 * A hook's `session_id` is whatever the sender wrote. Only a UUID, the shape of Claude's own
 * ids, is ever put on claude's command line, and then as one argument (`--resume=<id>`): a
 * hook naming `--dangerously-skip-permissions` still moves the status, but neither a tab
 * started again after a reboot nor an adoption hands it to claude. The claude here prints
 * every argument it was given, each in brackets, so the test reads what reached it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, copyFileSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { procStartTime } from '../../agent/claude/process.js';
import { processAlive } from '../../agent/util/process-alive.js';
import type { TabView } from '../../protocol/api.js';
import { outsideSessionKey } from '../../protocol/hook-contract.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { api, claim, firstWorkspaceId, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { runHookScript } from '../support/hook-script.js';
import { capturedHook, paneEnv, StatusClient } from '../support/status.js';

const OPTION_AS_ID = '--dangerously-skip-permissions';
const SESSION_ID = '9cc33040-84d7-4e14-8db7-8fcffd47527d';

describe('a session id from a hook that reads as an option', () => {
  const env = newTestEnvironment();
  const children: ChildProcess[] = [];
  let agent: AgentHandle;
  let phone: Session;
  let project: string;
  let claudeBin: string;

  const start = async () => {
    agent = await startAgent({ reuse: env, args: ['--claude-bin', claudeBin] });
    phone = await claim(agent);
  };
  const tabs = async () => (await api<{ tabs: TabView[] }>(phone, 'GET', '/api/tabs')).body.tabs;
  const hook = (event: string, sessionId: string, where: Record<string, string>, args = event) =>
    runHookScript(agent.dataDir, args, { ...capturedHook(event), session_id: sessionId, cwd: project }, where);

  beforeAll(async () => {
    mkdirSync(join(env.home, 'project'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    claudeBin = join(env.root, 'bin', 'claude');
    mkdirSync(join(env.root, 'bin'), { recursive: true });
    writeFileSync(
      claudeBin,
      '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\nprintf "claude-argv"; for a in "$@"; do printf " [%s]" "$a"; done; echo\n',
      { mode: 0o755 },
    );
    await start();
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await cleanupAgents();
  });

  it('moves the tab\'s status, but a tab started again after a reboot resumes only the UUID its hooks gave', async () => {
    const created = await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: await firstWorkspaceId(phone), kind: 'claude' });
    expect(created.status).toBe(201);
    const tab = created.body;
    const where = await paneEnv(agent, tab);
    expect(await hook('SessionStart', SESSION_ID, where)).toMatchObject({ code: 0 });
    await eventually(async () => (await tabs()).find((t) => t.id === tab.id)?.claudeSessionId === SESSION_ID, 10_000, 'the tab to keep its session id');

    const status = new StatusClient(phone);
    await status.opened;
    expect(await hook('UserPromptSubmit', OPTION_AS_ID, where)).toMatchObject({ code: 0 });
    await status.waitState(tab.id, 'busy');
    status.ws.close();
    expect((await tabs()).find((t) => t.id === tab.id)?.claudeSessionId).toBe(SESSION_ID);

    await agent.stop('SIGKILL');
    await tmux(agent.tmuxSocket, 'kill-server');
    await start();
    const target = `=pm_${tab.workspaceId}_${tab.id}:`;
    const line = await eventually(
      async () => (await tmux(agent.tmuxSocket, 'capture-pane', '-p', '-J', '-t', target)).split('\n').find((l) => l.startsWith('claude-argv ')),
      10_000,
      'claude started again in the tab',
    );
    expect(line).toContain(`[--resume=${SESSION_ID}]`);
    expect(line).not.toContain(OPTION_AS_ID);
    expect(await tmux(agent.tmuxSocket, 'display', '-p', '-t', target, '#{pane_start_command}')).not.toContain(OPTION_AS_ID);
  });

  it('is listed as a session outside the tabs, but not adopted: its claude is left running and no tab starts', async () => {
    // A claude for that session, as its session file names it (with the start time Claude writes).
    const bin = join(env.root, 'claude-like', 'claude');
    mkdirSync(join(env.root, 'claude-like'), { recursive: true });
    copyFileSync('/bin/sleep', bin);
    chmodSync(bin, 0o755);
    const running = spawn(bin, ['600'], { stdio: 'ignore' });
    children.push(running);
    await once(running, 'spawn');
    const pid = running.pid as number;
    mkdirSync(join(env.home, '.claude', 'sessions'), { recursive: true });
    writeFileSync(join(env.home, '.claude', 'sessions', `${pid}.json`), JSON.stringify({ pid, sessionId: OPTION_AS_ID, cwd: project, procStart: procStartTime(pid) ?? undefined }));

    expect(await hook('SessionStart', OPTION_AS_ID, {}, '--global SessionStart')).toMatchObject({ code: 0 });
    const key = outsideSessionKey(OPTION_AS_ID);
    await eventually(
      async () => (await api<{ sessions: OutsideSessionView[] }>(phone, 'GET', '/api/outside')).body.sessions.find((s) => s.key === key && s.pid === pid),
      10_000,
      'the outside session with its claude',
    );
    const before = (await tabs()).length;

    const adopt = await api<{ error: string }>(phone, 'POST', `/api/outside/${key}/adopt`, {});
    expect(adopt.status).toBe(409);
    expect(adopt.body.error).toMatch(/UUID/);
    expect(processAlive(pid)).toBe(true);
    expect(running.exitCode).toBeNull();
    expect(await tabs()).toHaveLength(before);
  });
});
