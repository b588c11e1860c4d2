/**
 * The inbox in every engine of ENGINES (Chromium and WebKit), at phone size, against a real
 * agent running the real Claude Code CLI in a Claude tab (against the stand-in API): a
 * permission request approved from its card runs the tool, one denied with a reason does not
 * and Claude is told why, a question is answered by tapping an option, and a prompt sent from
 * the composer under the timeline brings Claude's Markdown answer there. Each engine has a
 * Claude tab of its own. Screenshots: test-artifacts/engines-<engine>-inbox-*-phone.png.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { ARTIFACTS } from '../support/browser.js';
import { CLAUDE_BIN, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { askToRun as askClaudeToRun, MARKDOWN_ANSWER } from '../support/claude-turns.js';
import { api, localDevice, localPairing, type Session } from '../support/client.js';
import { ENGINES, type Engine, type EnginePage, openEngine } from '../support/engines.js';
import { eventually } from '../support/eventually.js';
import { FakeAnthropic, text, toolUse } from '../support/fake-anthropic.js';
import { capturedQuestions, StatusClient } from '../support/status.js';

let fake: FakeAnthropic;
let agent: AgentHandle;
let session: Session;
let project: string;
let workspaceId: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  mkdirSync(join(env.home, 'project'), { recursive: true });
  project = realpathSync(join(env.home, 'project'));
  // Claude may write files without asking (the review test); commands still ask.
  mkdirSync(join(project, '.claude'));
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Write'] } }));
  fake = await FakeAnthropic.start();
  const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: claude.env });
  session = await localDevice(agent);
  workspaceId = (await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project, name: 'project' })).body.id;
}, 90_000);

afterAll(async () => {
  await cleanupAgents();
  await fake?.close();
});

describe.each(ENGINES)('in %s', (name) => {
  let engine: Engine;
  let phone: EnginePage;
  let tab: TabView;
  let pane: ClaudeTabPane;
  let status: StatusClient;
  const card = (approval: Pick<Approval, 'id'>) => `pm-approval-card[data-approval-id="${approval.id}"]`;
  const gone = (approval: Pick<Approval, 'id'>) => eventually(async () => !(await phone.has({ css: card(approval) })), 10_000, 'the card to go');

  /** A prompt typed in the terminal that makes Claude ask to run `command`; resolves with its approval. */
  const askToRun = (prompt: string, command: string) => askClaudeToRun({ fake, status, pane, tabId: tab.id }, prompt, command);

  beforeAll(async () => {
    engine = await openEngine(name);
    phone = await engine.newPage('phone');
    await phone.goto((await localPairing(agent)).url);
    await phone.fill({ label: 'Device name' }, `${name} phone`);
    await phone.click({ role: 'button', name: 'Pair' });
    await phone.waitFor({ role: 'button', name: 'Settings' });
    tab = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId, kind: 'claude', claude: { permissionMode: 'default' } })).body;
    pane = new ClaudeTabPane(agent, tab);
    status = new StatusClient(session);
    await status.opened;
    await status.waitState(tab.id, 'idle', (s) => s.claudeRunning);
    await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
  }, 120_000);

  afterAll(async () => {
    status?.ws.close();
    await engine?.close();
  });

  it('approves a permission request from its card, and the tool runs', async () => {
    const file = join(project, `${name}-approved.txt`);
    fake.afterToolResult(text('All done: the command ran.'));
    const approval = await askToRun(`${name}: please run it`, `echo approved > ${file}`);
    await phone.waitFor({ role: 'button', name: 'Approve', within: card(approval) });
    expect(await phone.text({ css: 'pre', within: card(approval) })).toContain(`echo approved > ${file}`);
    // The header counts it (with what the other engine's tab left for review, if it ran first).
    await phone.waitFor({ role: 'button', name: /^Inbox, [1-9]\d* things? waits? for you$/ });
    await phone.screenshot(join(ARTIFACTS, `engines-${name}-inbox-permission-phone.png`));

    await phone.click({ role: 'button', name: 'Approve', within: card(approval) });
    await gone(approval);
    await eventually(() => existsSync(file) && readFileSync(file, 'utf8') === 'approved\n', 20_000, 'the tool to run');
    expect((await status.waitResolution(approval.id, 10_000)).by).toEqual({ kind: 'device', name: `${name} phone` });
    await status.waitState(tab.id, 'ready-for-review');
  }, 120_000);

  it('denies with a reason from the card: the tool does not run, and Claude is told why', async () => {
    const file = join(project, `${name}-denied.txt`);
    fake.afterToolResult(text('Understood, I will not.'));
    const approval = await askToRun(`${name}: try this one`, `echo denied > ${file}`);
    await phone.click({ role: 'button', name: 'Deny', within: card(approval) });
    // The first tap opens the reason; nothing is sent yet.
    await phone.fill({ role: 'textbox', name: 'Reason for Claude (optional)', within: card(approval) }, `Not from ${name}`);
    expect(status.openApprovals().map((a) => a.id)).toContain(approval.id);
    await phone.click({ role: 'button', name: 'Deny', within: card(approval) });
    await gone(approval);
    expect(await status.waitResolution(approval.id, 10_000)).toMatchObject({ outcome: 'denied', message: `Not from ${name}` });
    await eventually(() => fake.lastToolResultText().includes(`Not from ${name}`), 20_000, 'the reason in what the model was sent');
    expect(existsSync(file)).toBe(false);
    await status.waitState(tab.id, 'ready-for-review');
  }, 120_000);

  it('answers a question by tapping an option, and Claude receives the answer', async () => {
    fake.onPrompt(`${name}: ask me something`, toolUse('AskUserQuestion', { questions: capturedQuestions() }));
    fake.afterToolResult(text('Blue it is.'));
    await pane.submit(`${name}: ask me something`);
    const approval = await status.waitApproval(tab.id);
    expect(approval.kind).toBe('question');
    await phone.waitFor({ role: 'group', name: 'Which colour should the button be?', within: card(approval) });
    await phone.screenshot(join(ARTIFACTS, `engines-${name}-inbox-question-phone.png`));
    await phone.click({ role: 'button', name: /^Blue/, within: card(approval) });
    await gone(approval);
    expect((await status.waitResolution(approval.id, 10_000)).outcome).toBe('answered');
    await eventually(() => fake.lastToolResultText().includes('="Blue"'), 20_000, 'the answer in what the model was sent');
    await status.waitState(tab.id, 'ready-for-review');
  }, 120_000);

  it("sends a prompt from the composer under the timeline, and Claude's Markdown answer shows there", async () => {
    const prompt = `${name}: show me the plan`;
    fake.onPrompt(prompt, text(MARKDOWN_ANSWER));
    await phone.goto(new URL(`/t/${tab.id}/timeline`, agent.url).href);
    const field = { role: 'textbox', name: 'Prompt for Claude', within: 'pm-composer' } as const;
    await phone.waitFor(field, 20_000);
    await phone.fill(field, prompt);
    await phone.click({ role: 'button', name: 'Send', within: 'pm-composer' });
    const request = await fake.waitForRequest((r) => !r.sideCall && r.prompt?.includes(prompt) === true, 30_000);
    expect(request.prompt).toBe(prompt);
    await status.waitState(tab.id, 'ready-for-review');

    // The answer as Markdown: the list's bold word and the code block render; the script is text, never run.
    await phone.waitFor({ css: 'pm-timeline-view >>> .md li strong' }, 30_000);
    expect(await phone.text({ css: 'pm-timeline-view >>> .md li strong' })).toBe('button');
    expect(await phone.text({ css: 'pm-timeline-view >>> .md .code pre code' })).toBe('const colour = "blue";');
    const shown = await phone.text({ css: 'pm-timeline-view' });
    expect(shown).toContain('Careful with <script>window.__pwned = true</script> in templates.');
    expect(shown).toContain(prompt);
    const scripts = await phone.evaluate(() => {
      const count = (root: Document | ShadowRoot | Element): number =>
        [...root.querySelectorAll('*')].reduce((n, el) => n + (el.localName === 'script' ? 1 : 0) + (el.shadowRoot ? count(el.shadowRoot) : 0), 0);
      const view = (function find(root: Document | ShadowRoot): Element | null {
        for (const el of root.querySelectorAll('*')) {
          if (el.localName === 'pm-timeline-view') return el;
          const inner = el.shadowRoot ? find(el.shadowRoot) : null;
          if (inner) return inner;
        }
        return null;
      })(document);
      return { inView: view?.shadowRoot ? count(view.shadowRoot) : -1, ran: (window as unknown as { __pwned?: boolean }).__pwned ?? false };
    });
    expect(scripts).toEqual({ inView: 0, ran: false });
    await phone.screenshot(join(ARTIFACTS, `engines-${name}-timeline-phone.png`));
  }, 120_000);

  it('reviews what a turn changed: the Changes view lists the file Claude wrote and opens its diff', async () => {
    const file = `${name}-notes.md`;
    fake.enqueue(toolUse('Write', { file_path: join(project, file), content: '# Notes\n\nwritten in a turn\n' }), text('Wrote the notes.'));
    const seq = status.latest(tab.id)?.seq ?? 0;
    expect((await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text: `${name}: write the notes` })).status).toBe(204);
    await status.waitState(tab.id, 'ready-for-review', (s) => s.seq > seq + 1, 60_000);
    expect(readFileSync(join(project, file), 'utf8')).toBe('# Notes\n\nwritten in a turn\n');

    await phone.goto(new URL(`/t/${tab.id}/changes`, agent.url).href);
    const row = { role: 'button', name: new RegExp(file.replace('.', '\\.')), within: 'pm-changes-view' } as const;
    await phone.waitFor(row, 20_000);
    expect(await phone.text(row)).toMatch(new RegExp(`^A ${file.replace('.', '\\.')} \\+3 \u22120`));
    expect(await phone.text({ css: 'pm-changes-view >>> .summary .total' })).toBe('1 file changed, +3 \u22120');
    await phone.click(row);
    await phone.waitFor({ css: 'pm-changes-view >>> tr.add td.code' }, 20_000);
    expect(await phone.text({ css: 'pm-changes-view >>> table' })).toContain('written in a turn');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await phone.screenshot(join(ARTIFACTS, `engines-${name}-changes-phone.png`));
  }, 120_000);
});
