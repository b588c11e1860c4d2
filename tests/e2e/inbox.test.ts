/**
 * The inbox in real Chromium, against a real agent running the real Claude Code CLI in a
 * Claude tab (against the stand-in API): Claude's permission requests and questions become
 * cards on the phone's home screen and are answered there; a finished turn shows Claude's
 * answer with a field for the next prompt; on a wide screen the cards stand beside the
 * terminal.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import type { AgentHandle } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, pairBrowser } from '../support/browser.js';
import { startClaudePage, stopClaudePage } from '../support/claude-page.js';
import { ClaudeTabPane, PERMISSION_DIALOG } from '../support/claude-pane.js';
import { askToRun as askClaudeToRun } from '../support/claude-turns.js';
import { api, pairAnother, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { type FakeAnthropic, text, toolUse } from '../support/fake-anthropic.js';
import { capturedQuestions, StatusClient } from '../support/status.js';
import { PHONE_CONTEXT } from '../../agent/wiring/phone-prompts.js';

let fake: FakeAnthropic;
let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let page: Page;
let session: Session;
let project: string;
let tab: TabView;
let pane: ClaudeTabPane;
let status: StatusClient;

/** The inbox's card for an approval, on the home screen. */
function inboxCard(p: Page, approval: Pick<Approval, 'id'>): Locator {
  return p.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`);
}

function reviewCard(p: Page): Locator {
  return p.locator(`pm-inbox pm-review-card[data-tab-id="${tab.id}"]`);
}

async function expectTitle(p: Page, title: string): Promise<void> {
  await expect.poll(() => p.title(), { timeout: 10_000, interval: 100 }).toBe(title);
}

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(p: Page): Promise<void> {
  expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** A prompt typed in the terminal that makes Claude ask to run `command`; resolves with its approval. */
function askToRun(prompt: string, command: string): Promise<Approval> {
  return askClaudeToRun({ fake, status, pane, tabId: tab.id }, prompt, command);
}

beforeAll(async () => {
  ({ fake, agent, browser, phone, page, session, project } = await startClaudePage());
  const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project, name: 'project' });
  const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } });
  tab = created.body;
  pane = new ClaudeTabPane(agent, tab);
  status = new StatusClient(session);
  await status.opened;
  await status.waitState(tab.id, 'idle', (s) => s.claudeRunning);
  await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
}, 90_000);

afterAll(async () => {
  status?.ws.close();
  await stopClaudePage({ browser, fake });
});

describe('the inbox with the real Claude Code CLI', () => {
  it('shows a permission request as a card on the phone, and Approve runs the tool', async () => {
    // An empty inbox takes no room: the sessions start at the top.
    await page.locator(`pm-tab-row[data-tab-id="${tab.id}"]`).waitFor();
    expect(await page.locator('pm-inbox').isVisible()).toBe(false);

    const file = join(project, 'approved.txt');
    fake.afterToolResult(text('All done: the command ran.'));
    const approval = await askToRun('please run it', `echo approved > ${file}`);
    const card = inboxCard(page, approval);
    await card.waitFor();
    await card.locator('pre').getByText(`echo approved > ${file}`).waitFor();
    await card.getByText('Write a file').waitFor();
    await card.getByText('project').first().waitFor();
    expect(await card.locator('.where').textContent()).toMatch(/project\s*·\s*Claude\s*·\s*just now/);
    // The tab waits on its card, not once more as a tab waiting in the terminal.
    expect(await page.locator('pm-inbox button.waiting').count()).toBe(0);
    await expectTitle(page, '(1) pocketmux');
    await page.getByRole('button', { name: 'Inbox, 1 thing waits for you' }).waitFor();

    // Deny and Approve: large, on one row, far apart.
    const deny = await card.getByRole('button', { name: 'Deny' }).boundingBox();
    const approve = await card.getByRole('button', { name: 'Approve' }).boundingBox();
    if (!deny || !approve) throw new Error('the buttons are not laid out');
    expect(deny.height).toBeGreaterThanOrEqual(48);
    expect(approve.height).toBeGreaterThanOrEqual(48);
    expect(Math.abs(deny.y - approve.y)).toBeLessThan(1);
    expect(approve.x - (deny.x + deny.width)).toBeGreaterThanOrEqual(24);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-inbox-permission-phone.png') });

    await card.getByRole('button', { name: 'Approve' }).tap();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    await eventually(() => existsSync(file) && readFileSync(file, 'utf8') === 'approved\n', 20_000, 'the tool to run');
    // No key was typed: Claude took the card's answer through its hook.
    await pane.waitScreen('the hook to answer', (s) => !s.includes(PERMISSION_DIALOG) && s.includes('Allowed by PermissionRequest hook'));
    await status.waitState(tab.id, 'ready-for-review');
  }, 120_000);

  it('denies with a reason from the card: the tool does not run, Claude is told why', async () => {
    const file = join(project, 'denied.txt');
    fake.afterToolResult(text('Understood, I will not.'));
    const approval = await askToRun('try this one', `echo denied > ${file}`);
    const card = inboxCard(page, approval);
    await card.waitFor();
    await card.getByRole('button', { name: 'Deny' }).tap();
    // The first tap only opens the reason; nothing is sent yet.
    await card.getByRole('textbox', { name: 'Reason for Claude (optional)' }).fill('Use the staging server instead');
    expect(status.openApprovals().map((a) => a.id)).toContain(approval.id);
    await card.getByRole('button', { name: 'Deny' }).tap();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    const resolution = await status.waitResolution(approval.id, 10_000);
    expect(resolution).toMatchObject({ outcome: 'denied', message: 'Use the staging server instead', by: { kind: 'device', name: 'Pixel 8' } });
    await eventually(() => fake.lastToolResultText().includes('Use the staging server instead'), 20_000, 'the reason in what the model was sent');
    expect(existsSync(file)).toBe(false);
    await status.waitState(tab.id, 'ready-for-review');
  }, 120_000);

  it('answers a question by tapping an option: Claude receives the answer', async () => {
    const questions = capturedQuestions();
    fake.onPrompt('ask me something', toolUse('AskUserQuestion', { questions }));
    fake.afterToolResult(text('Blue it is.'));
    await pane.submit('ask me something');
    const approval = await status.waitApproval(tab.id);
    expect(approval.kind).toBe('question');
    const card = inboxCard(page, approval);
    await card.getByRole('group', { name: 'Which colour should the button be?' }).waitFor();
    await card.getByText('Colour', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Let Claude go without an answer' }).waitFor();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-inbox-question-phone.png') });

    await card.getByRole('button', { name: /^Blue/ }).tap();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    expect((await status.waitResolution(approval.id, 10_000)).outcome).toBe('answered');
    await eventually(() => fake.lastToolResultText().includes('="Blue"'), 20_000, 'the answer in what the model was sent');
    await status.waitState(tab.id, 'ready-for-review');
  }, 120_000);

  it('collects the answers to several questions, one of them multiple choice, then sends them together', async () => {
    const questions = [
      {
        question: 'Which colour should the button be?',
        header: 'Colour',
        options: [
          { label: 'Red', description: 'Warm' },
          { label: 'Blue', description: 'Calm' },
        ],
        multiSelect: false,
      },
      {
        question: 'Which states need it?',
        header: 'States',
        options: [
          { label: 'Hover', description: 'Pointer over it' },
          { label: 'Focus', description: 'Keyboard focus' },
          { label: 'Pressed', description: 'While held down' },
        ],
        multiSelect: true,
      },
    ];
    fake.onPrompt('ask me two things', toolUse('AskUserQuestion', { questions }));
    fake.afterToolResult(text('Noted both.'));
    await pane.submit('ask me two things');
    const approval = await status.waitApproval(tab.id);
    const card = inboxCard(page, approval);
    const send = card.getByRole('button', { name: 'Send answers' });
    await send.waitFor();
    const colour = card.getByRole('group', { name: 'Which colour should the button be?' });
    const states = card.getByRole('group', { name: 'Which states need it?' });
    await colour.getByRole('button', { name: /^Red/ }).tap();
    // Nothing goes until every question has an answer.
    expect(await send.isDisabled()).toBe(true);
    await states.getByRole('button', { name: /^Pressed/ }).tap();
    await states.getByRole('button', { name: /^Hover/ }).tap();
    await states.getByRole('textbox', { name: /^Other answer/ }).fill('Disabled');
    expect(await states.getByRole('button', { name: /^Hover/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await send.isDisabled()).toBe(false);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-inbox-questions-phone.png'), fullPage: true });
    expect(status.openApprovals().map((a) => a.id)).toContain(approval.id);
    await send.tap();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    await eventually(() => fake.lastToolResultText().includes('="Hover, Pressed, Disabled"') && fake.lastToolResultText().includes('="Red"'), 20_000, 'both answers in what the model was sent');
    await status.waitState(tab.id, 'ready-for-review');
  }, 120_000);

  it("shows Claude's last answer for review, and a reply sent from the card starts the next turn", async () => {
    const answer = [
      'Here is what I changed:',
      '- the button is blue now',
      '- its hover colour follows it',
      '- the tests cover both themes',
      '- the changelog says so',
      'Nothing else was touched.',
    ].join('\n');
    fake.onPrompt('sum it up', text(answer));
    await pane.submit('sum it up');
    await status.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === answer);
    const card = reviewCard(page);
    await card.getByText('Here is what I changed:').waitFor();
    // Clamped to a few lines, with "more" for the rest.
    const more = card.getByRole('button', { name: 'more' });
    await more.waitFor();
    const message = card.locator('.message');
    const hidden = () => message.evaluate((el) => el.scrollHeight - el.clientHeight);
    expect(await hidden()).toBeGreaterThan(0);
    await expectTitle(page, '(1) pocketmux');

    fake.onPrompt('now write the docs', text('The docs are written.'));
    const reply = card.getByRole('textbox', { name: 'Reply to Claude' });
    await reply.fill('now write the docs');
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-inbox-review-phone.png') });
    await more.tap();
    await card.getByRole('button', { name: 'less' }).waitFor();
    expect(await hidden()).toBeLessThanOrEqual(1);
    // Reading on keeps what was typed.
    expect(await reply.inputValue()).toBe('now write the docs');
    const seen = status.messages.length;
    await card.getByRole('button', { name: 'Send' }).tap();
    await fake.waitForRequest((r) => r.prompt === 'now write the docs');
    await status.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'The docs are written.');
    // The prompt went in as a new turn: busy, then ready for review again.
    // (An update of the finished turn, its usage say, may come first.)
    const after = new StatusClientView(status, seen).states(tab.id);
    expect(after.slice(after.indexOf('busy'))).toEqual(['busy', 'ready-for-review']);
    await card.getByText('The docs are written.').waitFor();
    expect(await card.getByRole('textbox', { name: 'Reply to Claude' }).inputValue()).toBe('');

    // "Done": seen here, nothing more to do.
    await card.getByRole('button', { name: 'Done' }).tap();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    await status.waitState(tab.id, 'idle');
    await expectTitle(page, 'pocketmux');
  }, 120_000);

  it('takes the card away when the dialog is answered in the terminal', async () => {
    const file = join(project, 'terminal.txt');
    fake.afterToolResult(text('Ran it.'));
    const approval = await askToRun('run it here', `echo terminal > ${file}`);
    const card = inboxCard(page, approval);
    await card.waitFor();
    await pane.answerDialog('1');
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    expect((await status.waitResolution(approval.id, 10_000)).outcome).toBe('answered-in-terminal');
    await eventually(() => existsSync(file), 10_000, 'the tool to run');
    await status.waitState(tab.id, 'ready-for-review');

    // The bell, on a tab's screen, leads back to the inbox at the top.
    await reviewCard(page).getByRole('button', { name: 'Open terminal' }).tap();
    await page.waitForURL(new RegExp(`/t/${tab.id}$`));
    // Opening the tab is seeing its result: nothing waits any more.
    await page.getByRole('button', { name: 'Inbox, nothing waits for you' }).tap();
    await page.waitForURL(agent.url);
    await page.locator(`pm-tab-row[data-tab-id="${tab.id}"]`).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expectTitle(page, 'pocketmux');
  }, 120_000);

  it('keeps the inbox beside the open terminal on a wide screen, in the sidebar', async () => {
    const desktop = await browser.newContext(DESKTOP);
    await pairBrowser(desktop, agent, 'Desktop');
    const dpage = await desktop.newPage();
    await dpage.goto(new URL(`/t/${tab.id}`, agent.url).toString());
    await dpage.locator('.xterm-rows').waitFor();

    const file = join(project, 'desktop.txt');
    fake.afterToolResult(text('Done on the desktop.'));
    const approval = await askToRun('from the desk', `echo desk > ${file}`);
    const sidebar = dpage.locator('pm-session-list');
    const card = sidebar.locator(`pm-approval-card[data-approval-id="${approval.id}"]`);
    await card.getByRole('button', { name: 'Approve' }).waitFor();
    // Beside its own tab the card offers no way to where the person already is.
    expect(await card.getByRole('button', { name: 'Open terminal' }).count()).toBe(0);
    const column = await sidebar.boundingBox();
    const screen = await dpage.locator('.xterm-screen').boundingBox();
    if (!column || !screen) throw new Error('not laid out');
    expect(column.width).toBeGreaterThanOrEqual(340);
    expect(column.x + column.width).toBeLessThanOrEqual(screen.x);
    await dpage.getByRole('button', { name: 'Inbox, 1 thing waits for you' }).waitFor();
    await expectNoSidewaysScroll(dpage);
    // The phone shows the same card in its inbox.
    await inboxCard(page, approval).waitFor();
    await dpage.screenshot({ path: join(ARTIFACTS, 'e2e-inbox-terminal-desktop.png') });

    await card.getByRole('button', { name: 'Approve' }).click();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    // Settled on one device, gone from every screen.
    await inboxCard(page, approval).waitFor({ state: 'detached', timeout: 10_000 });
    expect((await status.waitResolution(approval.id, 10_000)).by).toEqual({ kind: 'device', name: 'Desktop' });
    await eventually(() => existsSync(file), 20_000, 'the tool to run');
    await desktop.close();
  }, 120_000);

  it('says who answered first when another device got there before this one', async () => {
    // A page that misses the agent's word that the approval was settled, as a phone on a slow
    // network would: its card is still up when the person taps it.
    const late = await phone.newPage();
    // The app's socket carries its proof as the last query parameter.
    await late.routeWebSocket(/\/api\/status\?proof=[^&]*$/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => {
        if (typeof m === 'string' && m.includes('"approval-resolved"')) return;
        ws.send(m);
      });
      ws.onMessage((m) => server.send(m));
    });
    await late.goto(agent.url);
    const laptop = await pairAnother(agent, session, 'Laptop');
    const file = join(project, 'raced.txt');
    fake.afterToolResult(text('Ran it for the laptop.'));
    const approval = await askToRun('race for it', `echo raced > ${file}`);
    const card = inboxCard(late, approval);
    await card.getByRole('button', { name: 'Approve' }).waitFor();
    expect((await api(laptop, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow' })).status).toBe(200);
    await inboxCard(page, approval).waitFor({ state: 'detached', timeout: 10_000 });

    await card.getByRole('button', { name: 'Approve' }).tap();
    await card.getByRole('status').filter({ hasText: 'Already approved by Laptop' }).waitFor();
    await late.screenshot({ path: join(ARTIFACTS, 'e2e-inbox-settled-elsewhere-phone.png') });
    expect(await card.getByRole('button').count()).toBe(0);
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    await eventually(() => existsSync(file), 20_000, 'the tool to run');
    await late.close();
  }, 120_000);

  it('answers a plan by its number from the card: the keys reach the dialog and Claude goes on', async () => {
    await page.goto(agent.url);
    const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: tab.workspaceId, kind: 'claude', claude: { permissionMode: 'plan' } });
    const planTab = created.body;
    const planPane = new ClaudeTabPane(agent, planTab);
    await status.waitState(planTab.id, 'idle', (s) => s.claudeRunning);
    await planPane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
    fake.onPrompt('plan the change', toolUse('ExitPlanMode', { plan: 'Step 1: rename the button.\nStep 2: update the tests.' }));
    fake.afterToolResult(text('Leaving plan mode now.'));
    await planPane.submit('plan the change');
    const approval = await eventually(() => status.openApprovals().find((a) => a.tabId === planTab.id), 30_000, 'the plan');
    const card = inboxCard(page, approval);
    await card.getByText('Step 2: update the tests.').waitFor();
    const yes = card.getByRole('button', { name: /^Yes/ });
    await yes.waitFor();
    await card.getByRole('button', { name: 'No', exact: true }).waitFor();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-inbox-plan-phone.png') });
    await yes.tap();
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    await planPane.waitScreen('Claude to go on', (s) => !s.includes('Exit plan mode?') && s.includes('Leaving plan mode now.'), 20_000);
    await api(session, 'DELETE', `/api/tabs/${planTab.id}`);
  }, 120_000);

  it('tells Claude a reply came from a phone once this device chose so in Settings, and only that reply', async () => {
    await page.goto(new URL('/settings', agent.url).href);
    const choice = page.getByRole('switch', { name: 'Tell Claude when I write from my phone' });
    expect(await choice.isChecked()).toBe(false);
    await choice.tap();
    expect(await choice.isChecked()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-settings-phone-context-phone.png'), fullPage: true });
    await page.goto(new URL('/', agent.url).href);

    fake.onPrompt('a turn to reply to', text('Turn done.'));
    await pane.submit('a turn to reply to');
    await status.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Turn done.');
    fake.onPrompt('short answer please', text('Short.'));
    const card = reviewCard(page);
    await card.getByRole('textbox', { name: 'Reply to Claude' }).fill('short answer please');
    await card.getByRole('button', { name: 'Send' }).tap();
    const replied = await fake.waitForRequest((r) => r.prompt === 'short answer please');
    expect(JSON.stringify(replied.body?.messages?.at(-1))).toContain(PHONE_CONTEXT);
    // The turn before, typed at the keyboard, carried no such word.
    const typed = fake.mainRequests().find((r) => r.prompt === 'a turn to reply to');
    expect(typed).toBeDefined();
    expect(JSON.stringify(typed?.body?.messages?.at(-1) ?? null)).not.toContain(PHONE_CONTEXT);
    await status.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Short.');
  }, 120_000);
});

/** The states a status client was told about after its first `from` messages. */
class StatusClientView {
  constructor(
    private readonly client: StatusClient,
    private readonly from: number,
  ) {}

  states(tabId: string): string[] {
    const out: string[] = [];
    for (const m of this.client.messages.slice(this.from)) {
      const s = m.type === 'status:update' && m.tabId === tabId ? m.status : undefined;
      if (s && out.at(-1) !== s.state) out.push(s.state);
    }
    return out;
  }
}
