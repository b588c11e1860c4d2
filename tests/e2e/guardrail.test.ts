/**
 * A workspace's guardrail in real Chromium, against a real agent whose guardrail minute lasts
 * three seconds: set from the workspace's menu on a phone, it marks the workspace card and
 * reaches the agent; a permission asked through the agent's installed hook script (from a
 * Claude tab whose claude is a stand-in) gets a card saying when it will be denied, and once
 * nobody answered in time the hook is answered with a denial and the card stays, saying the
 * guardrail decided, on the phone and on a desktop, until put away. A card counts down only
 * when the agent will deny it: one asked before the guardrail was set does not, and one asked
 * before it was removed still does.
 * Screenshots: test-artifacts/e2e-guardrail-<view>-<size>.png.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView, WorkspacesResponse } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, pairBrowser } from '../support/browser.js';
import { api, localDevice, type Session } from '../support/client.js';
import { claudeStandIn } from '../support/claude-stand-in.js';
import { eventually } from '../support/eventually.js';
import { type HookRun, type OutsideFixture, outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { paneEnv } from '../support/status.js';
import { smallTapTargets } from '../support/tap-targets.js';

/** A guardrail minute, in milliseconds: "5 min" lasts 15 s here. */
const MINUTE_MS = 3_000;
const COMMAND = 'rm -rf build';

let agent: AgentHandle;
let browser: Browser;
let phone: BrowserContext;
let desktop: BrowserContext;
let phonePage: Page;
let desktopPage: Page;
let session: Session;
let project: OutsideFixture;
let workspace: WorkspaceView;
let claudeTab: TabView;
/** Hook scripts held open on an approval; any still running at the end is stopped. */
const held: ChildProcess[] = [];

/** A claude for the agent to start in a Claude tab: answers `--version` as the real one does, then runs the stand-in. */
function writeClaudeBin(root: string): string {
  const bin = join(root, 'claude-bin');
  writeFileSync(bin, `#!/bin/sh\nif [ "$1" = --version ]; then echo '2.1.332 (Claude Code)'; exit 0; fi\nexec '${claudeStandIn(root)}'\n`, { mode: 0o755 });
  return bin;
}

async function tabHook(event: string): Promise<void> {
  const run = await runHookScript(agent.dataDir, event, outsidePayload(project, event), await paneEnv(agent, claudeTab));
  expect(run).toMatchObject({ code: 0, stderr: '' });
}

function workspaceCard(p: Page): Locator {
  return p.locator('pm-workspace-card').filter({ has: p.getByRole('region', { name: 'Workspace web-app' }) });
}

