/**
 * What the README promises of a Claude tab when hooks cannot tell: after an agent restart,
 * every branch of recovery (claude gone → idle, turn ended → ready-for-review, still working
 * → busy), none of it pushed to anyone; claude killed mid-turn → idle through the safety-net
 * poll; a turn that fails on an API error (StopFailure); and "No" in the permission dialog.
 * The real Claude Code CLI runs in Claude tabs of a real agent, against the stand-in API, with
 * a real device subscribed for every kind of push on a push service of our own.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { type ClaudeEnv, prepareClaudeEnv, quickClaudeAgent } from '../support/claude-env.js';
import { ClaudeTabPane, PERMISSION_DIALOG } from '../support/claude-pane.js';
import { api, claim, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { apiError, bash, FakeAnthropic, type SlowReply, slow } from '../support/fake-anthropic.js';
import { PushEndpoint } from '../support/push-endpoint.js';
import { StatusClient } from '../support/status.js';

describe('Claude tabs where hooks cannot tell, with the real Claude Code CLI', () => {
  let fake: FakeAnthropic;
  let claude: ClaudeEnv;
  let endpoint: PushEndpoint;
  let agent: AgentHandle;
  let phone: Session;
  let phoneSub: string;
  let workspaceId: string;
  const env = newTestEnvironment();

  const agentOptions = (args: string[] = []) => quickClaudeAgent(env, claude, { args, env: { POCKETMUX_PUSH_INSECURE_LOOPBACK: '1' } });

  /** Open is not enough: what a client knows starts with its first `status:sync`. */
  const synced = (client: StatusClient) => eventually(() => client.messages.some((m) => m.type === 'status:sync'), 10_000, 'the first status:sync');

  /** The shows pushed to the phone about a tab (a review, a tab waiting), in order. */
  const tabShows = (tabId: string) => endpoint.of(phoneSub).filter((p) => p.kind === 'show' && p.tag === `tab-${tabId}`);

  async function claudeTab(name: string, status: StatusClient): Promise<{ tab: TabView; pane: ClaudeTabPane }> {
    const created = await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId, kind: 'claude', name, claude: { permissionMode: 'default' } });
    expect(created.status).toBe(201);
    const pane = new ClaudeTabPane(agent, created.body);
    await status.waitState(created.body.id, 'idle', (s) => s.claudeRunning && s.sessionId !== null);
    await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
    return { tab: created.body, pane };
  }

  /** Starts a turn whose answer streams until released: the tab is busy until then. */
  async function busyTurn(pane: ClaudeTabPane, tabId: string, prompt: string, status: StatusClient): Promise<SlowReply> {
    const reply = slow(`Working on ${prompt}\n`, ' and done.');
    fake.onPrompt(prompt, reply, { times: 1 });
    await pane.submit(prompt);
    await status.waitState(tabId, 'busy');
    await reply.started;
    return reply;
  }

  /** The pid of the claude running a session, from Claude's own `sessions/<pid>.json`. */
  function claudePid(sessionId: string): number {
    const dir = join(env.home, '.claude', 'sessions');
    for (const name of readdirSync(dir).filter((n) => /^\d+\.json$/.test(n))) {
      const file = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { pid: number; sessionId: string };
      if (file.sessionId === sessionId) return file.pid;
    }
    throw new Error(`no running claude has session ${sessionId}`);
  }

  const statusOnDisk = (tabId: string) => (JSON.parse(readFileSync(join(env.dataDir, 'status.json'), 'utf8')) as { tabs: Record<string, TabStatus> }).tabs[tabId];

  beforeAll(async () => {
    endpoint = await PushEndpoint.start();
    fake = await FakeAnthropic.start();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    const project = realpathSync(join(env.home, 'project'));
    claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
    agent = await startAgent(agentOptions());
    phone = await claim(agent, 'Pixel 8');
    endpoint.agentKey = (await api<{ publicKey: string }>(phone, 'GET', '/api/push/key')).body.publicKey;
    const sub = endpoint.subscribe();
    phoneSub = sub.id;
    expect((await api(phone, 'POST', '/api/push/subscription', sub.json)).status).toBe(201);
    workspaceId = (await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project })).body.id;
  });

  afterAll(async () => {
    await cleanupAgents();
    await fake?.close();
    await endpoint?.close();
  });

  // Shared by the tests below, which follow one another.
  let working: { tab: TabView; pane: ClaudeTabPane };

  it('after a restart settles every busy tab from its process and transcript, and pushes none of it', async () => {
    const status = new StatusClient(phone);
    await status.opened;
    const gone = await claudeTab('gone', status);
    const ended = await claudeTab('ended', status);
    working = await claudeTab('working', status);
    await busyTurn(gone.pane, gone.tab.id, 'task for gone', status);
    const endedReply = await busyTurn(ended.pane, ended.tab.id, 'task for ended', status);
    const workingReply = await busyTurn(working.pane, working.tab.id, 'task for working', status);
    const endedTranscript = status.latest(ended.tab.id)?.transcriptPath as string;
    const goneSession = status.latest(gone.tab.id)?.sessionId as string;
    status.ws.close();
    // Status writes are gathered for a moment: the agent dies once all three are busy on disk.
    await eventually(() => [gone, ended, working].every((t) => statusOnDisk(t.tab.id)?.state === 'busy'), 10_000, 'busy on disk');
    await agent.stop('SIGKILL');

    // While no agent runs: one claude dies, one finishes its turn, one goes on working.
    process.kill(claudePid(goneSession), 'SIGKILL');
    endedReply.release();
    await eventually(() => readFileSync(endedTranscript, 'utf8').includes('"subtype":"turn_duration"'), 30_000, 'the turn to end in the transcript');
    expect(endpoint.received).toEqual([]);

    // Back on its port, as an agent on its configured port is: the running claudes read the
    // HTTP hooks' URL once, at their start.
    agent = await startAgent(agentOptions(['--port', String(agent.port)]));
    phone = { ...phone, agent };
    // Recovery runs once the agent listens: its log lines may come a moment after.
    const lines = await eventually(() => {
      const found = [...agent.stderr().matchAll(/recovered the status of a tab (\{.*\})$/gm)];
      return found.length >= 3 ? found : null;
    }, 15_000, 'recovery in the log');
    const recovered = Object.fromEntries(
      lines.map((m) => {
        const line = JSON.parse(m[1] as string) as { tab: string; state: string };
        return [line.tab, line.state];
      }),
    );
    expect(recovered).toEqual({ [gone.tab.id]: 'idle', [ended.tab.id]: 'ready-for-review', [working.tab.id]: 'busy' });
    const after = new StatusClient(phone);
    await synced(after);
    expect(after.latest(gone.tab.id)).toMatchObject({ state: 'idle', claudeRunning: false });
    expect(after.latest(ended.tab.id)).toMatchObject({ state: 'ready-for-review', claudeRunning: true });
    expect(after.latest(working.tab.id)).toMatchObject({ state: 'busy', claudeRunning: true });

    // The working turn ends after the restart: its Stop is news, and the phone hears of it.
    // That push is the first the push service ever received: recovery pushed nothing.
    workingReply.release();
    await after.waitState(working.tab.id, 'ready-for-review');
    await eventually(() => tabShows(working.tab.id).length === 1, 15_000, 'the review push for the tab that worked on');
    expect(endpoint.refused).toEqual([]);
    expect(endpoint.received.map((r) => r.payload)).toEqual([expect.objectContaining({ kind: 'show', tag: `tab-${working.tab.id}` })]);
    after.ws.close();
  });

  it('turns a tab whose claude was killed mid-turn idle through the safety-net poll', async () => {
    const status = new StatusClient(phone);
    await status.opened;
    const doomed = await claudeTab('doomed', status);
    await busyTurn(doomed.pane, doomed.tab.id, 'task for doomed', status);
    const busy = status.latest(doomed.tab.id) as TabStatus;
    // SIGKILL: claude fires no SessionEnd, no hook says anything.
    process.kill(claudePid(busy.sessionId as string), 'SIGKILL');
    const idle = await status.waitState(doomed.tab.id, 'idle', (s) => !s.claudeRunning);
    expect(idle.seq).toBe(busy.seq);
    expect(status.states(doomed.tab.id)).toEqual(['idle', 'busy', 'idle']);
    status.ws.close();
  });

  it('ends a turn that failed on an API error as ready for review (StopFailure)', async () => {
    const status = new StatusClient(phone);
    await synced(status);
    const { tab, pane } = working;
    // Ready for review already, from the turn before: only what comes after counts.
    const before = status.messages.length;
    // Every try fails: the CLI may try a 400 again before it gives up ("prompt is too long"
    // would not do at all: Claude compacts the conversation and tries once more).
    fake.onPrompt('this request fails', apiError(400, 'invalid_request_error', 'temperature: must be at most 1'));
    await pane.submit('this request fails');
    const events = () => status.messages.slice(before).flatMap((m) => (m.type === 'status:hook-event' && m.hook.tabId === tab.id ? [m.hook.event] : []));
    await eventually(() => events().includes('StopFailure'), 60_000, 'StopFailure after the failed turn');
    expect(events()).toEqual(['UserPromptSubmit', 'StopFailure']);
    const states = status.messages.slice(before).flatMap((m) => (m.type === 'status:update' && m.tabId === tab.id ? [m.status.state] : []));
    expect(states.at(0)).toBe('busy');
    expect(states.at(-1)).toBe('ready-for-review');
    expect(status.openApprovals().filter((a) => a.tabId === tab.id)).toEqual([]);
    status.ws.close();
  });

  it('"No" in the permission dialog settles the approval in the terminal, idles the tab and closes the phone’s notification', async () => {
    const status = new StatusClient(phone);
    await status.opened;
    const { tab, pane } = working;
    const file = join(env.home, 'project', 'refused.txt');
    fake.onPrompt('refuse this one', bash(`echo refused > ${file}`, 'Write a file'), { times: 1 });
    await pane.submit('refuse this one');
    const approval = await status.waitApproval(tab.id);
    await pane.waitScreen('the permission dialog', (s) => s.includes(PERMISSION_DIALOG));
    await eventually(() => endpoint.of(phoneSub).some((p) => p.kind === 'show' && p.tag === approval.id), 15_000, 'the approval pushed');
    // 2.1.332's options: 1 Yes, 2 always allow, 3 auto mode, 4 No.
    await pane.answerDialog('4');
    const resolution = await status.waitResolution(approval.id, 15_000);
    expect(resolution).toMatchObject({ outcome: 'answered-in-terminal', by: { kind: 'terminal' } });
    expect(status.openApprovals().filter((a) => a.tabId === tab.id)).toEqual([]);
    // "No" ends the turn with no Stop: the transcript's interrupt line makes the tab idle.
    await status.waitState(tab.id, 'idle', (s) => s.claudeRunning);
    await eventually(() => endpoint.of(phoneSub).some((p) => p.kind === 'close' && p.tag === approval.id), 15_000, 'the notification closed');
    expect(() => readFileSync(file)).toThrow();
    expect((await api<{ error: string }>(phone, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow' })).status).toBe(409);
    status.ws.close();
  });
});
