/**
 * Claude sessions started outside pocketmux, in real Chromium against a real agent, made real
 * without Claude: the agent's own installed hook script, run as Claude's user settings run it
 * (`hook.sh --global <Event>`), reports one session from a pane of a tmux server of the test's
 * own (the person's tmux, as far as the agent can tell) and one from no tmux at all. The list
 * shows them in their own group, their terminal opens where there is one (and says why not
 * where there is none), and a reply from the inbox reaches the tmux pane.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeStandIn } from '../support/claude-stand-in.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser, pairPage, typeCommand, waitForLine } from '../support/browser.js';
import type { Approval } from '../../protocol/approvals.js';
import { api, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { type HookRun, type OutsideFixture, outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { testSocketName } from '../support/temp.js';

const NO_TERMINAL_LINE = 'No terminal: started outside tmux';
const NO_TERMINAL_VIEW =
  'No terminal: this Claude was started outside tmux. Its approvals, questions and timeline are here; type to it in its own terminal on the machine.';
const NO_TERMINAL_REPLY = 'No terminal to type into: this Claude was started outside tmux. Answer it in its terminal on the machine.';

let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let desktop: BrowserContext;
let page: Page;
let session: Session;

/** The person's own tmux server: a name of the test's own, killed after it. */
const server = testSocketName('outside');
let serverSocket = '';
/** What a claude in that server's pane would have as $TMUX and $TMUX_PANE. */
let paneEnv: { TMUX: string; TMUX_PANE: string };

type Outside = OutsideFixture;

/** Hook scripts held open on an approval; any still running when the tests end is stopped. */
const held: ChildProcess[] = [];

let inTmux: Outside;
let plain: Outside;


/** One hook event of an outside session, through the agent's installed script in its global form. */
async function hook(who: Outside, event: string, env: Record<string, string>, fields: Record<string, unknown> = {}): Promise<void> {
  const run = await runHookScript(agent.dataDir, `--global ${event}`, outsidePayload(who, event, fields), env);
  expect(run).toMatchObject({ code: 0, stderr: '' });
}

/** A permission request from an outside session: its hook waits for the answer, as Claude's does. */
function askPermission(who: Outside, env: Record<string, string>, command: string): Promise<HookRun> {
  const payload = outsidePayload(who, 'PermissionRequest', { tool_input: { command, description: 'Run a check' } });
  return runHookScript(agent.dataDir, '--global PermissionRequest', payload, env, (child) => held.push(child));
}

async function paneText(): Promise<string> {
  return tmux(server, 'capture-pane', '-p', '-t', paneEnv.TMUX_PANE);
}

function row(p: Page, who: Outside) {
  return p.locator(`pm-outside-card pm-outside-row[data-key="${who.key}"]`);
}

