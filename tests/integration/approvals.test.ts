/**
 * Approvals end to end: the real Claude Code CLI in a Claude tab of a real agent, against the
 * stand-in API. Claude's PermissionRequest hook (Claude's own HTTP request) is held by the
 * agent, offered on a real `/api/status` client, and answered through the REST API as a
 * paired device would; or answered in the terminal first, or left when the agent stops.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval, ApprovalResolution } from '../../protocol/approvals.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { CLAUDE_BIN, type ClaudeEnv, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudeTabPane, PERMISSION_DIALOG } from '../support/claude-pane.js';
import { askToRun as askClaudeToRun } from '../support/claude-turns.js';
import { api, claim, pairAnother, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { FakeAnthropic, text, toolUse } from '../support/fake-anthropic.js';
import { capturedQuestions, StatusClient } from '../support/status.js';

type Decided = { resolution: ApprovalResolution };
type Refused = { error: string; resolution?: ApprovalResolution };

describe('approvals with the real Claude Code CLI', () => {
  let fake: FakeAnthropic;
  let claude: ClaudeEnv;
  let agent: AgentHandle;
  let phone: Session;
  let laptop: Session;
  let project: string;
  let tab: TabView;
  let pane: ClaudeTabPane;
  let status: StatusClient;
  const env = newTestEnvironment();

  /** A prompt that makes Claude ask to run `command`; resolves with the approval offered. */
  const askToRun = (prompt: string, command: string) => askClaudeToRun({ fake, status, pane, tabId: tab.id }, prompt, command);

  const decide = <T>(session: Session, id: string, body: unknown) => api<T>(session, 'POST', `/api/approvals/${id}`, body);

  beforeAll(async () => {
    fake = await FakeAnthropic.start();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
    agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: { ...claude.env, POCKETMUX_LOG_LEVEL: 'debug' } });
    phone = await claim(agent, 'Pixel 8');
    laptop = await pairAnother(agent, phone, 'Laptop');
    const ws = await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project });
    const created = await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } });
    tab = created.body;
    pane = new ClaudeTabPane(agent, tab);
    status = new StatusClient(phone);
    await status.opened;
    await status.waitState(tab.id, 'idle', (s) => s.claudeRunning);
    await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
  });

  afterAll(async () => {
    status?.ws.close();
    await cleanupAgents();
    await fake?.close();
  });

  it('holds the hook until a device approves: the dialog closes by itself and the tool runs', async () => {
    const file = join(project, 'approved.txt');
    fake.afterToolResult(text('All done: the command ran.'));
    const approval = await askToRun('please run it', `echo approved > ${file}`);
    expect(approval).toMatchObject({ kind: 'permission', tool: 'Bash', sessionId: status.latest(tab.id)?.sessionId });
    expect(approval.summary.title).toContain('echo approved');
    expect(approval.summary.description).toBe('Write a file');
    expect(approval.expiresAt - approval.createdAt).toBe(590_000);
    // Claude waits on the held hook: the tool has not run, the tab needs input.
    expect(existsSync(file)).toBe(false);
    expect(status.latest(tab.id)?.state).toBe('needs-input');
    expect((await api<{ approvals: Approval[] }>(phone, 'GET', '/api/approvals')).body.approvals.map((a) => a.id)).toEqual([approval.id]);

    const decided = await decide<Decided>(phone, approval.id, { decision: 'allow' });
    expect(decided.status).toBe(200);
    expect(decided.body.resolution).toMatchObject({ outcome: 'approved', by: { kind: 'device', name: 'Pixel 8' } });
    // No key was typed: Claude took the hook's answer.
    await pane.waitScreen('the dialog to close', (s) => !s.includes(PERMISSION_DIALOG));
    await status.waitState(tab.id, 'ready-for-review');
    expect(readFileSync(file, 'utf8')).toBe('approved\n');
    expect(await pane.screen()).toContain('Allowed by PermissionRequest hook');

    const late = await decide<Refused>(laptop, approval.id, { decision: 'deny' });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('already approved by Pixel 8');
    expect(status.openApprovals()).toEqual([]);
    expect(agent.stderr()).toMatch(new RegExp(`hook answered \\{"id":"${approval.id}","outcome":"approved","decided":true`));
  });

  it('denies with a reason: the tool does not run and Claude is told why', async () => {
    const file = join(project, 'denied.txt');
    fake.afterToolResult(text('Understood, I will not.'));
    const approval = await askToRun('try this one', `echo denied > ${file}`);
    const decided = await decide<Decided>(laptop, approval.id, { decision: 'deny', message: 'Use the staging server instead' });
    expect(decided.body.resolution).toMatchObject({ outcome: 'denied', message: 'Use the staging server instead', by: { name: 'Laptop' } });
    await eventually(() => fake.lastToolResultText().includes('Use the staging server instead'), 20_000, 'the reason in what the model was sent');
    expect(existsSync(file)).toBe(false);
    // The transcript keeps it too.
    const transcript = status.latest(tab.id)?.transcriptPath;
    await eventually(() => transcript && readFileSync(transcript, 'utf8').includes('Use the staging server instead'), 10_000, 'the reason in the transcript');
  });

  it('lets exactly one of two devices deciding at once win', async () => {
    const file = join(project, 'raced.txt');
    fake.afterToolResult(text('Done.'));
    const approval = await askToRun('race for it', `echo raced > ${file}`);
    const [a, b] = await Promise.all([
      decide<Decided & Refused>(phone, approval.id, { decision: 'allow' }),
      decide<Decided & Refused>(laptop, approval.id, { decision: 'deny', message: 'no' }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = a.status === 200 ? a.body.resolution : b.body.resolution;
    const loser = a.status === 409 ? a.body : b.body;
    expect(loser.resolution).toEqual(winner);
    await status.waitState(tab.id, 'ready-for-review');
    expect(existsSync(file)).toBe(winner.outcome === 'approved');
    expect(status.messages.filter((m) => m.type === 'approval-resolved' && m.resolution.id === approval.id)).toHaveLength(1);
  });

  it('answers a question from a device: Claude receives the answer', async () => {
    const questions = capturedQuestions();
    fake.onPrompt('ask me something', toolUse('AskUserQuestion', { questions }));
    fake.afterToolResult(text('Blue it is.'));
    await pane.submit('ask me something');
    const approval = await status.waitApproval(tab.id);
    expect(approval).toMatchObject({ kind: 'question', tool: 'AskUserQuestion' });
    expect(approval.questions).toEqual([
      { question: questions[0]?.question, header: 'Colour', options: [{ label: 'Red', description: 'A red button' }, { label: 'Blue', description: 'A blue button' }], multiSelect: false },
    ]);
    const decided = await decide<Decided>(phone, approval.id, { decision: 'answer', answers: { 'Which colour should the button be?': 'Blue' } });
    expect(decided.body.resolution.outcome).toBe('answered');
    await eventually(() => fake.lastToolResultText().includes('="Blue"'), 20_000, 'the answer in what the model was sent');
    await status.waitState(tab.id, 'ready-for-review');
  });

  it('answered "1" in the terminal first: the card goes and the held hook is let go', async () => {
    const file = join(project, 'terminal.txt');
    fake.afterToolResult(text('Ran it.'));
    const approval = await askToRun('run it here', `echo terminal > ${file}`);
    await pane.answerDialog('1');
    const resolution = await status.waitResolution(approval.id, 10_000);
    expect(resolution).toMatchObject({ outcome: 'answered-in-terminal', by: { kind: 'terminal', name: null } });
    await eventually(() => readFileSync(file, 'utf8') === 'terminal\n', 10_000, 'the tool to run');
    // Claude's request was answered with no decision, not left open until claude exits.
    expect(agent.stderr()).toMatch(new RegExp(`hook answered \\{"id":"${approval.id}","outcome":"answered-in-terminal","decided":false`));
    expect((await decide<Refused>(phone, approval.id, { decision: 'allow' })).body.error).toBe('already answered in the terminal');
    await status.waitState(tab.id, 'ready-for-review');
  });

  it('answered "No" in the terminal: Claude drops the held request, and the card goes', async () => {
    const file = join(project, 'refused.txt');
    const approval = await askToRun('refuse it here', `echo refused > ${file}`);
    await pane.answerDialog('4');
    const resolution = await status.waitResolution(approval.id, 10_000);
    expect(resolution.outcome).toBe('answered-in-terminal');
    expect(agent.stderr()).toContain(`hook request closed by claude {"id":"${approval.id}"}`);
    expect(existsSync(file)).toBe(false);
    await status.waitState(tab.id, 'idle');
  });

  it('offers ExitPlanMode as a dialog answered by keys, with the options read from the screen', async () => {
    const created = await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: tab.workspaceId, kind: 'claude', claude: { permissionMode: 'plan' } });
    const planTab = created.body;
    const planPane = new ClaudeTabPane(agent, planTab);
    await status.waitState(planTab.id, 'idle', (s) => s.claudeRunning);
    await planPane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
    fake.onPrompt('plan the change', toolUse('ExitPlanMode', { plan: 'Step 1: rename the button.' }));
    fake.afterToolResult(text('Leaving plan mode now.'));
    await planPane.submit('plan the change');
    const approval = await status.waitApproval(planTab.id);
    expect(approval).toMatchObject({ kind: 'plan', tool: 'ExitPlanMode' });
    // The hook's input is empty; the plan is read from the transcript.
    expect(approval.summary.body).toBe('Step 1: rename the button.');
    expect(approval.options.map((o) => o.key)).toEqual(['1', '2']);
    expect(approval.options[1]?.label).toBe('No');
    await planPane.waitScreen('the plan dialog', (s) => s.includes('Exit plan mode?'));
    // An option the dialog does not have is refused, and nothing is typed.
    expect((await decide<Refused>(phone, approval.id, { decision: 'answer', option: '7' })).status).toBe(400);
    const decided = await decide<Decided>(phone, approval.id, { decision: 'answer', option: '1' });
    expect(decided.status).toBe(200);
    expect(decided.body.resolution).toMatchObject({ outcome: 'answered', by: { name: 'Pixel 8' } });
    await planPane.waitScreen('the dialog to close and Claude to go on', (s) => !s.includes('Exit plan mode?') && s.includes('Leaving plan mode now.'));
    await api(phone, 'DELETE', `/api/tabs/${planTab.id}`);
  });

  it('after an agent restart, offers the dialog still on screen and answers it by keys', async () => {
    const file = join(project, 'after-restart.txt');
    fake.afterToolResult(text('Ran after the restart.'));
    const approval = await askToRun('while the agent restarts', `echo restarted > ${file}`);
    status.ws.close();
    await agent.stop('SIGKILL');
    agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN, '--port', String(agent.port)], env: { ...claude.env, POCKETMUX_LOG_LEVEL: 'debug' } });
    phone = await claim(agent, 'Pixel 8 again');
    status = new StatusClient(phone);
    await status.opened;
    // The held hook died with the agent; the dialog is still up, read off the screen.
    const offered = await status.waitApproval(tab.id, 15_000);
    expect(offered.id).not.toBe(approval.id);
    expect(offered).toMatchObject({ kind: 'dialog', tool: null, summary: { title: 'Bash command: Do you want to proceed?' } });
    expect(offered.options.map((o) => o.key)).toEqual(['1', '2', '3', '4']);
    expect(offered.options[3]?.label).toBe('No');
    const decided = await decide<Decided>(phone, offered.id, { decision: 'answer', option: '1' });
    expect(decided.status).toBe(200);
    await eventually(() => existsSync(file) && readFileSync(file, 'utf8') === 'restarted\n', 15_000, 'the tool to run');
    await status.waitState(tab.id, 'ready-for-review');
    expect(status.openApprovals()).toEqual([]);
  });

  it('the agent stopping while Claude waits does not block Claude: the dialog stays to the person', async () => {
    const file = join(project, 'after-stop.txt');
    fake.afterToolResult(text('Carried on without the agent.'));
    const approval = await askToRun('while the agent stops', `echo carried-on > ${file}`);
    await agent.stop();
    expect(agent.stderr()).toMatch(new RegExp(`hook answered \\{"id":"${approval.id}","outcome":"agent-stopped","decided":false`));
    // The dialog is still there and takes the answer typed in the terminal.
    expect(await pane.screen()).toContain(PERMISSION_DIALOG);
    await pane.answerDialog('1');
    await pane.waitScreen('the turn to end', (s) => s.includes('Carried on without the agent.'));
    expect(readFileSync(file, 'utf8')).toBe('carried-on\n');
  });
});
