/**
 * Behind an HTTP proxy: Claude's HTTP hooks follow HTTP(S)_PROXY, so without the agent's
 * NO_PROXY for loopback every hook would go to the proxy and never reach the agent. The real
 * CLI runs in a Claude tab whose environment names a proxy that is not there.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { CLAUDE_BIN, prepareClaudeEnv } from '../support/claude-env.js';
import { closedPort } from '../support/claude-pane.js';
import { api, claim, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { FakeAnthropic, text } from '../support/fake-anthropic.js';
import { StatusClient } from '../support/status.js';

describe('a Claude tab behind an HTTP proxy', () => {
  let fake: FakeAnthropic;
  let agent: AgentHandle;
  let session: Session;
  let project: string;
  const env = newTestEnvironment();

  beforeAll(async () => {
    fake = await FakeAnthropic.start();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
    const proxy = `http://127.0.0.1:${await closedPort()}`;
    agent = await startAgent({
      reuse: env,
      args: ['--claude-bin', CLAUDE_BIN],
      env: { ...claude.env, HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy, NO_PROXY: 'corp.example' },
    });
    session = await claim(agent);
  });

  afterAll(async () => {
    await cleanupAgents();
    await fake?.close();
  });

  it('still reports every turn to the agent, and keeps the person’s own NO_PROXY entries', async () => {
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    const tab = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude' })).body;
    const client = new StatusClient(session);
    await client.opened;
    await client.waitState(tab.id, 'idle', (s) => s.claudeRunning);
    const target = `=pm_${tab.workspaceId}_${tab.id}:`;
    // Claude draws a no-break space after its prompt sign.
    const screen = async () => (await tmux(agent.tmuxSocket, 'capture-pane', '-p', '-t', target)).replaceAll('\u00a0', ' ');
    await eventually(async () => /^❯ *$/m.test(await screen()), 30_000, 'the idle prompt');

    fake.onPrompt('say hello', text('Hello from behind the proxy.'));
    await tmux(agent.tmuxSocket, 'send-keys', '-t', target, '-l', 'say hello');
    await eventually(async () => (await screen()).includes('❯ say hello'), 10_000, 'the prompt typed');
    await tmux(agent.tmuxSocket, 'send-keys', '-t', target, 'Enter');
    // UserPromptSubmit and Stop went over HTTP hooks to the agent, not to the dead proxy.
    await client.waitState(tab.id, 'ready-for-review');
    expect(client.states(tab.id)).toEqual(['idle', 'busy', 'ready-for-review']);

    const noProxy = await tmux(agent.tmuxSocket, 'show-environment', '-t', `=pm_${tab.workspaceId}_${tab.id}`, 'NO_PROXY');
    expect(noProxy.trim()).toBe('NO_PROXY=corp.example,127.0.0.1,localhost');
  });
});