function reviewCard(p: Page, who: Outside) {
  return p.locator(`pm-inbox pm-review-card[data-tab-id="${who.key}"]`);
}

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(p: Page): Promise<void> {
  expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  inTmux = outsideFixture(env.home, 'api-server');
  plain = outsideFixture(env.home, 'web-app');
  [agent, browser] = await Promise.all([startAgent({ reuse: env }), launchBrowser()]);

  // The person's own tmux: no config, the test's HOME, a shell in the project.
  execFileSync('tmux', ['-L', server, '-f', '/dev/null', 'new-session', '-d', '-s', 'own', '-x', '100', '-y', '30', '-c', inTmux.cwd], {
    env: agentEnv(env),
    stdio: 'ignore',
  });
  const [socketPath, pid, paneId] = (await tmux(server, 'display', '-p', '-t', 'own:', '#{socket_path}\t#{pid}\t#{pane_id}')).trim().split('\t');
  serverSocket = socketPath as string;
  paneEnv = { TMUX: `${socketPath},${pid},0`, TMUX_PANE: paneId as string };
  // A claude must run in the pane for a reply to be typed there: a stand-in that echoes lines,
  // on a cleared screen, so what follows stays in view on a phone-sized window.
  await tmux(server, 'send-keys', '-t', paneEnv.TMUX_PANE, `clear; exec '${claudeStandIn(env.root)}'`, 'Enter');
  await eventually(async () => (await tmux(server, 'display', '-p', '-t', paneEnv.TMUX_PANE, '#{pane_current_command}')).trim() === 'claude', 10_000, 'the claude stand-in in the pane');
  // Something to recognise the pane by once its terminal opens in the browser.
  await tmux(server, 'send-keys', '-t', paneEnv.TMUX_PANE, 'outside-marker-42', 'Enter');
  await eventually(async () => (await paneText()).includes('outside-marker-42'), 10_000, 'the marker in the pane');

  phone = await browser.newContext(PHONE);
  page = await phone.newPage();
  await pairPage(page, { link: agent.link }, 'Pixel 8');
  session = await localDevice(agent);
  desktop = await browser.newContext(DESKTOP);
  await pairBrowser(desktop, agent, 'Desktop');

  // One Claude in tmux that finished its turn; one in a plain terminal still at work.
  await hook(inTmux, 'SessionStart', paneEnv);
  await hook(inTmux, 'UserPromptSubmit', paneEnv);
  await hook(inTmux, 'Stop', paneEnv, { last_assistant_message: 'The API server is refactored.' });
  await hook(plain, 'SessionStart', {});
  await hook(plain, 'UserPromptSubmit', {});
}, 90_000);

afterAll(async () => {
  for (const child of held) if (child.exitCode === null && child.signalCode === null) child.kill();
  await browser?.close();
  await cleanupAgents();
  await tmux(server, 'kill-server').catch(() => undefined);
  // kill-server leaves the socket file behind.
  if (serverSocket) rmSync(serverSocket, { force: true });
});

