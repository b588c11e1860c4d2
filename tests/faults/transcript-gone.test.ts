/**
 * A Claude tab's transcript truncated, and deleted, under the reader while a timeline follows
 * it: the agent does not crash, the timeline starts over from what the file holds now (a
 * `timeline:reset` and a new page) and follows appends again, says so while the file is gone,
 * and the status stays served.
 * First with a stand-in claude whose hooks, through the agent's hook script, name a copy of a
 * transcript the real CLI wrote; then with the real Claude Code CLI (against the stand-in API)
 * writing its own transcript.
 */
import { appendFileSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import { TRANSCRIPT_GONE } from '../../agent/channels/timeline-channel.js';
import { cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { CLAUDE_BIN, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { FakeAnthropic, text } from '../support/fake-anthropic.js';
import { RawChannel } from '../support/channels.js';
import { api, claim } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { standInClaudeBin } from '../support/faults.js';
import { outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { paneEnv, StatusClient } from '../support/status.js';

let fake: FakeAnthropic | undefined;
afterAll(async () => {
  await cleanupAgents();
  await fake?.close();
});

type TimelineMessage = { type: string; entries?: unknown[] };

describe('a transcript changed under the reader', () => {
  it('truncated, then deleted and written again: no crash, the timeline starts over and follows', async () => {
    const env = newTestEnvironment();
    const project = outsideFixture(env.home, 'shop');
    const agent = await startAgent({ reuse: env, args: ['--claude-bin', standInClaudeBin(env.root)] });
    const phone = await claim(agent);
    const ws = (await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project.cwd, name: 'shop' })).body;
    const tab = (await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: ws.id, kind: 'claude' })).body;
    const hook = async (event: string) => {
      const run = await runHookScript(agent.dataDir, event, outsidePayload(project, event), await paneEnv(agent, tab));
      expect(run).toMatchObject({ code: 0, stderr: '' });
    };
    await hook('SessionStart');
    await hook('UserPromptSubmit');
    const lines = readFileSync(project.transcript, 'utf8').split('\n').filter(Boolean).map((l) => `${l}\n`);
    /** The first turn only: up to the first tool call. */
    const firstTurn = lines.slice(0, 21);
    const timeline = new RawChannel(phone, `/api/timeline?tab=${tab.id}`);
    await timeline.opened;
    const messages = () => timeline.messages as TimelineMessage[];
    const shown = (from: number) => JSON.stringify(messages().slice(from));
    /** Waits for a reset and a page after message `from`, and returns the page's text. */
    const startedOver = async (from: number) =>
      eventually(
        () => {
          const later = messages().slice(from);
          const reset = later.findIndex((m) => m.type === 'timeline:reset');
          const page = later.slice(reset + 1).find((m) => m.type === 'timeline:page');
          return reset >= 0 && page ? JSON.stringify(page) : null;
        },
        20_000,
        'the timeline to start over',
      );
    const statusServed = async () => (await api<{ tabs: Record<string, TabStatus> }>(phone, 'GET', '/api/status')).body.tabs[tab.id];
    await eventually(() => shown(0).includes('do it slowly'), 20_000, 'the whole conversation');

    // Truncated in place (the same file, shorter): the timeline starts over from what is left.
    let mark = messages().length;
    truncateSync(project.transcript, Buffer.byteLength(firstTurn.join('')));
    const page = await startedOver(mark);
    expect(page).toContain('please run it');
    expect(page).not.toContain('do it slowly');
    // And follows what is appended after.
    mark = messages().length;
    appendFileSync(project.transcript, lines.slice(21).join(''));
    await eventually(() => messages().slice(mark).some((m) => m.type === 'timeline:append' && JSON.stringify(m).includes('do it slowly')), 20_000, 'the appended turns');

    // Deleted: nothing breaks, the socket stays, the agent answers.
    mark = messages().length;
    rmSync(project.transcript);
    await hook('Stop');
    await eventually(async () => (await statusServed())?.state === 'ready-for-review', 20_000, 'the status after the transcript went');
    expect(agent.process.exitCode).toBeNull();
    expect(timeline.ws.readyState).toBe(timeline.ws.OPEN);
    // The timeline says so, once, and keeps what it showed (no reset).
    await eventually(() => messages().slice(mark).some((m) => m.type === 'timeline:error'), 20_000, 'the timeline to say the transcript went');
    expect(messages().slice(mark)).toEqual([{ type: 'timeline:error', message: TRANSCRIPT_GONE }]);
    const late = new RawChannel(phone, `/api/timeline?tab=${tab.id}`);
    await late.opened;
    await eventually(() => late.messages.some((m) => m.type === 'timeline:error'), 20_000, 'a client joining to be told too');
    expect(JSON.stringify(late.messages)).toContain('do it slowly');
    late.ws.close();
    // Written again (a new file where the old one was): read from its start.
    writeFileSync(project.transcript, [...firstTurn, ...lines.slice(37, 39)].join(''));
    const again = await startedOver(mark);
    expect(again).toContain('please run it again');
    expect(again).not.toContain('do it slowly');
    await hook('UserPromptSubmit');
    await eventually(async () => (await statusServed())?.state === 'busy', 20_000, 'the status to follow the next turn');
    expect(agent.process.exitCode).toBeNull();
    timeline.ws.close();
  });

  it('with the real Claude CLI: its transcript truncated, then deleted between turns, and the timeline follows the next turns', async () => {
    fake = await FakeAnthropic.start();
    const env = newTestEnvironment();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    const project = realpathSync(join(env.home, 'project'));
    const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
    const agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: claude.env });
    const phone = await claim(agent);
    const ws = (await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project })).body;
    const tab = (await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: ws.id, kind: 'claude' })).body;
    const pane = new ClaudeTabPane(agent, tab);
    const status = new StatusClient(phone);
    await status.opened;
    await status.waitState(tab.id, 'idle', (s) => s.claudeRunning);
    await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
    /** One turn: the prompt, Claude's answer, the turn ended. */
    const turn = async (prompt: string, answer: string) => {
      fake?.onPrompt(prompt, text(answer));
      const seq = status.latest(tab.id)?.seq ?? 0;
      await pane.submit(prompt);
      return status.waitState(tab.id, 'ready-for-review', (s) => s.seq > seq);
    };
    const first = await turn('first question', 'First answer.');
    const transcript = first.transcriptPath as string;
    const timeline = new RawChannel(phone, `/api/timeline?tab=${tab.id}`);
    await timeline.opened;
    const messages = () => timeline.messages as TimelineMessage[];
    await eventually(() => JSON.stringify(messages()).includes('First answer.'), 20_000, 'the first turn on the timeline');

    // Truncated to nothing between turns: the timeline starts over, empty, then shows the next turn.
    let mark = messages().length;
    truncateSync(transcript, 0);
    await eventually(() => messages().slice(mark).some((m) => m.type === 'timeline:reset'), 20_000, 'a reset');
    await turn('second question', 'Second answer.');
    await eventually(() => JSON.stringify(messages().slice(mark)).includes('Second answer.'), 20_000, 'the second turn');
    expect(JSON.stringify(messages().slice(mark))).not.toContain('First answer.');

    // Deleted between turns: Claude writes a new file on its next turn and the timeline follows it.
    mark = messages().length;
    rmSync(transcript);
    await turn('third question', 'Third answer.');
    expect(statSync(transcript).size).toBeGreaterThan(0);
    await eventually(() => JSON.stringify(messages().slice(mark)).includes('Third answer.'), 20_000, 'the third turn');
    expect(agent.process.exitCode).toBeNull();
    expect(status.latest(tab.id)?.state).toBe('ready-for-review');
    timeline.ws.close();
    status.ws.close();
  }, 120_000);
});
