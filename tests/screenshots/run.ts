/**
 * `npm run screenshots`: the two pictures the README opens with, taken of a real agent, tmux
 * and Chromium, as the end-to-end tests run them (an agent of its own: data dir, HOME, tmux
 * socket, port), in the dark theme, into docs/screenshots/:
 *
 *   phone-inbox.png     a phone's home screen: Claude asks to run `npm test`, the sessions under it;
 *   desktop-split.png   the desktop split: the list as a sidebar, two live terminals side by side;
 *   phone-inbox-webkit.png  the phone's picture again in WebKit, where it can be driven (not in
 *                       the README: to set beside Chromium's and look at).
 *
 * What they show is real, made without Claude: projects under the temporary HOME (shown as
 * `~/src/…`), a git history and a test suite that run for real in the terminals, and a Claude
 * tab whose claude is a stand-in, told about by the agent's installed hook script, the way
 * tests/e2e/offline.test.ts makes one; its permission request is held open for the phone's
 * picture and approved after it.
 *
 * Run by `node --import tsx`, not the tsx command: that one stands between the terminal and
 * this process and kills it when it does not answer Ctrl-C within milliseconds, in the middle
 * of its cleanup.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TabView, WorkspacesResponse, WorkspaceView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import { outsideSessionKey } from '../../protocol/hook-contract.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, REPO_ROOT, startAgent } from '../support/agent.js';
import { DESKTOP, launchBrowser, PHONE, pairBrowser, pairPage } from '../support/browser.js';
import { api, localDevice, localPairing, type Session } from '../support/client.js';
import { type Engine, openEngine, webkitAvailable } from '../support/engines.js';
import { eventually } from '../support/eventually.js';
import { type OutsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { claudeStandIn } from '../support/claude-stand-in.js';
import { paneEnv } from '../support/status.js';

export const SCREENSHOTS_DIR = join(REPO_ROOT, 'docs', 'screenshots');

/** The files written, by the README's names. */
export const SHOTS = { phone: 'phone-inbox.png', desktop: 'desktop-split.png', webkitPhone: 'phone-inbox-webkit.png' } as const;

const TEST_COMMAND = 'npm test';

/** Fixed names and dates: the same commits, hence the same hashes, in every run. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Sam Rivera',
  GIT_AUTHOR_EMAIL: 'sam@example.com',
  GIT_COMMITTER_NAME: 'Sam Rivera',
  GIT_COMMITTER_EMAIL: 'sam@example.com',
};

/**
 * The history of the project in the left terminal, oldest first: commits on main, and branches
 * merged into it (short messages: the terminal is half a desktop wide).
 */
const HISTORY: (string | { branch: string; commits: string[] } | { tag: string })[] = [
  'Initial commit',
  'Add product catalogue',
  'Add cart model',
  { branch: 'orders-api', commits: ['Add order model', 'Add /orders routes', 'Paginate /orders by cursor'] },
  'Validate carts before checkout',
  'Log requests with a request id',
  'Add health check endpoint',
  'Send receipts by email',
  'Fix rounding of totals',
  { tag: 'v1.3.0' },
  'Bump express to 5.1',
  'Cache product lookups',
  'Add auth middleware',
  'Accept rotated signing keys',
  'Rate-limit the login route',
  'Return 409 on a duplicate order',
  'Fix stock count on refunds',
  'Add CSV export of orders',
  'Read config from env',
  'Add payment client',
  'Handle declined cards',
  { branch: 'retry-backoff', commits: ['Retry payment calls', 'Back off exponentially', 'Cap retries at five'] },
  'Document the retry settings',
  'Release 1.4.0',
  { tag: 'v1.4.0' },
];

/** The test suite in the right terminal: node's own runner, a few suites that pass. */
const SUITES: Record<string, string[]> = {
  cart: ['adds an item', 'merges equal items', 'rejects a negative quantity'],
  orders: ['creates an order per cart', 'rejects an empty cart', 'rounds totals to cents', 'returns 409 on a duplicate'],
  payments: ['charges the card once', 'retries with backoff', 'gives up after 5 tries', 'reports a declined card'],
  products: ['caches a lookup for 60s', 'paginates by cursor'],
  auth: ['refuses a missing token', 'accepts a rotated key'],
};

/** A shell prompt that reads like a real one: the directory, then `$`. */
const BASH_PROFILE = `PS1='\\[\\e[1;34m\\]\\w\\[\\e[0m\\] \\[\\e[2m\\]$\\[\\e[0m\\] '\n`;