describe('Claude sessions started outside pocketmux', () => {
  it('lists both in their own group by project, with their status and what can be opened', async () => {
    const listed = await eventually(async () => {
      const r = await api<{ sessions: { key: string; terminal: string }[] }>(session, 'GET', '/api/outside');
      return r.body.sessions.length === 2 ? r.body.sessions : null;
    }, 10_000, 'both sessions known to the agent');
    expect(Object.fromEntries(listed.map((s) => [s.key, s.terminal]))).toEqual({ [inTmux.key]: 'tmux', [plain.key]: 'none' });

    const group = page.locator('pm-outside-card');
    await group.getByRole('heading', { name: 'Outside pocketmux' }).waitFor();
    await row(page, inTmux).getByText('api-server', { exact: true }).waitFor();
    await row(page, plain).getByText('web-app', { exact: true }).waitFor();
    // After the workspaces: with none yet, after their placeholder.
    expect(await page.locator('pm-session-list').evaluate((list) => {
      const main = list.shadowRoot?.querySelector('main');
      const children = [...(main?.children ?? [])].map((c) => c.tagName.toLowerCase() + (c.className ? `.${c.className}` : ''));
      return children.indexOf('pm-outside-card') > children.indexOf('div.placeholder');
    })).toBe(true);

    // The status from the status channel, as a Claude tab's row shows it; paths as `~/…`.
    await row(page, inTmux).getByText('Ready for review', { exact: true }).waitFor();
    await row(page, plain).getByText('Working', { exact: true }).waitFor();
    await row(page, inTmux).locator('.path bdi', { hasText: '~/code/api-server' }).waitFor();
    await row(page, plain).locator('.path bdi', { hasText: '~/code/web-app' }).waitFor();
    await group.getByText('1 waiting').waitFor();

    // The terminal where there is one; where there is none, a line saying so instead.
    await row(page, inTmux).getByRole('button', { name: 'Open the terminal of api-server' }).waitFor();
    expect(await row(page, inTmux).getByText(NO_TERMINAL_LINE).count()).toBe(0);
    await row(page, plain).getByText(NO_TERMINAL_LINE).waitFor();
    expect(await row(page, plain).getByRole('button', { name: /^Open the terminal/ }).count()).toBe(0);
    // The person's own sessions: nothing to rename, close or start here.
    expect(await group.getByRole('button', { name: /Actions for|New Claude|Close|Rename/ }).count()).toBe(0);
    // Names and paths are isolated like tab names.
    for (const text of await group.locator('bdi').allTextContents()) expect(text).not.toMatch(/[\u202e\x1b]/);

    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-list-phone.png'), fullPage: true });
    const wide = await desktop.newPage();
    await wide.goto(agent.url);
    await row(wide, plain).getByText(NO_TERMINAL_LINE).waitFor();
    await row(wide, inTmux).getByText('Ready for review', { exact: true }).waitFor();
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-outside-list-desktop.png'), fullPage: true });
    await wide.close();
  }, 60_000);

  it('reviews both from the inbox: no reply field without tmux, and a reply that reaches the tmux pane', async () => {
    await hook(plain, 'Stop', {}, { last_assistant_message: 'The web app builds again.' });
    const noTmux = reviewCard(page, plain);
    const tmuxCard = reviewCard(page, inTmux);
    await noTmux.getByText('The web app builds again.').waitFor();
    await tmuxCard.getByText('The API server is refactored.').waitFor();
    // Named by the group and the project.
    expect(await noTmux.locator('.top').textContent()).toMatch(/web-app.*Outside pocketmux/s);
    expect(await tmuxCard.locator('.top').textContent()).toMatch(/api-server.*Outside pocketmux/s);

    await noTmux.getByText(NO_TERMINAL_REPLY).waitFor();
    expect(await noTmux.getByRole('textbox').count()).toBe(0);
    expect(await noTmux.getByRole('button', { name: 'Open terminal' }).count()).toBe(0);
    await noTmux.getByRole('button', { name: 'Timeline' }).waitFor();
    await tmuxCard.getByRole('button', { name: 'Open terminal' }).waitFor();

    const reply = tmuxCard.getByRole('textbox', { name: 'Reply to Claude' });
    await reply.fill('reply-42-reached');
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-inbox-phone.png'), fullPage: true });
    await tmuxCard.getByRole('button', { name: 'Send' }).tap();
    await tmuxCard.getByText('Sent. Claude is on it.').waitFor();
    // Typed into the person's own pane, and run there (a shell stands in for Claude).
    await eventually(async () => (await paneText()).includes('reply-42-reached'), 10_000, 'the reply in the tmux pane');
  }, 60_000);

  it('asks for approval on cards named by project, offering the terminal only where there is one', async () => {
    const fromTmux = askPermission(inTmux, paneEnv, 'make check-api');
    const fromPlain = askPermission(plain, {}, 'npm run check-web');
    const opened = await eventually(async () => {
      const r = await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals');
      const mine = r.body.approvals.filter((a) => a.tabId === inTmux.key || a.tabId === plain.key);
      return mine.length === 2 ? mine : null;
    }, 10_000, 'both approvals');
    const card = (who: Outside) => page.locator(`pm-inbox pm-approval-card[data-approval-id="${opened.find((a) => a.tabId === who.key)?.id}"]`);
    await card(inTmux).getByText('make check-api').first().waitFor();
    await card(plain).getByText('npm run check-web').first().waitFor();
    expect(await card(inTmux).locator('.where').textContent()).toMatch(/Outside pocketmux\s*·\s*api-server\s*·/);
    expect(await card(plain).locator('.where').textContent()).toMatch(/Outside pocketmux\s*·\s*web-app\s*·/);
    await card(inTmux).getByRole('button', { name: 'Open terminal' }).waitFor();
    expect(await card(plain).getByRole('button', { name: 'Open terminal' }).count()).toBe(0);
    await card(plain).getByRole('button', { name: 'Timeline' }).waitFor();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-approvals-phone.png'), fullPage: true });

    await card(plain).getByRole('button', { name: 'Approve' }).tap();
    await card(inTmux).getByRole('button', { name: 'Approve' }).tap();
    for (const run of [await fromPlain, await fromTmux]) {
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'allow' } } });
    }
    await card(plain).waitFor({ state: 'detached' });
    await card(inTmux).waitFor({ state: 'detached' });
  }, 60_000);

  it('opens the tmux session’s terminal on its own pane, without the tabs’ controls', async () => {
    await row(page, inTmux).getByRole('button', { name: 'Open the terminal of api-server' }).tap();
    await page.waitForURL(new RegExp(`/t/${inTmux.key}$`));
    const view = page.locator('pm-terminal-view');
    await view.locator('.primary-text', { hasText: 'api-server' }).waitFor();
    await view.locator('.secondary-text bdi', { hasText: '~/code/api-server' }).waitFor();
    await page.locator('.xterm-rows').waitFor();
    await waitForLine(page, 'outside-marker-42');
    await waitForLine(page, 'reply-42-reached');
    await typeCommand(page, 'outside-ok');
    await waitForLine(page, 'outside-ok');
    await eventually(async () => (await paneText()).split('\n').some((l) => l.trim() === 'outside-ok'), 10_000, 'the typed command in the tmux pane');
    // Terminal and timeline, and nothing that would rename, close or kill the person's session.
    await view.getByRole('group', { name: 'Show' }).waitFor();
    expect(await view.getByRole('button', { name: /Close|Rename|Kill|New Claude/ }).count()).toBe(0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-terminal-phone.png') });

    const wide = await desktop.newPage();
    await wide.goto(new URL(`/t/${inTmux.key}`, agent.url).href);
    await wide.locator('.xterm-rows').waitFor();
    await waitForLine(wide, 'outside-ok');
    await wide.locator('pm-terminal-view .primary-text', { hasText: 'api-server' }).waitFor();
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-outside-terminal-desktop.png') });
    await wide.close();
    await page.getByRole('button', { name: 'Back to sessions' }).tap();
    await page.locator('pm-outside-card').waitFor();
  }, 60_000);

  it('says why a session started outside tmux has no terminal, and offers its timeline', async () => {
    // Straight to the address, as a notification's link or a reload would.
    await page.goto(new URL(`/t/${plain.key}`, agent.url).href);
    const view = page.locator('pm-terminal-view');
    await view.getByText(NO_TERMINAL_VIEW).waitFor();
    await view.locator('.primary-text', { hasText: 'web-app' }).waitFor();
    // No terminal was attached, and none is loading.
    expect(await page.locator('.xterm-rows').count()).toBe(0);
    expect(await view.getByText('Loading terminal…').count()).toBe(0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-no-terminal-phone.png') });

    const wide = await desktop.newPage();
    await wide.goto(new URL(`/t/${plain.key}`, agent.url).href);
    await wide.locator('pm-terminal-view').getByText(NO_TERMINAL_VIEW).waitFor();
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-outside-no-terminal-desktop.png') });
    await wide.close();

    await view.getByRole('button', { name: 'Show the timeline' }).tap();
    await page.waitForURL(new RegExp(`/t/${plain.key}/timeline$`));
    // The transcript its hooks named: the conversation the captured session had.
    await page.locator('pm-timeline-view').getByText('please run it').first().waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-timeline-phone.png') });
  }, 60_000);

  it('says in the settings whether Claude started anywhere on the machine reports', async () => {
    await page.goto(new URL('/settings', agent.url).href);
    const line = page.locator('pm-user-hooks-status');
    // The test's HOME has no Claude settings: nothing is installed.
    await line.getByText('Only Claude tabs started here report.', { exact: false }).waitFor();
    const command = await line.locator('code').textContent();
    expect(command).toContain('hooks install');
    await line.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-outside-settings-phone.png'), fullPage: true });
  }, 60_000);
});
