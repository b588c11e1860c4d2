/**
 * The real Claude Code CLI in a Claude tab, with pocketmux's hooks also in its user settings
 * (`pocketmux hooks install`): the tab's own hooks report, the global ones step aside, so every
 * event reaches the agent exactly once.
 */
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { CLAUDE_BIN, type ClaudeEnv, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { api, claim, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { FakeAnthropic, text } from '../support/fake-anthropic.js';
import { StatusClient } from '../support/status.js';

describe('global hooks beside a Claude tab', () => {
  const env = newTestEnvironment();
  let fake: FakeAnthropic;
  let claude: ClaudeEnv;
  let agent: AgentHandle;
  let session: Session;
  let project: string;

  beforeAll(async () => {
    fake = await FakeAnthropic.start();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
    agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: { ...claude.env, POCKETMUX_LOG_LEVEL: 'debug' } });
    session = await claim(agent);
  });

  afterAll(async () => {
    await cleanupAgents();
    await fake?.close();
  });

  it('reports each event once', async () => {
    const installed = await runCli(['hooks', 'install', '--data-dir', agent.dataDir], agentEnv(agent));
    expect(installed.code, installed.stderr).toBe(0);
    expect(readFileSync(join(env.home, '.claude', 'settings.json'), 'utf8')).toContain('--global UserPromptSubmit');

    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } });
    expect(created.status).toBe(201);
    const tab = created.body;
    const pane = new ClaudeTabPane(agent, tab);
    const client = new StatusClient(session);
    await client.opened;
    await client.waitState(tab.id, 'idle', (s) => s.claudeRunning, 30_000);
    await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);

    fake.onPrompt('just say hi', text('Hi.'));
    await pane.submit('just say hi');
    await client.waitState(tab.id, 'ready-for-review');
    // Claude ends a turn only once every Stop hook has returned, and each report is logged
    // before the agent answers it: the SessionEnd of an /exit comes after any second Stop.
    await pane.submit('/exit');
    await eventually(() => / debug hook received \{"event":"SessionEnd"/.test(agent.stderr()), 30_000, 'the SessionEnd report', () => agent.stderr().slice(-3000));

    const received = [...agent.stderr().matchAll(/ debug hook received (\{.*\})$/gm)].map((m) => (JSON.parse(m[1] as string) as { event: string; key: string }).event);
    const counts = Object.fromEntries([...new Set(received)].map((e) => [e, received.filter((x) => x === e).length]));
    expect(counts).toMatchObject({ SessionStart: 1, UserPromptSubmit: 1, Stop: 1 });
    expect(Object.values(counts).every((n) => n === 1), JSON.stringify(counts)).toBe(true);
    const hookEvents = client.messages.filter((m) => m.type === 'status:hook-event' && m.hook.tabId === tab.id).map((m) => (m.type === 'status:hook-event' ? m.hook.event : ''));
    expect(new Set(hookEvents).size).toBe(hookEvents.length);
    client.ws.close();
    claude.cleanup();
  }, 90_000);
});
