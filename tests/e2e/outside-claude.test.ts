/**
 * Claude started outside pocketmux, in real Chromium with the real Claude Code CLI against the
 * stand-in API: pocketmux's hooks in Claude's user settings (`pocketmux hooks install`), one
 * claude in the person's own tmux server and one with no tmux at all (a bare pty). On a phone,
 * each is listed under "Outside pocketmux" by its directory; its approvals and questions are
 * answered from the inbox; the tmux one's terminal opens and takes typing; the other says it
 * has no terminal. Last, the tmux one is adopted from the app: its claude ends, and a Claude tab
 * resumes the same conversation.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import xtermHeadless from '@xterm/headless';
import * as pty from 'node-pty';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, pairPage, waitForLine } from '../support/browser.js';
import { CLAUDE_BIN, type ClaudeEnv, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudePane, ClaudeTabPane, PERMISSION_DIALOG } from '../support/claude-pane.js';
import { api, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { bash, FakeAnthropic, text, toolUse } from '../support/fake-anthropic.js';
import { TmuxServer } from '../support/tmux-server.js';
import { capturedQuestions, StatusClient } from '../support/status.js';

const NO_TERMINAL_LINE = 'No terminal: started outside tmux';
const NO_TERMINAL_VIEW =
  'No terminal: this Claude was started outside tmux. Its approvals, questions and timeline are here; type to it in its own terminal on the machine.';
const ADOPT_IN_TMUX =
  'Move this conversation into a pocketmux tab? Its claude in your tmux is ended, and a Claude tab here resumes the same conversation. Anything typed but not sent there is lost.';
const EMPTY_PROMPT = /^❯ *$/m;

const env = newTestEnvironment();
const own = TmuxServer.named('own');
let fake: FakeAnthropic;
let claude: ClaudeEnv;
let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let desktop: BrowserContext;
let page: Page;
let session: Session;
let status: StatusClient;
/** Where each claude was started: the tmux one, and the one with no tmux. */
let apiServer: string;
let webApp: string;

/** The claude in the person's own tmux, and its outside session. */
let pane: ClaudePane;
let inTmux: OutsideSessionView;

/** The claude with no tmux: a pty of the test's own, its screen kept as a terminal would. */
let claudePty: pty.IPty | undefined;
const plainScreen = new xtermHeadless.Terminal({ cols: 120, rows: 40, allowProposedApi: true });
let plain: OutsideSessionView;

const outsideList = async () => (await api<{ sessions: OutsideSessionView[] }>(session, 'GET', '/api/outside')).body.sessions;
/** The one outside session started in `dir`, once its first hook arrived. */
const sessionIn = (dir: string) => eventually(async () => (await outsideList()).find((s) => s.cwd === dir), 30_000, `an outside session in ${dir}`);

function row(p: Page, who: Pick<OutsideSessionView, 'key'>): Locator {
  return p.locator(`pm-outside-card pm-outside-row[data-key="${who.key}"]`);
}

