/**
 * The status engine end to end: the real Claude Code CLI in a Claude tab of a real agent,
 * against the stand-in API, every transition seen by a real `/api/status` client.
 */
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaudeSessionsResponse, TabView, WorkspaceView } from '../../protocol/api.js';
import type { TimelineEntry, TimelineServerMessage } from '../../protocol/timeline.js';
import type { TabStatus } from '../../protocol/status.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { type ClaudeEnv, prepareClaudeEnv, quickClaudeAgent } from '../support/claude-env.js';
import { api, claim, type Session, deviceSocket } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { bash, FakeAnthropic, slow, text } from '../support/fake-anthropic.js';
import { paneEnv, StatusClient } from '../support/status.js';

const DIALOG = 'Do you want to proceed?';

class TimelineClient {
  readonly messages: TimelineServerMessage[] = [];
  readonly ws: WebSocket;
  constructor(s: Session, tabId: string) {
    this.ws = deviceSocket(s, `/api/timeline?tab=${tabId}`);
    this.ws.on('message', (d) => this.messages.push(JSON.parse(String(d)) as TimelineServerMessage));
  }
  /** Everything shown so far: the page, with appends replacing entries by id. */
  entries(): TimelineEntry[] {
    const byId = new Map<string, TimelineEntry>();
    for (const m of this.messages) {
      if (m.type === 'timeline:reset') byId.clear();
      if (m.type === 'timeline:page' || m.type === 'timeline:append') for (const e of m.entries) byId.set(e.id, e);
    }
    return [...byId.values()];
  }

  appended(): TimelineEntry[] {
    return this.messages.flatMap((m) => (m.type === 'timeline:append' ? m.entries : []));
  }
}

