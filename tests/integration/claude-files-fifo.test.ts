/**
 * Files a person or Claude controls that the agent and the CLI read: a FIFO put where one is
 * expected (an ordinary open waits for a writer for ever) is refused with a message naming
 * the path and why, and nothing waits on it. A hung CLI is cut after a while so the test fails
 * instead of hanging; a hung agent fails `startAgent` or a request.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserHooksView } from '../../protocol/outside.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, type Session } from '../support/client.js';
import { runHookScript } from '../support/hook-script.js';
import { capturedHook, paneEnv, StatusClient } from '../support/status.js';

afterAll(cleanupAgents);

/** Resolves to null if `promise` has not settled after `ms`: a hang fails the test rather than outlasting it. */
function within<T>(promise: Promise<T>, ms = 20_000): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([promise, cut]).finally(() => clearTimeout(timer));
}

describe('a FIFO where Claude keeps its files', () => {
  it('at ~/.claude/settings.json when the agent starts: it starts, and logs why it did not read it', async () => {
    const env = newTestEnvironment();
    const settings = join(env.home, '.claude', 'settings.json');
    mkdirSync(join(env.home, '.claude'), { recursive: true });
    execFileSync('mkfifo', [settings]);
    const agent = await startAgent({ reuse: env });
    expect(agent.stderr()).toContain(`refusing to read ${settings}: it is a FIFO, not a regular file`);
    const session = await claim(agent);
    expect((await api(session, 'GET', '/api/tabs')).status).toBe(200);
    await agent.stop();
  });

  describe('put there while the agent runs', () => {
    let agent: AgentHandle;
    let session: Session;
    let refusal = '';

    beforeAll(async () => {
      agent = await startAgent();
      session = await claim(agent);
      const settings = join(agent.home, '.claude', 'settings.json');
      mkdirSync(join(agent.home, '.claude'), { recursive: true });
      execFileSync('mkfifo', [settings]);
      refusal = `refusing to read ${settings}: it is a FIFO, not a regular file`;
    });

    it('Settings (GET /api/hooks) answers, naming the file and why it was not read', async () => {
      const view = await within(api<UserHooksView>(session, 'GET', '/api/hooks'));
      expect(view, 'an answer').not.toBeNull();
      expect(view?.status).toBe(200);
      expect(view?.body).toMatchObject({ state: 'unknown', settingsPath: join(agent.home, '.claude', 'settings.json'), detail: refusal });
      // The agent went on.
      expect((await within(api(session, 'GET', '/api/tabs')))?.status).toBe(200);
    });

    it('`pocketmux hooks install` ends with the same reason, changing nothing', async () => {
      const run = await runCli(['hooks', 'install', '--data-dir', agent.dataDir], agentEnv(agent), 20_000);
      expect(run).toEqual({ code: 2, stdout: '', stderr: `pocketmux: ${refusal}\n` });
      expect(readdirSync(join(agent.home, '.claude'))).toEqual(['settings.json']);
    });

    it('`pocketmux hooks status` ends with the same reason', async () => {
      const run = await runCli(['hooks', 'status', '--data-dir', agent.dataDir], agentEnv(agent), 20_000);
      expect(run).toEqual({ code: 1, stdout: '', stderr: `pocketmux: ${refusal}\n` });
    });
  });

  it('at ~/.claude/sessions/<pid>.json: the safety poll reads past it and finds claude gone', async () => {
    const agent = await startAgent({ env: { POCKETMUX_SAFETY_POLL_MS: '200' } });
    const session = await claim(agent);
    const tab = await createTab(session);
    const client = new StatusClient(session);
    await client.opened;
    const panePid = (await tmux(agent.tmuxSocket, 'display', '-p', '-t', `=pm_${tab.workspaceId}_${tab.id}:`, '#{pane_pid}')).trim();
    expect(panePid).toMatch(/^\d+$/);
    const sessions = join(agent.home, '.claude', 'sessions');
    mkdirSync(sessions, { recursive: true });
    execFileSync('mkfifo', [join(sessions, `${panePid}.json`)]);
    // A Stop makes the tab one the safety poll looks at; no claude runs in its pane.
    expect((await runHookScript(agent.dataDir, 'Stop', capturedHook('Stop'), await paneEnv(agent, tab))).code).toBe(0);
    // The poll may find claude gone before this client looks: the state was seen, not still held.
    await client.waitSeen(tab.id, 'ready-for-review');
    await client.waitState(tab.id, 'idle', (s) => s.claudeRunning === false);
    expect((await api(session, 'GET', '/api/tabs')).status).toBe(200);
    client.ws.close();
    await agent.stop();
  });
});