function inboxCard(p: Page, approval: Pick<Approval, 'id'>): Locator {
  return p.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`);
}

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(p: Page): Promise<void> {
  expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** A control large enough for a finger. */
async function expectTappable(control: Locator): Promise<void> {
  const box = await control.boundingBox();
  if (!box) throw new Error('not laid out');
  expect(box.width).toBeGreaterThanOrEqual(44);
  expect(box.height).toBeGreaterThanOrEqual(44);
}

async function plainText(): Promise<string> {
  await new Promise<void>((resolve) => plainScreen.write('', resolve));
  const buffer = plainScreen.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < plainScreen.rows; y++) rows.push((buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd());
  return rows.join('\n').replaceAll('\u00a0', ' ');
}

function waitPlain(what: string, test: (s: string) => boolean, timeoutMs = 20_000): Promise<string> {
  return eventually(
    async () => {
      const s = await plainText();
      return test(s) ? s : null;
    },
    timeoutMs,
    what,
  );
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  mkdirSync(join(env.home, 'code', 'api-server'), { recursive: true });
  mkdirSync(join(env.home, 'code', 'web-app'), { recursive: true });
  apiServer = realpathSync(join(env.home, 'code', 'api-server'));
  webApp = realpathSync(join(env.home, 'code', 'web-app'));
  fake = await FakeAnthropic.start();
  claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [apiServer, webApp] });
  [agent, browser] = await Promise.all([
    startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: { ...claude.env, POCKETMUX_OUTSIDE_POLL_MS: '300' } }),
    launchBrowser(),
  ]);
  const installed = await runCli(['hooks', 'install', '--data-dir', agent.dataDir], agentEnv(agent));
  expect(installed.code, installed.stderr).toBe(0);

  phone = await browser.newContext(PHONE);
  page = await phone.newPage();
  await pairPage(page, { link: agent.link }, 'Pixel 8');
  session = await localDevice(agent);
  desktop = await browser.newContext(DESKTOP);
  await pairBrowser(desktop, agent, 'Desktop');
  status = new StatusClient(session);
  await status.opened;

  // The person starts claude in a pane of their own tmux, after installing the hooks.
  const paneId = await own.open(apiServer, `'${CLAUDE_BIN}' --permission-mode default`, claude.env);
  pane = new ClaudePane(own.socket, paneId);
  inTmux = await sessionIn(apiServer);
  expect(inTmux).toMatchObject({ terminal: 'tmux', pane: paneId });
  await pane.waitScreen('the idle prompt', (s) => EMPTY_PROMPT.test(s), 30_000);
  await status.waitState(inTmux.key, 'idle');
}, 120_000);

afterAll(async () => {
  status?.ws.close();
  try {
    claudePty?.kill('SIGKILL');
  } catch {
    // Already gone.
  }
  plainScreen.dispose();
  await own.stop();
  await browser?.close();
  await cleanupAgents();
  await fake?.close();
});

describe('Claude started outside pocketmux, on a phone', () => {
  it('lists the claude of the person’s tmux under Outside pocketmux, named by its directory', async () => {
    const group = page.locator('pm-outside-card');
    await group.getByRole('heading', { name: 'Outside pocketmux' }).waitFor();
    const mine = row(page, inTmux);
    await mine.getByText('api-server', { exact: true }).waitFor();
    await mine.locator('.path bdi', { hasText: '~/code/api-server' }).waitFor();
    await mine.getByText('Idle', { exact: true }).waitFor();
    await mine.getByRole('button', { name: 'Open the terminal of api-server' }).waitFor();
    // Between turns it can be made a tab of its own.
    const adopt = mine.getByRole('button', { name: 'Adopt api-server as a pocketmux tab' });
    await adopt.waitFor();
    await expectTappable(adopt);
    await expectTappable(mine.getByRole('button', { name: 'Open the terminal of api-server' }));
    expect(await mine.getByText(NO_TERMINAL_LINE).count()).toBe(0);
    await expectNoSidewaysScroll(page);
  }, 60_000);

  it('asks for approval on an inbox card; Approve runs the tool, answered through the hook', async () => {
    const file = join(apiServer, 'approved.txt');
    const mine = row(page, inTmux);
    // A confirmation to adopt, opened between turns and still up when Claude asks something…
    await mine.getByRole('button', { name: 'Adopt api-server as a pocketmux tab' }).tap();
    const confirm = mine.getByRole('alertdialog', { name: ADOPT_IN_TMUX });
    await confirm.waitFor();

    fake.onPrompt('run it outside', bash(`echo approved > ${file}`, 'Write a file'));
    fake.afterToolResult(text('Done outside.'));
    await pane.submit('run it outside');
    const approval = await status.waitApproval(inTmux.key);
    expect(approval).toMatchObject({ kind: 'permission', tool: 'Bash' });
    await pane.waitScreen('the permission dialog', (s) => s.includes(PERMISSION_DIALOG));
    const card = inboxCard(page, approval);
    await card.locator('pre').getByText(`echo approved > ${file}`).waitFor();
    expect(await card.locator('.where').textContent()).toMatch(/Outside pocketmux\s*·\s*api-server\s*·/);

    // …is refused by the agent, which says why, and nothing is ended.
    await mine.getByText('Needs input', { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Adopt' }).tap();
    await mine.getByRole('alert').getByText('Claude is working or waiting on an answer: adopt it when its turn has ended').waitFor();
    await mine.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-claude-adopt-refused-phone.png') });
    expect((await outsideList()).map((s) => s.key)).toContain(inTmux.key);
    await confirm.getByRole('button', { name: 'Cancel' }).tap();
    await confirm.waitFor({ state: 'detached' });
    // While Claude waits on an answer, adopting is not offered.
    expect(await mine.getByRole('button', { name: /^Adopt/ }).count()).toBe(0);

    await card.getByRole('button', { name: 'Approve' }).tap();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    await eventually(() => existsSync(file) && readFileSync(file, 'utf8') === 'approved\n', 20_000, 'the tool to run');
    await pane.waitScreen('the hook to answer', (s) => !s.includes(PERMISSION_DIALOG) && s.includes('Allowed by PermissionRequest hook'));
    await status.waitState(inTmux.key, 'ready-for-review');
    await mine.getByRole('button', { name: 'Adopt api-server as a pocketmux tab' }).waitFor();
  }, 120_000);

  it('answers a question on its card: Claude receives the answer', async () => {
    fake.onPrompt('ask me outside', toolUse('AskUserQuestion', { questions: capturedQuestions() }));
    fake.afterToolResult(text('Blue it is.'));
    await pane.submit('ask me outside');
    const approval = await status.waitApproval(inTmux.key);
    expect(approval.kind).toBe('question');
    const card = inboxCard(page, approval);
    await card.getByRole('group', { name: 'Which colour should the button be?' }).waitFor();
    expect(await card.locator('.where').textContent()).toMatch(/Outside pocketmux\s*·\s*api-server/);
    await expectNoSidewaysScroll(page);
    await card.getByRole('button', { name: /^Blue/ }).tap();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    expect((await status.waitResolution(approval.id, 10_000)).outcome).toBe('answered');
    await eventually(() => fake.lastToolResultText().includes('="Blue"'), 20_000, 'the answer in what the model was sent');
    await status.waitState(inTmux.key, 'ready-for-review', (s) => s.lastMessage === 'Blue it is.');
  }, 120_000);

  it('opens its terminal on claude’s screen, and what is typed there reaches claude’s prompt', async () => {
    await row(page, inTmux).getByRole('button', { name: 'Open the terminal of api-server' }).tap();
    await page.waitForURL(new RegExp(`/t/${inTmux.key}$`));
    const view = page.locator('pm-terminal-view');
    await view.locator('.primary-text', { hasText: 'api-server' }).waitFor();
    await page.locator('.xterm-rows').waitFor();
    // Claude's own screen, through the person's tmux server.
    await waitForLine(page, /Blue it is\./);
    await waitForLine(page, /^❯/);
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.type('typed from the phone');
    await pane.waitScreen('the typed text in claude’s prompt', (s) => s.includes('❯ typed from the phone'));
    await waitForLine(page, /❯ typed from the phone/);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-claude-terminal-phone.png') });
    // Cleared again: Ctrl-U in claude's prompt.
    await page.keyboard.press('Control+U');
    await pane.waitScreen('the prompt cleared', (s) => EMPTY_PROMPT.test(s));

    // Its header offers adopting too, as a finger-sized, named button; Cancel leaves all as it was.
    const adopt = view.getByRole('button', { name: 'Adopt api-server as a pocketmux tab' });
    await expectTappable(adopt);
    await adopt.tap();
    const asked = view.getByRole('alertdialog', { name: ADOPT_IN_TMUX });
    await asked.getByText(ADOPT_IN_TMUX).waitFor();
    await expectTappable(asked.getByRole('button', { name: 'Adopt' }));
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-claude-adopt-confirm-terminal-phone.png') });
    await asked.getByRole('button', { name: 'Cancel' }).tap();
    await asked.waitFor({ state: 'detached' });

    const wide = await desktop.newPage();
    await wide.goto(new URL(`/t/${inTmux.key}`, agent.url).href);
    await wide.locator('.xterm-rows').waitFor();
    await waitForLine(wide, /Blue it is\./);
    await wide.locator('pm-terminal-view .primary-text', { hasText: 'api-server' }).waitFor();
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-outside-claude-terminal-desktop.png') });

    // The same confirmation on a wide screen (where the sidebar's row offers it too).
    await wide.locator('pm-terminal-view').getByRole('button', { name: 'Adopt api-server as a pocketmux tab' }).click();
    const confirm = wide.locator('pm-terminal-view').getByRole('alertdialog', { name: ADOPT_IN_TMUX });
    await confirm.getByText(ADOPT_IN_TMUX).waitFor();
    await confirm.getByRole('button', { name: 'Adopt' }).waitFor();
    await expectNoSidewaysScroll(wide);
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-outside-claude-adopt-confirm-desktop.png') });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await wide.close();
    expect((await outsideList()).map((s) => s.key)).toContain(inTmux.key);

    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    await page.locator('pm-outside-card').waitFor();
  }, 120_000);
});

describe('Claude started with no tmux, on a phone', () => {
  beforeAll(async () => {
    // A terminal window or an editor's terminal: no $TMUX, no $TMUX_PANE.
    const { TMUX: _tmux, TMUX_PANE: _pane, ...noTmux } = claude.env;
    claudePty = pty.spawn(CLAUDE_BIN, ['--permission-mode', 'default'], { name: 'xterm-256color', cols: 120, rows: 40, cwd: webApp, env: { ...noTmux, TERM: 'xterm-256color' } });
    claudePty.onData((d) => plainScreen.write(d));
    plain = await sessionIn(webApp);
    expect(plain).toMatchObject({ terminal: 'none', pane: null });
    await waitPlain('the idle prompt', (s) => EMPTY_PROMPT.test(s), 30_000);
    await status.waitState(plain.key, 'idle');
  }, 60_000);

  /** Types into the pty as a person would: the prompt first, Enter once it shows. */
  async function submit(prompt: string): Promise<void> {
    claudePty?.write(prompt);
    await waitPlain(`"${prompt}" typed`, (s) => s.includes(`❯ ${prompt}`));
    claudePty?.write('\r');
  }

  it('says in its row that it has no terminal, beside the one in tmux', async () => {
    const other = row(page, plain);
    await other.getByText('web-app', { exact: true }).waitFor();
    await other.getByText(NO_TERMINAL_LINE).waitFor();
    expect(await other.getByRole('button', { name: /^Open the terminal/ }).count()).toBe(0);
    await row(page, inTmux).getByText('api-server', { exact: true }).waitFor();
    // Its finished turn was seen when its terminal was opened.
    await row(page, inTmux).getByText('Idle', { exact: true }).waitFor();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-claude-list-phone.png'), fullPage: true });
    // Its adopt confirmation says where its claude is: not in tmux.
    await other.getByRole('button', { name: 'Adopt web-app as a pocketmux tab' }).tap();
    await other.getByRole('alertdialog').getByText('Its claude in its terminal is ended').waitFor();
    await other.getByRole('button', { name: 'Cancel' }).tap();
    await other.getByRole('alertdialog').waitFor({ state: 'detached' });

    const wide = await desktop.newPage();
    await wide.goto(agent.url);
    await row(wide, plain).getByText(NO_TERMINAL_LINE).waitFor();
    await row(wide, inTmux).getByText('Idle', { exact: true }).waitFor();
    await expectNoSidewaysScroll(wide);
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-outside-claude-list-desktop.png'), fullPage: true });
    await wide.close();
  }, 60_000);

  it('explains, where its terminal would be, that there is none', async () => {
    await row(page, plain).getByRole('button', { name: /^Open the timeline of web-app/ }).tap();
    await page.waitForURL(new RegExp(`/t/${plain.key}/timeline$`));
    const view = page.locator('pm-terminal-view');
    await view.getByRole('button', { name: 'Terminal' }).tap();
    await page.waitForURL(new RegExp(`/t/${plain.key}$`));
    await view.getByText(NO_TERMINAL_VIEW).waitFor();
    expect(await page.locator('.xterm-rows').count()).toBe(0);
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    await page.locator('pm-outside-card').waitFor();
  }, 60_000);

  it('asks for approval on an inbox card; Approve runs the tool', async () => {
    const file = join(webApp, 'plain-approved.txt');
    fake.onPrompt('run it with no tmux', bash(`echo plain > ${file}`, 'Write a file'));
    fake.afterToolResult(text('Done with no tmux.'));
    await submit('run it with no tmux');
    const approval = await status.waitApproval(plain.key);
    const card = inboxCard(page, approval);
    await card.locator('pre').getByText(`echo plain > ${file}`).waitFor();
    expect(await card.locator('.where').textContent()).toMatch(/Outside pocketmux\s*·\s*web-app\s*·/);
    expect(await card.getByRole('button', { name: 'Open terminal' }).count()).toBe(0);
    expect(existsSync(file)).toBe(false);
    await card.getByRole('button', { name: 'Approve' }).tap();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    await eventually(() => existsSync(file) && readFileSync(file, 'utf8') === 'plain\n', 20_000, 'the tool to run');
    await status.waitState(plain.key, 'ready-for-review');
  }, 120_000);
});

describe('adopting the claude of the person’s tmux from the phone', () => {
  it('ends that claude and lands on a Claude tab that resumes the same conversation', async () => {
    const { pid } = await eventually(async () => (await outsideList()).find((s) => s.key === inTmux.key && s.pid !== null), 15_000, 'its claude pid');
    await page.goto(agent.url);
    const mine = row(page, inTmux);
    await mine.getByRole('button', { name: 'Adopt api-server as a pocketmux tab' }).tap();
    const confirm = mine.getByRole('alertdialog', { name: ADOPT_IN_TMUX });
    await confirm.getByText(ADOPT_IN_TMUX).waitFor();
    const adopt = confirm.getByRole('button', { name: 'Adopt' });
    await expectTappable(adopt);
    await expectTappable(confirm.getByRole('button', { name: 'Cancel' }));
    await expectNoSidewaysScroll(page);
    await mine.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-claude-adopt-confirm-phone.png') });

    await adopt.tap();
    await page.waitForURL(/\/t\/[a-z0-9-]+$/, { timeout: 30_000 });
    const tabId = new URL(page.url()).pathname.split('/').at(-1) as string;
    expect(tabId).not.toBe(inTmux.key);
    // Its old claude is gone, and so is the outside session.
    expect(() => process.kill(pid as number, 0)).toThrow();
    expect((await outsideList()).map((s) => s.key)).not.toContain(inTmux.key);

    // The new tab, in the workspace of its directory, runs the same session.
    const workspaces = (await api<{ workspaces: WorkspaceView[] }>(session, 'GET', '/api/workspaces')).body.workspaces;
    const home = workspaces.find((w) => w.tabs.some((t) => t.id === tabId));
    expect(home).toMatchObject({ name: 'api-server', dir: apiServer });
    const tab = home?.tabs.find((t) => t.id === tabId) as TabView;
    expect(tab).toMatchObject({ kind: 'claude', claudeSessionId: inTmux.sessionId });
    await status.waitState(tabId, 'idle', (s) => s.claudeRunning && s.sessionId === inTmux.sessionId, 30_000);
    await new ClaudeTabPane(agent, tab).waitScreen('the idle prompt', (s) => EMPTY_PROMPT.test(s), 30_000);
    // The page shows the new tab's terminal, with claude in it.
    const view = page.locator('pm-terminal-view');
    await view.locator('.primary-text', { hasText: 'Claude' }).waitFor();
    await page.locator('.xterm-rows').waitFor();
    await waitForLine(page, /^❯/);
    expect(await view.getByRole('button', { name: /^Adopt/ }).count()).toBe(0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-claude-adopted-phone.png') });

    // Back in the list: a tab of the workspace, no longer outside.
    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    await page.locator(`pm-tab-row[data-tab-id="${tabId}"]`).waitFor();
    await row(page, inTmux).waitFor({ state: 'detached' });
    await row(page, plain).waitFor();
  }, 120_000);
});