describe('Claude tab status with the real Claude Code CLI', () => {
  let timelineClient: TimelineClient;
  let fake: FakeAnthropic;
  let claude: ClaudeEnv;
  let agent: AgentHandle;
  let session: Session;
  let project: string;
  let tab: TabView;
  const env = newTestEnvironment();

  // Debug logs: one line per hook received, naming its sender (how the hooks travelled).
  const agentOptions = (args: string[] = []) => quickClaudeAgent(env, claude, { args, env: { POCKETMUX_LOG_LEVEL: 'debug' } });
  /** The hooks the agent received, as its debug log tells them. */
  const hooksReceived = () =>
    [...agent.stderr().matchAll(/ debug hook received (\{.*\})$/gm)].map(
      (m) => JSON.parse(m[1] as string) as { event: string; key: string; pane: string | null; sender: string },
    );
  const target = () => `=pm_${tab.workspaceId}_${tab.id}:`;
  const screen = async () => (await tmux(agent.tmuxSocket, 'capture-pane', '-p', '-t', target())).replaceAll('\u00a0', ' ');
  const waitScreen = (what: string, test: (s: string) => boolean, timeoutMs = 20_000) =>
    eventually(async () => {
      const s = await screen();
      return test(s) ? s : null;
    }, timeoutMs, what);

  async function submit(input: string): Promise<void> {
    await tmux(agent.tmuxSocket, 'send-keys', '-t', target(), '-l', input);
    await waitScreen(`"${input}" typed`, (s) => s.includes(`❯ ${input}`));
    await tmux(agent.tmuxSocket, 'send-keys', '-t', target(), 'Enter');
  }

  /** The dialog ignores keys in its first few hundred ms, so the answer is repeated until it closes. */
  async function answerDialog(key: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      await tmux(agent.tmuxSocket, 'send-keys', '-t', target(), '-l', key);
      const closed = await waitScreen('the dialog to close', (s) => !s.includes(DIALOG), 1_500).catch(() => null);
      if (closed) return;
    }
    throw new Error(`the dialog ignored "${key}":\n${await screen()}`);
  }

  beforeAll(async () => {
    fake = await FakeAnthropic.start();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
    agent = await startAgent(agentOptions());
    session = await claim(agent);
  });

  afterAll(async () => {
    await cleanupAgents();
    await fake?.close();
  });

  it('follows a session: idle, busy, needs-input, busy on "1", ready-for-review, idle when dismissed', async () => {
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    const created = await api<TabView>(session, 'POST', '/api/tabs', {
      workspaceId: ws.body.id,
      kind: 'claude',
      claude: { permissionMode: 'default' },
    });
    expect(created.status).toBe(201);
    tab = created.body;
    expect(tab.kind).toBe('claude');

    const client = new StatusClient(session);
    await client.opened;
    await client.waitState(tab.id, 'idle', (s) => s.claudeRunning);
    await waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);

    const file = join(project, 'out.txt');
    fake.onPrompt('please run it', bash(`echo from-claude > ${file}`, 'Write a file'));
    fake.afterToolResult(text('All done: the command ran.'));
    await submit('please run it');
    await client.waitState(tab.id, 'needs-input');
    await waitScreen('the permission dialog', (s) => s.includes(DIALOG));
    await answerDialog('1');
    await client.waitState(tab.id, 'ready-for-review');
    expect(readFileSync(file, 'utf8')).toBe('from-claude\n');

    // The statusLine wrapper reported the model and context use for the tab.
    const usage = await eventually(() => client.latest(tab.id)?.usage, 15_000, 'a statusLine report');
    expect(usage.contextPercent).toBeTypeOf('number');
    expect(usage.model).toBeTruthy();

    client.ws.send(JSON.stringify({ type: 'status:tab-dismissed', tabId: tab.id }));
    await client.waitState(tab.id, 'idle');
    expect(client.states(tab.id)).toEqual(['idle', 'busy', 'needs-input', 'busy', 'ready-for-review', 'idle']);

    // 2.1.332 runs HTTP hooks: started with the HTTP settings, Claude posted every event but
    // SessionStart itself (axios), with its pane; SessionStart came through the script (curl).
    expect(await tmux(agent.tmuxSocket, 'display', '-p', '-t', target(), '#{pane_start_command}')).toContain(join(env.dataDir, 'hooks', 'settings.json'));
    const { TMUX_PANE: pane } = await paneEnv(agent, tab);
    const received = hooksReceived();
    expect(new Set(received.map((h) => h.event))).toEqual(new Set(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop']));
    for (const hook of received) {
      expect(hook, hook.event).toEqual({ event: hook.event, key: tab.id, pane, sender: hook.event === 'SessionStart' ? 'hook-script' : 'claude-http' });
    }

    // The tab remembers its Claude session, for --resume after a reboot.
    const status = client.latest(tab.id) as TabStatus;
    const listed = await api<{ tabs: TabView[] }>(session, 'GET', '/api/tabs');
    expect(listed.body.tabs.find((t) => t.id === tab.id)?.claudeSessionId).toBe(status.sessionId);
    client.ws.close();

    // The workspace lists the session for resuming, by its first prompt.
    const past = await api<ClaudeSessionsResponse>(session, 'GET', `/api/workspaces/${tab.workspaceId}/claude-sessions`);
    expect(past.body.sessions[0]).toMatchObject({ id: status.sessionId, firstPrompt: 'please run it' });

    // The timeline shows the conversation from the transcript (a first page, then appends:
    // the last line may land just after the Stop hook).
    const timeline = new TimelineClient(session, tab.id);
    await eventually(() => timeline.messages.some((m) => m.type === 'timeline:page'), 10_000, 'a timeline page');
    const entries = await eventually(() => {
      const all = timeline.entries();
      return all.some((e) => e.kind === 'assistant-text' && e.text === 'All done: the command ran.') ? all : null;
    }, 10_000, 'the final answer on the timeline');
    expect(entries.find((e) => e.kind === 'prompt')).toMatchObject({ text: 'please run it' });
    expect(entries.find((e) => e.kind === 'tool-call')).toMatchObject({ name: 'Bash', result: { status: 'ok' } });
    timelineClient = timeline;
  });

  it('goes idle through the synthetic interrupt when Esc stops a streamed answer', async () => {
    const client = new StatusClient(session);
    await client.opened;
    const reply = slow('Let me think about this slowly');
    fake.onPrompt('do it slowly', reply);
    await submit('do it slowly');
    const busy = await client.waitState(tab.id, 'busy');
    await reply.started;
    await tmux(agent.tmuxSocket, 'send-keys', '-t', target(), 'Escape');
    const idle = await client.waitState(tab.id, 'idle');
    // No hook fired: the transcript's interrupt line did it.
    expect(idle.seq).toBe(busy.seq);
    client.ws.close();
    // A timeline left open received the new prompt and the interruption live.
    await eventually(
      () => timelineClient.appended().some((e) => e.kind === 'interrupt') && timelineClient.appended().some((e) => e.kind === 'prompt' && e.text === 'do it slowly'),
      10_000,
      'the interrupt on the timeline',
    );
    timelineClient.ws.close();
  });

  it('killed while busy and restarted, it recovers the tab silently and follows it on', async () => {
    const client = new StatusClient(session);
    await client.opened;
    const reply = slow('Working on it', ' and done.');
    fake.onPrompt('take your time', reply);
    await submit('take your time');
    await client.waitState(tab.id, 'busy');
    await reply.started;
    client.ws.close();
    // Status writes are gathered for a moment; wait until busy is on disk, then kill.
    const onDisk = () => (JSON.parse(readFileSync(join(env.dataDir, 'status.json'), 'utf8')) as { tabs: Record<string, TabStatus> }).tabs[tab.id];
    await eventually(() => onDisk()?.state === 'busy', 5_000, 'busy on disk');

    await agent.stop('SIGKILL');

    // Back on its port, as an agent on its configured port is: the running claude read the
    // HTTP hooks' URL once, at its start.
    agent = await startAgent(agentOptions(['--port', String(agent.port)]));
    session = await claim(agent);
    // On load the busy tab became unknown; recovery found claude running mid-turn: busy.
    await eventually(() => /recovered the status of a tab.*"state":"busy"/.test(agent.stderr()), 10_000, 'recovery in the log');
    const after = new StatusClient(session);
    await after.opened;
    await after.waitState(tab.id, 'busy');
    // The turn finishes after the restart; its Stop reaches the new agent.
    reply.release();
    await after.waitState(tab.id, 'ready-for-review');
    after.ws.close();
  });

  it('shows Claude not running after /exit, and the tab keeps a shell', async () => {
    const client = new StatusClient(session);
    await client.opened;
    await submit('/exit');
    await client.waitState(tab.id, 'idle', (s) => !s.claudeRunning);
    // The pane is the person's shell now; the tab stays.
    const listed = await api<{ tabs: TabView[] }>(session, 'GET', '/api/tabs');
    expect(listed.body.tabs.map((t) => t.id)).toContain(tab.id);
    await eventually(async () => (await api<{ tabs: TabView[] }>(session, 'GET', '/api/tabs')).body.tabs.find((t) => t.id === tab.id)?.title?.command === 'bash', 10_000, 'a shell in the pane');
    client.ws.close();
  });

  it('after a reboot, starts the Claude tab again with --resume of its session', async () => {
    const sessionId = (await api<{ tabs: TabView[] }>(session, 'GET', '/api/tabs')).body.tabs.find((t) => t.id === tab.id)?.claudeSessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await agent.stop('SIGKILL');
    await tmux(agent.tmuxSocket, 'kill-server');

    agent = await startAgent(agentOptions());
    session = await claim(agent);
    const command = await tmux(agent.tmuxSocket, 'display', '-p', '-t', target(), '#{pane_start_command}');
    // tmux shows the command with its own quoting.
    expect(command).toMatch(new RegExp(`--resume\\W+${sessionId}`));
    // Restarted with the settings its version runs: the HTTP hooks.
    expect(command).toContain(join(env.dataDir, 'hooks', 'settings.json'));
    const client = new StatusClient(session);
    await client.opened;
    const resumed = await client.waitState(tab.id, 'idle', (s) => s.claudeRunning && s.sessionId === sessionId);
    expect(resumed.sessionId).toBe(sessionId);
    client.ws.close();
  });
});
