/**
 * A Codex tab end to end: the real Codex CLI (0.169.0) started by a real agent in its tmux,
 * against the stand-in Responses API, its hooks posted by the hook script to the agent's
 * intake, every state seen by a real `/api/status` client and every answer given over REST.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, REPO_ROOT, runCli, startAgent, tmux } from '../support/agent.js';
import { api, claim, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { codexConfigToml, command, FakeOpenAI, message } from '../support/fake-openai.js';
import { StatusClient } from '../support/status.js';

const CODEX_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'codex');
const READY = 'Ask Codex to do anything';

describe('a Codex tab with the real Codex CLI', () => {
  let fake: FakeOpenAI;
  let agent: AgentHandle;
  let session: Session;
  let project: string;
  let tab: TabView;
  let client: StatusClient;
  const env = newTestEnvironment();
  const codexHome = join(env.home, '.codex');

  const target = () => `=pm_${tab.workspaceId}_${tab.id}:`;
  const screen = async () => (await tmux(agent.tmuxSocket, 'capture-pane', '-p', '-t', target())).replaceAll('\u00a0', ' ');
  const waitScreen = (what: string, test: (s: string) => boolean, timeoutMs = 30_000) =>
    eventually(async () => ((s) => (test(s) ? s : null))(await screen()), timeoutMs, what);
  /** The hooks the agent received, as its debug log tells them. */
  const hooksReceived = () => [...agent.stderr().matchAll(/ debug hook received (\{.*\})$/gm)].map((m) => JSON.parse(m[1] as string) as { agent: string; event: string; key: string });

  async function submit(prompt: string): Promise<void> {
    await tmux(agent.tmuxSocket, 'send-keys', '-t', target(), '-l', prompt);
    await waitScreen(`"${prompt}" typed`, (s) => s.includes(prompt));
    await tmux(agent.tmuxSocket, 'send-keys', '-t', target(), 'Enter');
  }

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), codexConfigToml(fake.url, [project]));
    agent = await startAgent({
      reuse: env,
      args: ['--codex-bin', CODEX_BIN],
      env: { CODEX_HOME: codexHome, PM_STAND_IN_KEY: 'sk-stand-in', POCKETMUX_LOG_LEVEL: 'debug' },
    });
    session = await claim(agent);
    client = new StatusClient(session);
    await client.opened;
  });

  afterAll(async () => {
    client?.ws.close();
    await cleanupAgents();
    await fake?.close();
  });

  it('starts codex with its hooks as session flags, and follows a turn: busy, needs-input, approved from the phone, ready-for-review', async () => {
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'codex' });
    expect(created.status).toBe(201);
    tab = created.body;
    expect(tab.kind).toBe('codex');
    await waitScreen('the Codex prompt', (s) => s.includes(READY), 60_000);
    // Its hooks and their trust are flags of this one codex: nothing went into the person's config.
    const started = await tmux(agent.tmuxSocket, 'display', '-p', '-t', target(), '#{pane_start_command}');
    expect(started).toContain('codex/PermissionRequest');
    expect(started).toContain('trusted_hash');
    expect(readFileSync(join(codexHome, 'config.toml'), 'utf8')).not.toContain('hooks');

    const marker = join(project, 'marker.txt');
    fake.onPrompt('please write the marker', command(`echo marker > ${marker}`, 'Write the marker file'));
    fake.afterToolOutput(message('The marker is written.'));
    await submit('please write the marker');
    const approval = await client.waitApproval(tab.id, 60_000);
    expect(client.latest(tab.id)?.state).toBe('needs-input');
    expect(approval.tool).toBe('Bash');
    expect(JSON.stringify(approval)).toContain(`echo marker > ${marker}`);
    // Held: Codex waits on the hook and shows no dialog of its own meanwhile.
    await waitScreen('Codex running the hook', (s) => s.includes('Running hook'));
    const decided = await api(session, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow' });
    expect(decided.status).toBe(200);
    await client.waitState(tab.id, 'ready-for-review', undefined, 60_000);
    expect(readFileSync(marker, 'utf8')).toBe('marker\n');
    expect(client.states(tab.id)).toEqual(['idle', 'busy', 'needs-input', 'busy', 'ready-for-review']);
    expect(client.latest(tab.id)).toMatchObject({ claudeRunning: true, lastMessage: 'The marker is written.' });
    // Every hook came to Codex's intake, as Codex's, for this tab.
    const received = hooksReceived();
    expect(received.every((h) => h.agent === 'codex' && h.key === tab.id)).toBe(true);
    expect(received.map((h) => h.event)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop']);
    // The session to resume after a reboot, learnt from the hooks.
    const tabs = await api<{ tabs: TabView[] }>(session, 'GET', '/api/tabs');
    expect(tabs.body.tabs.find((t) => t.id === tab.id)?.claudeSessionId).toMatch(/^[0-9a-f-]{36}$/);
  }, 180_000);

  it('a deny from the phone reaches the model with its message, and nothing runs', async () => {
    const marker = join(project, 'denied.txt');
    fake.onPrompt('please write another', command(`echo no > ${marker}`, 'Write another file'));
    fake.afterToolOutput(message('Understood, I will not.'));
    await submit('please write another');
    const approval = await eventually(() => client.openApprovals().find((a) => a.tabId === tab.id && JSON.stringify(a).includes('denied.txt')), 60_000, 'the second approval');
    const decided = await api(session, 'POST', `/api/approvals/${approval.id}`, { decision: 'deny', message: 'Not now: the phone said no.' });
    expect(decided.status).toBe(200);
    const told = await fake.waitForRequest((r) => r.afterToolOutput && JSON.stringify(r.body.input?.at(-1)).includes('Not now: the phone said no.'));
    expect(told).toBeTruthy();
    await waitScreen('the answer after the refusal', (s) => s.includes('Understood, I will not.'), 60_000);
    await client.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Understood, I will not.', 60_000);
    expect(existsSync(marker)).toBe(false);
  }, 180_000);

  it('with its terminal open, Codex shows its own dialog at once: the hook is let go, and the card answers the dialog by keys', async () => {
    const terminal = new TerminalClient(session, tab.id, { cols: 100, rows: 32 });
    try {
      await terminal.opened;
      await eventually(async () => (await tmux(agent.tmuxSocket, 'list-clients', '-t', `=pm_${tab.workspaceId}_${tab.id}`)).trim() !== '', 15_000, "the terminal's tmux client");
      const marker = join(project, 'watched.txt');
      fake.onPrompt('please write while watched', command(`echo watched > ${marker}`, 'Write while watched'));
      fake.afterToolOutput(message('Written while you watched.'));
      await submit('please write while watched');
      // No "Running hook": the person at the terminal sees Codex's dialog, as without pocketmux.
      await waitScreen("Codex's own dialog", (s) => s.includes('Would you like to run the following command?'), 60_000);
      const card = await eventually(() => client.openApprovals().find((a) => a.tabId === tab.id && JSON.stringify(a).includes('watched.txt')), 30_000, 'the card of the dialog');
      expect(card).toMatchObject({ kind: 'dialog', summary: { title: expect.stringMatching(/^Bash: echo watched > /), body: `echo watched > ${marker}`, description: 'Write while watched' }, options: [{ key: '1', label: 'Yes, proceed (y)' }, { key: '2' }, { key: '3' }] });
      expect(client.latest(tab.id)?.state).toBe('needs-input');
      expect((await api(session, 'POST', `/api/approvals/${card.id}`, { decision: 'answer', option: '1' })).status).toBe(200);
      await client.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Written while you watched.', 60_000);
      expect(readFileSync(marker, 'utf8')).toBe('watched\n');
    } finally {
      terminal.close();
    }
    await eventually(async () => (await tmux(agent.tmuxSocket, 'list-clients', '-t', `=pm_${tab.workspaceId}_${tab.id}`)).trim() === '', 15_000, 'the terminal closed');
  }, 180_000);

  it('a terminal opened while a request is held takes it over: the hook is let go, Codex draws its dialog there, and the card becomes the dialog\'s', async () => {
    const marker = join(project, 'late.txt');
    fake.onPrompt('please write before I look', command(`echo late > ${marker}`, 'Write before the look'));
    fake.afterToolOutput(message('Written after you looked.'));
    await submit('please write before I look');
    const held = await eventually(() => client.openApprovals().find((a) => a.tabId === tab.id && JSON.stringify(a).includes('late.txt')), 60_000, 'the held request');
    expect(held.kind).toBe('permission');
    await waitScreen('Codex running the hook', (s) => s.includes('Running hook'));
    const terminal = new TerminalClient(session, tab.id, { cols: 100, rows: 32 });
    try {
      await terminal.opened;
      // The held card is settled as moved, never as answered, and its hook let go: Codex's dialog is on the terminal.
      await eventually(() => !client.openApprovals().some((a) => a.id === held.id), 15_000, 'the held card settled');
      const moved = await api<{ resolution: { outcome: string; by: { kind: string } } }>(session, 'POST', `/api/approvals/${held.id}`, { decision: 'allow' });
      expect(moved.status).toBe(409);
      expect(moved.body.resolution).toMatchObject({ outcome: 'moved-to-terminal', by: { kind: 'terminal' } });
      await terminal.waitForLine(/Would you like to run the following command\?/, 30_000);
      const card = await eventually(() => client.openApprovals().find((a) => a.tabId === tab.id && a.kind === 'dialog' && JSON.stringify(a).includes('late.txt')), 30_000, 'the card of the dialog');
      expect(card).toMatchObject({ quiet: true, summary: { body: `echo late > ${marker}` }, options: [{ key: '1', label: 'Yes, proceed (y)' }, { key: '2' }, { key: '3' }] });
      expect(client.latest(tab.id)?.state).toBe('needs-input');
      expect(existsSync(marker)).toBe(false);
      expect((await api(session, 'POST', `/api/approvals/${card.id}`, { decision: 'answer', option: '1' })).status).toBe(200);
      await client.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Written after you looked.', 60_000);
      expect(readFileSync(marker, 'utf8')).toBe('late\n');
    } finally {
      terminal.close();
    }
    await eventually(async () => (await tmux(agent.tmuxSocket, 'list-clients', '-t', `=pm_${tab.workspaceId}_${tab.id}`)).trim() === '', 15_000, 'the terminal closed');
  }, 180_000);

  it('a patch Codex asks to apply is a card with its files and lines; Approve applies it', async () => {
    writeFileSync(join(project, 'notes.txt'), 'one\ntwo\n');
    const patch = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: notes.txt\n@@\n one\n-two\n+three\n*** Add File: added.txt\n+new\n*** End Patch\nEOF";
    fake.onPrompt('please patch the notes', command(patch, 'Edit the notes'));
    fake.afterToolOutput(message('Patched the notes.'));
    await submit('please patch the notes');
    const card = await eventually(() => client.openApprovals().find((a) => a.tabId === tab.id && a.tool === 'apply_patch'), 60_000, 'the patch card');
    expect(card).toMatchObject({ kind: 'permission', summary: { title: 'Patch: Edit 2 files: notes.txt, added.txt', description: '+2 −1', diff: ['… notes.txt', ' one', '-two', '+three', '… added.txt (new)', '+new'] } });
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('one\ntwo\n');
    expect((await api(session, 'POST', `/api/approvals/${card.id}`, { decision: 'allow' })).status).toBe(200);
    await client.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Patched the notes.', 60_000);
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('one\nthree\n');
    expect(readFileSync(join(project, 'added.txt'), 'utf8')).toBe('new\n');
  }, 180_000);

  it('recovers from an agent restart while Codex waits on a permission: still needs input, and its dialog is a card the phone answers by keys', async () => {
    const marker = join(project, 'third.txt');
    fake.onPrompt('please write the third', command(`echo third > ${marker}`, 'Write the third file'));
    fake.afterToolOutput(message('The third is written.'));
    await submit('please write the third');
    await eventually(() => client.openApprovals().find((a) => a.tabId === tab.id && JSON.stringify(a).includes('third.txt')), 60_000, 'the third approval');
    await eventually(() => JSON.parse(readFileSync(join(env.dataDir, 'status.json'), 'utf8')).tabs?.[tab.id]?.state === 'needs-input', 10_000, 'needs-input on disk');
    client.ws.close();
    await agent.stop('SIGKILL');
    // The hook's request is cut: Codex shows its own dialog, as without pocketmux.
    await waitScreen('Codex asking in its terminal', (s) => s.includes('Would you like to run the following command?'));

    agent = await startAgent({ reuse: env, args: ['--codex-bin', CODEX_BIN], env: { CODEX_HOME: codexHome, PM_STAND_IN_KEY: 'sk-stand-in', POCKETMUX_LOG_LEVEL: 'debug' } });
    session = await claim(agent);
    client = new StatusClient(session);
    await client.opened;
    await client.waitState(tab.id, 'needs-input', (s) => s.claudeRunning);
    // No hook stands for Codex's own dialog now: it is read off the screen and offered.
    const dialog = await client.waitApproval(tab.id, 30_000);
    expect(dialog).toMatchObject({
      kind: 'dialog',
      // The pane is 80 columns wide: the command wraps as Codex drew it.
      summary: { title: 'Would you like to run the following command?', description: expect.stringMatching(/Reason: Write the third file\n\$ echo third >\s*\S*third\.txt/) },
      options: [{ key: '1', label: 'Yes, proceed (y)' }, { key: '2' }, { key: '3', label: 'No, and tell Codex what to do differently (esc)' }],
    });
    const answered = await api(session, 'POST', `/api/approvals/${dialog.id}`, { decision: 'answer', option: '1' });
    expect(answered.status).toBe(200);
    // The key reached Codex: the command runs, and the turn's end reaches the restarted agent.
    await client.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'The third is written.', 60_000);
    expect(readFileSync(marker, 'utf8')).toBe('third\n');
  }, 180_000);

  it('after a reboot, starts the Codex tab again on its session (codex resume)', async () => {
    const sessionId = (await api<{ tabs: TabView[] }>(session, 'GET', '/api/tabs')).body.tabs.find((t) => t.id === tab.id)?.claudeSessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    client.ws.close();
    await agent.stop('SIGKILL');
    await tmux(agent.tmuxSocket, 'kill-server');

    agent = await startAgent({ reuse: env, args: ['--codex-bin', CODEX_BIN], env: { CODEX_HOME: codexHome, PM_STAND_IN_KEY: 'sk-stand-in', POCKETMUX_LOG_LEVEL: 'debug' } });
    session = await claim(agent);
    client = new StatusClient(session);
    await client.opened;
    // tmux shows the command with its own quoting.
    expect(await tmux(agent.tmuxSocket, 'display', '-p', '-t', target(), '#{pane_start_command}')).toMatch(new RegExp(`resume\\W+${sessionId}`));
    await waitScreen('the resumed Codex prompt', (s) => s.includes(READY) && s.includes('please write the third'), 60_000);
    fake.onPrompt('say hi again', message('Hi again.'));
    await submit('say hi again');
    const resumed = await client.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Hi again.', 60_000);
    expect(resumed.sessionId).toBe(sessionId);
  }, 180_000);

  it('starts a Codex tab from the command line, lists it as codex, and keeps Claude\'s options for Claude', async () => {
    const cli = (...args: string[]) => runCli([...args, '--data-dir', env.dataDir], agentEnv(env));
    const created = await cli('tab', 'new', '--codex', '--name', 'from the CLI', project, '--json');
    expect(created.code, created.stderr).toBe(0);
    const made = JSON.parse(created.stdout) as TabView;
    expect(made).toMatchObject({ kind: 'codex', name: 'from the CLI' });
    const listed = JSON.parse((await cli('tabs', '--json')).stdout) as { id: string; kind: string }[];
    expect(listed.find((r) => r.id === made.id)?.kind).toBe('codex');
    const both = await cli('tab', 'new', '--codex', '--claude', project);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/tab new \[--claude \| --codex\]/);
    const resume = await cli('tab', 'new', '--codex', '--resume', '01a240a7-f926-7fa3-91c4-511d9e3bf57a', project);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/--permission-mode and --resume are for a Claude tab/);
    // The API says the same of a Codex tab asked for with Claude's options.
    const ws = (await api<{ workspaces: WorkspaceView[] }>(session, 'GET', '/api/workspaces')).body.workspaces.find((w) => w.dir === project) as WorkspaceView;
    const refused = await api<{ error: string }>(session, 'POST', '/api/tabs', { workspaceId: ws.id, kind: 'codex', claude: { permissionMode: 'plan' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/are for a Claude tab/);
    expect((await cli('tab', 'close', made.id)).code).toBe(0);
  }, 60_000);
});