/** Nothing from npm but the test run: no check for a newer npm (there may be no network). */
const NPM_ENV = { npm_config_update_notifier: 'false' };

type Log = (line: string) => void;

const execFileAsync = promisify(execFile);

/**
 * A git repository made commit by commit, with fixed names and dates: the same history, hence
 * the same hashes, in every run. One command at a time, without blocking, so that Ctrl-C is
 * heard at once.
 */
class Repo {
  private clock = Date.UTC(2026, 2, 2, 9, 0, 0) / 1000;

  constructor(
    readonly dir: string,
    private readonly home: string,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async git(...args: string[]): Promise<void> {
    const date = `${this.clock} +0000`;
    await execFileAsync('git', args, { cwd: this.dir, env: { PATH: process.env.PATH, HOME: this.home, ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
    // Stopped meanwhile: nothing more is written into the temporary HOME, which is being removed.
    this.signal?.throwIfAborted();
  }

  async commit(message: string): Promise<void> {
    this.clock += 3 * 3600;
    writeFileSync(join(this.dir, 'CHANGELOG.md'), `${message}\n`, { flag: 'a' });
    await this.git('add', '-A');
    await this.git('commit', '-q', '-m', message);
  }

  async merge(branch: string): Promise<void> {
    this.clock += 3600;
    await this.git('merge', '-q', '--no-ff', '-m', `Merge branch '${branch}'`, branch);
  }
}

/** A project with a test suite for `npm test`, under `~/src/<name>`; with `history`, a git history too. */
async function makeProject(home: string, name: string, history: boolean, signal: AbortSignal | undefined): Promise<string> {
  const dir = join(home, 'src', name);
  mkdirSync(join(dir, 'test'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.4.0', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`);
  for (const [suite, names] of Object.entries(SUITES)) {
    const cases = names.map((n) => `  it(${JSON.stringify(n)}, () => {});`).join('\n');
    writeFileSync(join(dir, 'test', `${suite}.test.js`), `import { describe, it } from 'node:test';\n\ndescribe(${JSON.stringify(suite)}, () => {\n${cases}\n});\n`);
  }
  if (!history) return realpathSync(dir);
  const repo = new Repo(dir, home, signal);
  await repo.git('init', '-q', '-b', 'main');
  for (const entry of HISTORY) {
    if (typeof entry === 'string') await repo.commit(entry);
    else if ('tag' in entry) await repo.git('tag', entry.tag);
    else {
      await repo.git('switch', '-q', '-c', entry.branch);
      for (const message of entry.commits) await repo.commit(message);
      await repo.git('switch', '-q', 'main');
      await repo.merge(entry.branch);
    }
  }
  return realpathSync(dir);
}

/**
 * The projects' directories, short so that they show whole in the list (`~/src/shop`): a path
 * too long for its row is cut at the start.
 */
interface Projects {
  shop: string;
  site: string;
}

/**
 * The HOME the agent and its shells get: the projects, a prompt, git without a pager (the log
 * is printed, not paged).
 */
async function makeHome(home: string, signal: AbortSignal | undefined): Promise<Projects> {
  writeFileSync(join(home, '.bash_profile'), BASH_PROFILE);
  writeFileSync(join(home, '.gitconfig'), `[user]\n\tname = ${GIT_ENV.GIT_AUTHOR_NAME}\n\temail = ${GIT_ENV.GIT_AUTHOR_EMAIL}\n[core]\n\tpager = cat\n`);
  mkdirSync(join(home, '.claude'), { recursive: true });
  return { shop: await makeProject(home, 'shop', true, signal), site: await makeProject(home, 'site', false, signal) };
}

/**
 * A claude for the agent to start in a Claude tab: it answers `--version` as the real one
 * does, then runs the stand-in, so the tab's pane runs a process named claude.
 */
function writeClaudeBin(root: string): string {
  const bin = join(root, 'claude-bin');
  writeFileSync(bin, `#!/bin/sh\nif [ "$1" = --version ]; then echo '2.1.332 (Claude Code)'; exit 0; fi\nexec '${claudeStandIn(root)}'\n`, { mode: 0o755 });
  return bin;
}

/** A Claude session in `cwd` as its hooks describe it: a session id and a transcript where Claude keeps it. */
function claudeSession(home: string, cwd: string): OutsideFixture {
  const sessionId = randomUUID();
  const folder = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(folder, { recursive: true });
  const transcript = join(folder, `${sessionId}.jsonl`);
  copyFileSync(join(REPO_ROOT, 'tests', 'fixtures', 'claude-code-2.1.332', 'transcript.jsonl'), transcript);
  return { sessionId, key: outsideSessionKey(sessionId), cwd, transcript };
}

async function ok<T>(what: string, call: Promise<{ status: number; body: T }>): Promise<T> {
  const res = await call;
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Waits until the page has its fonts and no animation left to run, so the picture is the page at rest. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/** The rows of a pane's terminal (the DOM renderer's), trailing blanks trimmed. */
async function rowsOf(pane: Locator): Promise<string[]> {
  const rows = await pane.locator('.xterm-rows > div').allTextContents();
  return rows.map((r) => r.replace(/\u00a0/g, ' ').trimEnd());
}

/** Waits until a pane's terminal shows `done` and then stays the same for a moment. */
async function terminalSettled(pane: Locator, done: RegExp, what: string): Promise<void> {
  let last = '';
  let since = 0;
  await eventually(async () => {
    const text = (await rowsOf(pane)).join('\n');
    if (!done.test(text)) return false;
    if (text !== last) {
      last = text;
      since = Date.now();
      return false;
    }
    return Date.now() - since >= 500;
  }, 30_000, what);
}

export interface ScreenshotOptions {
  /** Where the progress lines go. */
  log?: Log;
  /**
   * Stops the run early (Ctrl-C): what was started is cleaned up, and the promise rejects.
   * Given, Chromium's driver leaves the signals to the caller: its own Ctrl-C handler would
   * exit the process as soon as Chromium is closed, before the agent and tmux are stopped.
   */
  signal?: AbortSignal;
}

export interface ScreenshotFiles {
  phone: string;
  desktop: string;
  /** The phone's picture in WebKit, where it can be driven (tests/support/engines.ts), to set beside Chromium's. */
  webkitPhone?: string;
}

/**
 * Makes both screenshots into `outDir` and returns their paths. Everything it starts (Chromium,
 * the agent, its tmux server, the held hook, the temporary HOME) is stopped or removed before it
 * returns or throws.
 */
export async function makeScreenshots(outDir: string, options: ScreenshotOptions = {}): Promise<ScreenshotFiles> {
  const { log = console.log, signal } = options;
  const started = Date.now();
  const step = (line: string) => {
    signal?.throwIfAborted();
    log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`);
  };
  mkdirSync(outDir, { recursive: true });
  step('starting Chromium');
  // First, before anything else is made: stopped while it starts, the driver closes it and
  // exits, and there is nothing else to clean up yet.
  const driversOwn = process.listeners('SIGINT');
  const browser = await launchBrowser();
  if (signal) for (const listener of process.listeners('SIGINT')) if (!driversOwn.includes(listener)) process.removeListener('SIGINT', listener);
  if (signal?.aborted) {
    await browser.close();
    signal.throwIfAborted();
  }
  const env = newTestEnvironment();
  const held: { hook?: ChildProcess; webkit?: Engine } = {};
  const work = shoot(outDir, browser, env, held, step, signal);
  try {
    if (!signal) return await work;
    // Stopped: what is in flight is left to fail by itself, once its browser and agent are gone.
    work.catch(() => undefined);
    return await Promise.race([work, aborted(signal)]);
  } finally {
    if (held.hook && held.hook.exitCode === null && held.hook.signalCode === null) held.hook.kill();
    await held.webkit?.close();
    await browser.close();
    await cleanupAgents();
    // Once more: a second Ctrl-C reaches the tmux commands of that cleanup too (this process group's).
    await execFileAsync('tmux', ['-L', env.tmuxSocket, 'kill-server']).catch(() => undefined);
    // Made before the agent started (cleanupAgents removes it with the agent): removed here in any case.
    rmSync(env.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

/** Rejects with the signal's reason once it is aborted. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

type TestEnvironment = ReturnType<typeof newTestEnvironment>;

/** The run itself, between `makeScreenshots`' start and its cleanup. */
async function shoot(
  outDir: string,
  browser: Browser,
  env: TestEnvironment,
  held: { hook?: ChildProcess; webkit?: Engine },
  step: (line: string) => void,
  signal: AbortSignal | undefined,
): Promise<ScreenshotFiles> {
  step('making projects under a temporary HOME');
  const projects = await makeHome(env.home, signal);
  step('starting an agent of its own');
  const claudeBin = writeClaudeBin(env.root);
  const agent = await startAgent({ reuse: env, args: ['--claude-bin', claudeBin], env: { CLAUDE_CONFIG_DIR: join(env.home, '.claude'), ...NPM_ENV } });

  step('pairing a phone');
  const phone = await browser.newContext({ ...PHONE, colorScheme: 'dark' });
  const page = await phone.newPage();
  await pairPage(page, { link: agent.link }, 'Pixel 8');
  const session = await localDevice(agent);

  step('making workspaces and tabs');
  const { tabs, claudeTab } = await makeTabs(session, projects);

  step(`asking for approval to run ${TEST_COMMAND}, from the Claude tab`);
  const who = claudeSession(env.home, projects.shop);
  const inPane = await paneEnv(agent, claudeTab);
  const hook = async (event: string, fields: Record<string, unknown> = {}) => {
    const run = await runHookScript(agent.dataDir, event, outsidePayload(who, event, fields), inPane);
    if (run.code !== 0 || run.stderr !== '') throw new Error(`the ${event} hook failed (${run.code}): ${run.stderr}`);
  };
  await hook('SessionStart');
  await hook('UserPromptSubmit', { prompt: 'Retry payment calls with backoff, then run the tests' });
  const request = outsidePayload(who, 'PermissionRequest', {
    tool_name: 'Bash',
    tool_input: { command: TEST_COMMAND, description: 'Run the test suite' },
    permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: `${TEST_COMMAND}:*` }], behavior: 'allow', destination: 'localSettings' }],
  });
  // Held open by the agent, as Claude's is, until the approval is answered.
  const answered = runHookScript(agent.dataDir, 'PermissionRequest', request, inPane, (child) => {
    held.hook = child;
  });
  const approval = await eventually(async () => {
    const r = await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals');
    return r.body.approvals.find((a) => a.tabId === claudeTab.id);
  }, 10_000, 'the approval');

  step(`taking ${SHOTS.phone}`);
  const phonePath = join(outDir, SHOTS.phone);
  await phoneShot(page, approval, tabs, phonePath);
  let webkitPhone: string | undefined;
  if (webkitAvailable()) {
    step(`taking ${SHOTS.webkitPhone}: the same screen in WebKit`);
    held.webkit = await openEngine('webkit');
    webkitPhone = join(outDir, SHOTS.webkitPhone);
    await webkitShot(held.webkit, agent, approval, tabs, webkitPhone);
    await held.webkit.close();
  }

  step('approving it, as the phone would');
  await ok('approve', api(session, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow' }));
  const run = await answered;
  if (run.code !== 0) throw new Error(`the held hook ended with ${run.code}: ${run.stderr}`);
  // The command ran: Claude is at work again.
  await hook('PostToolUse', { tool_name: 'Bash', tool_input: { command: TEST_COMMAND, description: 'Run the test suite' } });

  step(`taking ${SHOTS.desktop}`);
  const desktop = await browser.newContext({ ...DESKTOP, colorScheme: 'dark' });
  await pairBrowser(desktop, agent, 'Desktop');
  await phone.close();
  const desktopPath = join(outDir, SHOTS.desktop);
  await desktopShot(await desktop.newPage(), agent, session, tabs, desktopPath);
  await desktop.close();
  step('done; cleaning up');
  return { phone: phonePath, desktop: desktopPath, ...(webkitPhone ? { webkitPhone } : {}) };
}

/**
 * The phone's picture in WebKit: a phone of its own, paired with a link, on the same home
 * screen, in the dark theme. WebKitGTK draws at one device pixel per CSS pixel.
 */
async function webkitShot(engine: Engine, agent: AgentHandle, approval: Approval, tabs: Tabs, path: string): Promise<void> {
  const page = await engine.newPage('phone', { colorScheme: 'dark' });
  await page.goto((await localPairing(agent)).url);
  await page.fill({ label: 'Device name' }, 'iPhone');
  await page.click({ role: 'button', name: 'Pair' });
  const card = `pm-approval-card[data-approval-id="${approval.id}"]`;
  await page.waitFor({ role: 'button', name: 'Approve', within: card });
  for (const tab of tabs.all) await page.waitFor({ css: `pm-tab-row[data-tab-id="${tab.id}"]` });
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  await page.screenshot(path);
}

interface Tabs {
  /** The two terminals of the split: a git history on the left, a test run on the right. */
  history: TabView;
  tests: TabView;
  all: TabView[];
}

/**
 * Two projects, as someone at work would have them: a shop's backend with Claude at work on
 * it and two shells, and its website with a dev server. The workspace the agent starts with
 * (HOME) goes: it is not a project.
 */
async function makeTabs(session: Session, projects: Projects): Promise<{ tabs: Tabs; claudeTab: TabView }> {
  const initial = await ok('workspaces', api<WorkspacesResponse>(session, 'GET', '/api/workspaces'));
  const shopWs = await ok('workspace', api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: projects.shop, name: 'shop' }));
  const siteWs = await ok('workspace', api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: projects.site, name: 'site' }));
  for (const ws of initial.workspaces) await ok('close workspace', api(session, 'DELETE', `/api/workspaces/${ws.id}`));
  const tab = (workspaceId: string, kind: 'shell' | 'claude', name?: string) =>
    ok('tab', api<TabView>(session, 'POST', '/api/tabs', { workspaceId, kind, ...(name ? { name } : {}) }));
  const claudeTab = await tab(shopWs.id, 'claude');
  const history = await tab(shopWs.id, 'shell', 'release notes');
  const tests = await tab(shopWs.id, 'shell', 'tests');
  const devServer = await tab(siteWs.id, 'shell', 'dev server');
  return { tabs: { history, tests, all: [claudeTab, history, tests, devServer] }, claudeTab };
}

async function phoneShot(page: Page, approval: Approval, tabs: Tabs, path: string): Promise<void> {
  const card = page.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`);
  await card.getByRole('button', { name: 'Approve' }).waitFor();
  await card.locator('pre').getByText(TEST_COMMAND).waitFor();
  for (const tab of tabs.all) await page.locator(`pm-tab-row[data-tab-id="${tab.id}"]`).waitFor();
  await settled(page);
  await page.screenshot({ path });
}

async function desktopShot(page: Page, agent: AgentHandle, session: Session, tabs: Tabs, path: string): Promise<void> {
  const pane = (tab: TabView) => page.locator(`pm-workbench pm-terminal-view[data-tab-id="${tab.id}"]`);
  await page.goto(new URL(`/t/${tabs.history.id}`, agent.url).href);
  await pane(tabs.history).locator('.xterm-screen').waitFor();
  await pane(tabs.history).getByRole('button', { name: 'Open another tab beside' }).click();
  await page.getByRole('dialog', { name: 'Open another tab beside' }).getByRole('button', { name: /tests/ }).click();
  await pane(tabs.tests).locator('.xterm-screen').waitFor();
  for (const tab of [tabs.history, tabs.tests]) await pane(tab).getByText('Connecting…').waitFor({ state: 'hidden' });

  // Typed once both terminals have their final size, so that tmux lays the output out for it.
  await ok('input', api(session, 'POST', `/api/tabs/${tabs.history.id}/input`, { text: 'git log --oneline --graph' }));
  await ok('input', api(session, 'POST', `/api/tabs/${tabs.tests.id}/input`, { text: TEST_COMMAND }));
  await terminalSettled(pane(tabs.history), /Initial commit[\s\S]*\$/, 'the git history');
  await terminalSettled(pane(tabs.tests), /duration_ms[\s\S]*\$/, 'the test run');
  // The headers name what runs in each pane, as the agent polls it: the shell again, once npm is done.
  for (const tab of [tabs.history, tabs.tests]) await pane(tab).locator('header .secondary-text').getByText(/^bash · /).waitFor();
  await settled(page);
  await page.screenshot({ path });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const stop = new AbortController();
  // Not `once`: npm passes Ctrl-C on to this process, which has it from the terminal as well,
  // and a second one with no listener would end the process before its cleanup.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stop.signal.aborted) return;
      console.error(`\n${signal}: stopping what was started`);
      stop.abort(new Error(`stopped by ${signal}`));
    });
  }
  makeScreenshots(SCREENSHOTS_DIR, { signal: stop.signal }).then(
    (files) => {
      console.log(`Written: ${[files.phone, files.desktop, files.webkitPhone].flatMap((f) => (f ? [relative(REPO_ROOT, f)] : [])).join(', ')}`);
      process.exit(0);
    },
    (err: unknown) => {
      if (stop.signal.aborted) process.exit(130);
      console.error(err instanceof Error ? (err.stack ?? err.message) : err);
      process.exit(1);
    },
  );
}
