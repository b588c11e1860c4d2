/**
 * Web Push without any outside service: the agent pushes to a push endpoint of our own
 * (tests/support/push-endpoint.ts), which checks the VAPID signature and decrypts the body as
 * a browser would. Approvals come from the real Claude Code CLI against the stand-in API, and
 * from Claude's hooks posted as Claude posts them.
 */
import { mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideSessionKey } from '../../protocol/hook-contract.js';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { PushPayload, PushState } from '../../protocol/push.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { CLAUDE_BIN, type ClaudeEnv, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudeTabPane, PERMISSION_DIALOG } from '../support/claude-pane.js';
import { api, claim, createTab, pairAnother, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { bash, FakeAnthropic, text } from '../support/fake-anthropic.js';
import { PushEndpoint } from '../support/push-endpoint.js';
import { capturedHook, paneEnv, StatusClient } from '../support/status.js';

type Show = Extract<PushPayload, { kind: 'show' }>;

describe('Web Push', () => {
  let fake: FakeAnthropic;
  let claude: ClaudeEnv;
  let agent: AgentHandle;
  let phone: Session;
  let laptop: Session;
  let endpoint: PushEndpoint;
  let phoneSub: string;
  let laptopSub: string;
  let tab: TabView;
  let pane: ClaudeTabPane;
  let status: StatusClient;
  let project: string;
  const env = newTestEnvironment();

  const shows = (sub: string) => endpoint.of(sub).filter((p): p is Show => p.kind === 'show');
  const closes = (sub: string) => endpoint.of(sub).filter((p) => p.kind === 'close');

  beforeAll(async () => {
    endpoint = await PushEndpoint.start();
    fake = await FakeAnthropic.start();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
    agent = await startAgent({
      reuse: env,
      args: ['--claude-bin', CLAUDE_BIN],
      env: { ...claude.env, POCKETMUX_PUSH_INSECURE_LOOPBACK: '1' },
    });
    phone = await claim(agent, 'Pixel 8');
    laptop = await pairAnother(agent, phone, 'Laptop');
    const key = await api<{ publicKey: string }>(phone, 'GET', '/api/push/key');
    endpoint.agentKey = key.body.publicKey;
    const a = endpoint.subscribe();
    const b = endpoint.subscribe();
    phoneSub = a.id;
    laptopSub = b.id;
    expect((await api(phone, 'POST', '/api/push/subscription', a.json)).status).toBe(201);
    expect((await api(laptop, 'POST', '/api/push/subscription', b.json)).status).toBe(201);

    const ws = await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project });
    tab = (await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', name: 'api server', claude: { permissionMode: 'default' } })).body;
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
    await endpoint?.close();
  });

  it('keeps its VAPID key private, and tells each device its state', async () => {
    expect(statSync(join(env.dataDir, 'vapid.json')).mode & 0o777).toBe(0o600);
    const state = await api<PushState>(phone, 'GET', '/api/push');
    expect(state.body).toEqual({ publicKey: endpoint.agentKey, subscribed: true, settings: { approvals: true, needsInput: true, review: true } });
  });

  it('pushes an approval the real CLI asks for, signed and encrypted, and closes it everywhere once answered', async () => {
    const file = join(project, 'pushed.txt');
    fake.onPrompt('please run it', bash(`echo pushed > ${file}`, 'Write a file'));
    fake.afterToolResult(text('Done. The file is written.'));
    await pane.submit('please run it');
    const approval = await status.waitApproval(tab.id);
    await pane.waitScreen('the dialog', (s) => s.includes(PERMISSION_DIALOG));

    const [toPhone] = await eventually(() => (shows(phoneSub).length > 0 ? shows(phoneSub) : null), 10_000, 'the push to the phone');
    expect(toPhone).toEqual({
      v: 1,
      kind: 'show',
      tag: approval.id,
      title: approval.summary.title,
      body: 'Write a file\nproject · api server',
      url: `/?approval=${approval.id}`,
      approvalId: approval.id,
      actions: [
        { action: 'approve', title: 'Approve', decision: { decision: 'allow' } },
        { action: 'deny', title: 'Deny', decision: { decision: 'deny' } },
      ],
    });
    const request = endpoint.received.find((r) => r.subscription === phoneSub);
    expect(request?.claims).toMatchObject({ aud: endpoint.origin, sub: expect.stringMatching(/^mailto:/) });
    expect(request?.headers).toMatchObject({ urgency: 'high', ttl: '600', topic: approval.id });
    await eventually(() => shows(laptopSub).length === 1, 10_000, 'the push to the laptop');

    // The laptop answers: the phone's notification is closed.
    expect((await api(laptop, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow' })).status).toBe(200);
    await eventually(() => closes(phoneSub).length === 1 && closes(laptopSub).length === 1, 10_000, 'the close pushes');
    expect(closes(phoneSub)[0]).toEqual({ v: 1, kind: 'close', tag: approval.id });
    await status.waitState(tab.id, 'ready-for-review');
    expect(readFileSync(file, 'utf8')).toBe('pushed\n');

    // The turn ended: a review push with Claude's last sentence, which opens the timeline.
    const review = await eventually(() => shows(phoneSub).find((p) => p.tag === `tab-${tab.id}`), 10_000, 'the review push');
    expect(review).toMatchObject({ title: 'api server is ready for review', body: 'The file is written.', url: `/t/${tab.id}/timeline`, actions: [] });
    expect(endpoint.refused).toEqual([]);
  });

  it('closes the review notification once the tab is looked at, and pushes nothing about a tab a device has on screen', async () => {
    status.ws.send(JSON.stringify({ type: 'status:tab-dismissed', tabId: tab.id }));
    await eventually(() => closes(phoneSub).some((p) => p.tag === `tab-${tab.id}`), 10_000, 'the review notification closed');

    // The laptop has the tab open, in front.
    const looking = new StatusClient(laptop);
    await looking.opened;
    looking.ws.send(JSON.stringify({ type: 'status:presence', tabId: tab.id, visible: true }));
    await eventually(() => looking.messages.length > 0, 5_000, 'the laptop synced');
    const before = { phone: shows(phoneSub).length, laptop: shows(laptopSub).length };
    fake.onPrompt('run another', bash(`echo again > ${join(project, 'again.txt')}`, 'Write again'));
    await pane.submit('run another');
    const approval = await status.waitApproval(tab.id);
    await eventually(() => shows(phoneSub).length > before.phone, 10_000, 'the push to the phone');
    expect(shows(laptopSub)).toHaveLength(before.laptop);
    // Hidden again: the laptop is pushed the next time.
    looking.ws.send(JSON.stringify({ type: 'status:presence', tabId: tab.id, visible: false }));
    expect((await api(phone, 'POST', `/api/approvals/${approval.id}`, { decision: 'deny', message: 'not now' })).status).toBe(200);
    looking.ws.close();
    await eventually(() => status.latest(tab.id)?.state !== 'needs-input', 10_000, 'the tab to move on');
  });

  it('pushes a tab that waits in the terminal with nothing to approve, and closes it when the tab moves on', async () => {
    const shell = await createTab(phone);
    const headers = {
      'content-type': 'application/json',
      'x-pocketmux-token': readFileSync(join(env.dataDir, 'hook-token'), 'utf8').trim(),
      ...Object.fromEntries(Object.entries(await paneEnv(agent, shell)).map(([k, v]) => [k === 'TMUX_PANE' ? 'x-pocketmux-pane' : 'x-pocketmux-tmux', v])),
    };
    const hook = (event: string) => fetch(new URL(`/hooks/${event}`, agent.url), { method: 'POST', headers, body: JSON.stringify({ ...capturedHook(event), session_id: 'outside-pane-1' }) });
    expect((await hook('UserPromptSubmit')).status).toBe(204);
    expect((await hook('Notification')).status).toBe(204);
    const waiting = await eventually(() => shows(phoneSub).find((p) => p.tag === `tab-${shell.id}`), 10_000, 'the needs-input push');
    expect(waiting).toMatchObject({ title: 'Claude is waiting for you', body: 'Home · bash: answer in the terminal', url: `/t/${shell.id}`, approvalId: null, actions: [] });
    expect((await hook('PostToolUse')).status).toBe(204);
    await eventually(() => closes(phoneSub).some((p) => p.tag === `tab-${shell.id}`), 10_000, 'the close push');
  });

  it('names a Claude started outside pocketmux by its project directory', async () => {
    const headers = { 'content-type': 'application/json', 'x-pocketmux-token': readFileSync(join(env.dataDir, 'hook-token'), 'utf8').trim() };
    const sessionId = 'f0e1d2c3-0000-4000-8000-000000000abc';
    const key = outsideSessionKey(sessionId);
    const hook = (event: string, extra: Record<string, unknown> = {}) =>
      fetch(new URL(`/hooks/${event}`, agent.url), { method: 'POST', headers, body: JSON.stringify({ ...capturedHook(event), session_id: sessionId, cwd: '/srv/code/billing', ...extra }) });
    expect((await hook('SessionStart')).status).toBe(204);
    expect((await hook('UserPromptSubmit')).status).toBe(204);
    expect((await hook('Stop', { last_assistant_message: 'Invoices are fixed.' })).status).toBe(204);
    const review = await eventually(() => shows(phoneSub).find((p) => p.tag === `tab-${key}`), 10_000, 'the review push');
    expect(review).toMatchObject({ title: 'billing is ready for review', body: 'Invoices are fixed.', url: `/t/${key}/timeline` });
    expect((await hook('SessionEnd')).status).toBe(204);
  });

  it('writes out control and bidi characters of Claude’s last message in the review push, as the inbox card does', async () => {
    const headers = { 'content-type': 'application/json', 'x-pocketmux-token': readFileSync(join(env.dataDir, 'hook-token'), 'utf8').trim() };
    const sessionId = 'f0e1d2c3-0000-4000-8000-0000000bad01';
    const key = outsideSessionKey(sessionId);
    const hook = (event: string, extra: Record<string, unknown> = {}) =>
      fetch(new URL(`/hooks/${event}`, agent.url), { method: 'POST', headers, body: JSON.stringify({ ...capturedHook(event), session_id: sessionId, cwd: '/srv/code/reports', ...extra }) });
    expect((await hook('SessionStart')).status).toBe(204);
    expect((await hook('UserPromptSubmit')).status).toBe(204);
    const message = 'Done. I renamed it to report\u202eexe\u001b]0;pwned\u0007\u001b[2J and \u009b2J for you!';
    expect((await hook('Stop', { last_assistant_message: message })).status).toBe(204);
    const review = await eventually(() => shows(phoneSub).find((p) => p.tag === `tab-${key}`), 10_000, 'the review push');
    expect(review).toMatchObject({ title: 'reports is ready for review', body: 'I renamed it to report\\u202eexe\\x1b]0;pwned\\x07\\x1b[2J and \\u009b2J for you!' });
    expect((await hook('SessionEnd')).status).toBe(204);
  });

  it('pushes only what a device chose, and a test notification on request', async () => {
    const settings = await api<{ settings: PushState['settings'] }>(laptop, 'PUT', '/api/push/settings', { review: false });
    expect(settings.body.settings).toEqual({ approvals: true, needsInput: true, review: false });
    expect((await api(laptop, 'PUT', '/api/push/settings', { review: 'no' })).status).toBe(400);
    const before = shows(laptopSub).length;
    expect((await api(laptop, 'POST', '/api/push/test')).status).toBe(202);
    await eventually(() => shows(laptopSub).length === before + 1, 10_000, 'the test push');
    expect(shows(laptopSub).at(-1)).toMatchObject({ tag: 'test', title: 'pocketmux notifications work' });
  });

  it('refuses endpoints that are not a push service, and never posts to them', async () => {
    const sub = endpoint.subscribe().json;
    for (const bad of ['https://example.com/push/1', 'https://127.0.0.1/push/1', 'http://10.0.0.1:8080/push/1', 'https://fcm.googleapis.com.evil.test/x', 'ftp://fcm.googleapis.com/x']) {
      const res = await api<{ error: string }>(phone, 'POST', '/api/push/subscription', { ...sub, endpoint: bad });
      expect(res.status, bad).toBe(400);
    }
    expect((await api(phone, 'POST', '/api/push/subscription', { ...sub, keys: { p256dh: 'short', auth: 'x' } })).status).toBe(400);
    // Still subscribed as before.
    expect((await api<PushState>(phone, 'GET', '/api/push')).body.subscribed).toBe(true);
  });

  it('tries a push again when the push service fails for a passing reason, and keeps the subscription', async () => {
    endpoint.answer.set(phoneSub, 503);
    const tests = () => endpoint.of(phoneSub).filter((p) => p.kind === 'show' && p.tag === 'test').length;
    const before = tests();
    expect((await api(phone, 'POST', '/api/push/test')).status).toBe(202);
    await eventually(() => tests() === before + 1, 10_000, 'the first try');
    endpoint.answer.delete(phoneSub);
    await eventually(() => tests() === before + 2, 10_000, 'the second try');
    expect((await api<PushState>(phone, 'GET', '/api/push')).body.subscribed).toBe(true);
  });

  it('drops a subscription the push service says is gone, and one of a revoked device', async () => {
    endpoint.answer.set(laptopSub, 410);
    expect((await api(laptop, 'POST', '/api/push/test')).status).toBe(202);
    await eventually(async () => (await api<PushState>(laptop, 'GET', '/api/push')).body.subscribed === false, 10_000, 'the laptop unsubscribed');
    // Its choices are kept for when it subscribes again.
    expect((await api<PushState>(laptop, 'GET', '/api/push')).body.settings.review).toBe(false);

    const stored = () => JSON.parse(readFileSync(join(env.dataDir, 'push.json'), 'utf8')) as { devices: Record<string, unknown> };
    const phoneId = (await api<{ deviceId: string }>(phone, 'GET', '/api/session')).body.deviceId;
    expect(Object.keys(stored().devices)).toContain(phoneId);
    expect((await api(laptop, 'DELETE', `/api/devices/${phoneId}`)).status).toBe(204);
    expect(Object.keys(stored().devices)).not.toContain(phoneId);
  });

  it('keeps its key pair across a restart: subscriptions stay valid', async () => {
    await agent.stop();
    agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: { ...claude.env, POCKETMUX_PUSH_INSECURE_LOOPBACK: '1' } });
    const again = await claim(agent, 'after restart');
    expect((await api<{ publicKey: string }>(again, 'GET', '/api/push/key')).body.publicKey).toBe(endpoint.agentKey);
  });
});
