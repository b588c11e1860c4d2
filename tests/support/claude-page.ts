/**
 * What the browser tests with the real Claude Code CLI start from: an agent running the pinned
 * CLI against the stand-in API, with a `project` folder the CLI trusts, and Chromium with a
 * phone-sized page paired to that agent as the device "Pixel 8", and a device of its own for
 * the test's REST calls and sockets (`session`). The caller closes the browser
 * and the stand-in API and runs `cleanupAgents`.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from './agent.js';
import { ARTIFACTS, launchBrowser, PHONE, pairPage } from './browser.js';
import { CLAUDE_BIN, prepareClaudeEnv } from './claude-env.js';
import { localDevice, type Session } from './client.js';
import { FakeAnthropic } from './fake-anthropic.js';

export interface ClaudePage {
  fake: FakeAnthropic;
  agent: AgentHandle;
  browser: Browser;
  phone: BrowserContext;
  page: Page;
  session: Session;
  /** The trusted folder, its real path. */
  project: string;
  /** More trusted folders beside it, by the names asked for, their real paths. */
  folders: Record<string, string>;
}

export async function startClaudePage(options: { folders?: readonly string[] } = {}): Promise<ClaudePage> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  const made = (name: string) => {
    mkdirSync(join(env.home, name), { recursive: true });
    return realpathSync(join(env.home, name));
  };
  const project = made('project');
  const folders = Object.fromEntries((options.folders ?? []).map((name) => [name, made(name)]));
  const fake = await FakeAnthropic.start();
  const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project, ...Object.values(folders)] });
  const [agent, browser] = await Promise.all([startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: claude.env }), launchBrowser()]);
  const phone = await browser.newContext(PHONE);
  const page = await phone.newPage();
  await pairPage(page, { link: agent.link }, 'Pixel 8');
  const session = await localDevice(agent);
  return { fake, agent, browser, phone, page, session, project, folders };
}

/** Undoes `startClaudePage`: the browser, every agent started, the stand-in API (whatever of them started). */
export async function stopClaudePage(started: { browser?: Browser; fake?: FakeAnthropic }): Promise<void> {
  await started.browser?.close();
  await cleanupAgents();
  await started.fake?.close();
}