function card(p: Page, approval: Pick<Approval, 'id'>): Locator {
  return p.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`);
}

async function guardrailAtAgent(): Promise<WorkspaceView['guardrail']> {
  const res = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces');
  expect(res.status).toBe(200);
  return res.body.workspaces.find((w) => w.id === workspace.id)?.guardrail ?? null;
}

async function screenshot(p: Page, view: string, size: 'phone' | 'desktop', fullPage = false): Promise<void> {
  await p.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))));
  await p.screenshot({ path: join(ARTIFACTS, `e2e-guardrail-${view}-${size}.png`), fullPage });
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const env = newTestEnvironment();
  project = outsideFixture(env.home, 'web-app');
  const claudeBin = writeClaudeBin(env.root);
  [agent, browser] = await Promise.all([
    startAgent({ reuse: env, args: ['--claude-bin', claudeBin], env: { POCKETMUX_GUARDRAIL_MINUTE_MS: String(MINUTE_MS) } }),
    launchBrowser(),
  ]);
  session = await localDevice(agent);
  workspace = (await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project.cwd, name: 'web-app' })).body;
  claudeTab = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: workspace.id, kind: 'claude' })).body;
  await tabHook('SessionStart');
  await tabHook('UserPromptSubmit');

  phone = await browser.newContext({ ...PHONE, colorScheme: 'light' });
  desktop = await browser.newContext({ ...DESKTOP, colorScheme: 'dark' });
  await pairBrowser(phone, agent, 'Pixel 8');
  await pairBrowser(desktop, agent, 'Laptop');
  phonePage = await phone.newPage();
  desktopPage = await desktop.newPage();
  await Promise.all([phonePage.goto(agent.url), desktopPage.goto(agent.url)]);
}, 90_000);

afterAll(async () => {
  for (const child of held) if (child.exitCode === null && child.signalCode === null) child.kill();
  await browser?.close();
  await cleanupAgents();
});

describe('a guardrail while away', () => {
  it('is set from the workspace menu, marks the workspace, denies what nobody answered in time and says so on its card', async () => {
    const ws = workspaceCard(phonePage);
    await ws.waitFor();
    expect(await guardrailAtAgent()).toBeNull();
    await ws.getByRole('button', { name: 'Actions for workspace web-app' }).click();
    await ws.getByRole('button', { name: 'When nobody answers' }).click();
    const terminal = ws.getByRole('button', { name: 'Leave it in the terminal' });
    await expect.poll(() => terminal.getAttribute('aria-pressed')).toBe('true');
    await screenshot(phonePage, 'menu', 'phone');
    // Every choice is a finger wide.
    expect(await smallTapTargets(phonePage)).toEqual([]);

    await ws.getByRole('button', { name: 'Deny after 5 min' }).click();
    // Saved: the panel closes and the card says the guardrail is on, on every device.
    await ws.getByText('Denies after 5 min unanswered').waitFor();
    await workspaceCard(desktopPage).getByText('Denies after 5 min unanswered').waitFor();
    expect(await ws.getByRole('button', { name: 'Deny after 5 min' }).count()).toBe(0);
    expect(await guardrailAtAgent()).toEqual({ afterMinutes: 5 });

    // Claude asks to run a command; the hook waits for an answer nobody gives.
    const request = outsidePayload(project, 'PermissionRequest', { tool_input: { command: COMMAND, description: 'Clean the build' } });
    const answered: Promise<HookRun> = runHookScript(agent.dataDir, 'PermissionRequest', request, await paneEnv(agent, claudeTab), (child) => held.push(child));
    const approval = await eventually(async () => {
      const r = await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals');
      return r.body.approvals.find((a) => a.tabId === claudeTab.id);
    }, 10_000, 'the approval');
    // The agent set the card's end to the guardrail's five (short) minutes.
    expect(approval.expiresAt - approval.createdAt).toBe(5 * MINUTE_MS);

    const open = card(phonePage, approval);
    await open.getByText('Denied automatically within a minute').waitFor();
    await card(desktopPage, approval).getByText('Denied automatically within a minute').waitFor();
    await open.getByRole('button', { name: 'Approve' }).waitFor();
    await open.scrollIntoViewIfNeeded();
    await screenshot(phonePage, 'open-card', 'phone');
    await screenshot(desktopPage, 'open-card', 'desktop');

    // Nobody answers: the hook is answered with a denial Claude is told the reason of.
    const run = await answered;
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { hookSpecificOutput: { decision: { behavior: string; message: string } } };
    expect(output.hookSpecificOutput.decision).toEqual({
      behavior: 'deny',
      message: "No answer from the phone within 5 minutes: denied by the workspace's guardrail. Go on without it, or ask again later.",
    });

    // The card stays on both devices, saying the guardrail decided, with nothing left to answer.
    const note = 'Denied by the guardrail: no answer within 5 minutes';
    await open.getByRole('status').filter({ hasText: note }).waitFor();
    await card(desktopPage, approval).getByRole('status').filter({ hasText: note }).waitFor();
    expect(await open.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await screenshot(phonePage, 'denied', 'phone');
    expect(await smallTapTargets(phonePage)).toEqual([]);
    await screenshot(desktopPage, 'denied', 'desktop');

    // Put away on the phone: gone there, still on the desktop, which has not seen it put away.
    await open.getByRole('button', { name: 'Dismiss' }).click();
    await open.waitFor({ state: 'detached' });
    expect(await card(desktopPage, approval).count()).toBe(1);
  }, 90_000);

  it('is removed from the same menu: the mark goes, and the agent holds none', async () => {
    const ws = workspaceCard(phonePage);
    await ws.getByRole('button', { name: 'Actions for workspace web-app' }).click();
    await ws.getByRole('button', { name: 'When nobody answers' }).click();
    await expect.poll(() => ws.getByRole('button', { name: 'Deny after 5 min' }).getAttribute('aria-pressed')).toBe('true');
    await ws.getByRole('button', { name: 'Leave it in the terminal' }).click();
    await ws.getByText('Denies after 5 min unanswered').waitFor({ state: 'detached' });
    expect(await guardrailAtAgent()).toBeNull();
  }, 30_000);

  it('counts down only on the cards the agent will deny: not one opened before the guardrail was set, still one opened before it was removed', async () => {
    const ws = workspaceCard(phonePage);
    expect(await guardrailAtAgent()).toBeNull();
    const ask = async (command: string): Promise<{ approval: Approval; answered: Promise<HookRun> }> => {
      const request = outsidePayload(project, 'PermissionRequest', { tool_input: { command, description: command } });
      const answered = runHookScript(agent.dataDir, 'PermissionRequest', request, await paneEnv(agent, claudeTab), (child) => held.push(child));
      const approval = await eventually(async () => {
        const r = await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals');
        return r.body.approvals.find((a) => a.tabId === claudeTab.id && a.summary.title.includes(command));
      }, 10_000, `the approval for ${command}`);
      return { approval, answered };
    };

    // Asked while no guardrail is on: the agent will leave it to the terminal, and says so.
    const before = await ask('npm publish');
    expect(before.approval.denyAt).toBeNull();
    await ws.getByRole('button', { name: 'Actions for workspace web-app' }).click();
    await ws.getByRole('button', { name: 'When nobody answers' }).click();
    await ws.getByRole('button', { name: 'Deny after 5 min' }).click();
    await ws.getByText('Denies after 5 min unanswered').waitFor();

    // Asked once it is on: the agent will deny it at its time, and the card counts down to it.
    const during = await ask('git push --force');
    expect(during.approval.denyAt).toBe(during.approval.createdAt + 5 * MINUTE_MS);
    const opened = card(phonePage, before.approval);
    const guarded = card(phonePage, during.approval);
    await guarded.getByText('Denied automatically within a minute').waitFor();
    await opened.getByRole('button', { name: 'Approve' }).waitFor();
    // Drawn with the list that shows the guardrail on, the first card has no countdown.
    expect(await opened.getByText(/Denied automatically/).count()).toBe(0);
    // The whole page, both cards and the workspace's mark in one picture.
    await phonePage.evaluate(() => window.scrollTo(0, 0));
    await screenshot(phonePage, 'set-after-open', 'phone', true);

    // Removed again: the agent keeps the guardrail of the card asked under it, and so does the card.
    const removed = await api<WorkspaceView>(session, 'PATCH', `/api/workspaces/${workspace.id}`, { guardrail: null });
    expect(removed.status).toBe(200);
    await ws.getByText('Denies after 5 min unanswered').waitFor({ state: 'detached' });
    expect(await guarded.getByText('Denied automatically within a minute').count()).toBe(1);

    // The agent does what the cards said: the second is denied at its time...
    const denied = await during.answered;
    expect((JSON.parse(denied.stdout) as { hookSpecificOutput: { decision: { behavior: string } } }).hookSpecificOutput.decision.behavior).toBe('deny');
    await guarded.getByRole('status').filter({ hasText: 'Denied by the guardrail' }).waitFor();
    // ...and the first, opened earlier, was not: it still waits, on the page and at the agent.
    const open = await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals');
    expect(open.body.approvals.find((a) => a.id === before.approval.id)).toEqual(before.approval);
    expect(await opened.getByText(/Denied automatically/).count()).toBe(0);
    await opened.getByRole('button', { name: 'Approve' }).click();
    const approved = await before.answered;
    expect((JSON.parse(approved.stdout) as { hookSpecificOutput: { decision: { behavior: string } } }).hookSpecificOutput.decision.behavior).toBe('allow');
  }, 60_000);
});
