/**
 * The PWA's network dropped while an approval card is shown, in real Chromium against a real
 * agent: answering while offline fails visibly and changes nothing, the approval stays open on
 * the agent with Claude's hook still held, and once the network is back the card is still
 * there and answering it settles the held hook. The Claude tab runs a stand-in claude; the
 * request comes through the agent's installed hook script, as Claude's would.
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { launchBrowser, PHONE, pairPage } from '../support/browser.js';
import { api, localDevice, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { standInClaudeBin } from '../support/faults.js';
import { type HookRun, outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';
import { paneEnv } from '../support/status.js';

const COMMAND = 'npm run release';
let agent: AgentHandle;
let browser: Browser;
const held: ChildProcess[] = [];

beforeAll(async () => {
  const env = newTestEnvironment();
  [agent, browser] = await Promise.all([startAgent({ reuse: env, args: ['--claude-bin', standInClaudeBin(env.root)] }), launchBrowser()]);
}, 60_000);

afterAll(async () => {
  for (const child of held) if (child.exitCode === null && child.signalCode === null) child.kill();
  await browser?.close();
  await cleanupAgents();
});

describe('the PWA offline mid-approval', () => {
  it('keeps the approval there and answerable, and the answer settles the held hook', async () => {
    const project = outsideFixture(agent.home, 'shop');
    const phone = await browser.newContext(PHONE);
    const page = await phone.newPage();
    await pairPage(page, { link: agent.link }, 'Pixel 8');
    const session: Session = await localDevice(agent);
    const ws = (await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project.cwd, name: 'shop' })).body;
    const tab = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.id, kind: 'claude' })).body;
    const pane = await paneEnv(agent, tab);
    for (const event of ['SessionStart', 'UserPromptSubmit']) {
      expect(await runHookScript(agent.dataDir, event, outsidePayload(project, event), pane)).toMatchObject({ code: 0, stderr: '' });
    }
    const request = outsidePayload(project, 'PermissionRequest', { tool_input: { command: COMMAND, description: 'Release' } });
    let hookEnded: HookRun | null = null;
    const hook = runHookScript(agent.dataDir, 'PermissionRequest', request, pane, (child) => held.push(child)).then((run) => {
      hookEnded = run;
      return run;
    });
    const open = async () => (await api<{ approvals: Approval[] }>(session, 'GET', '/api/approvals')).body.approvals;
    const approval = await eventually(async () => (await open()).find((a) => a.tabId === tab.id), 10_000, 'the approval');
    const card = page.locator(`pm-inbox pm-approval-card[data-approval-id="${approval.id}"]`);
    await card.locator('pre').getByText(COMMAND).waitFor({ timeout: 15_000 });

    // The network goes while the card is shown; an answer given now cannot arrive.
    await phone.setOffline(true);
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByRole('alert').waitFor({ timeout: 15_000 });
    // Nothing was decided: the approval is open on the agent and Claude's hook still waits.
    expect((await open()).map((a) => a.id)).toEqual([approval.id]);
    expect(hookEnded).toBeNull();

    // Back: the same card, still answerable, and the answer reaches Claude.
    await phone.setOffline(false);
    const approve = card.getByRole('button', { name: 'Approve' });
    await expect.poll(() => approve.isEnabled(), { timeout: 30_000 }).toBe(true);
    await approve.click();
    const run = await hook;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"behavior":"allow"');
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    expect(await open()).toEqual([]);
    await phone.close();
  }, 90_000);
});
