/**
 * The real Claude Code CLI started outside pocketmux, with pocketmux's hooks in its user
 * settings (`pocketmux hooks install`): once in the person's own tmux server (a separate one,
 * not pocketmux's), once with no tmux at all (a bare pty). Each becomes an outside session:
 * its status, approvals and questions work as a tab's; the tmux one's terminal opens and a
 * reply reaches it; the other says it has no terminal. Forgotten when its claude exits.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import xtermHeadless from '@xterm/headless';
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAlive } from '../../agent/util/process-alive.js';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval, ApprovalResolution } from '../../protocol/approvals.js';
import { outsideSessionKey } from '../../protocol/hook-contract.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { CLAUDE_BIN, type ClaudeEnv, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudePane, ClaudeTabPane, PERMISSION_DIALOG } from '../support/claude-pane.js';
import { api, claim, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { bash, FakeAnthropic, text, toolUse } from '../support/fake-anthropic.js';
import { TmuxServer } from '../support/tmux-server.js';
import { capturedQuestions, StatusClient } from '../support/status.js';
import { shellWord } from '../../agent/config/shell-words.js';

type Decided = { resolution: ApprovalResolution };

describe('Claude started outside pocketmux', () => {
  const env = newTestEnvironment();
  const own = TmuxServer.named('own');
  let fake: FakeAnthropic;
  let claude: ClaudeEnv;
  let agent: AgentHandle;
  let phone: Session;
  let status: StatusClient;
  let project: string;
  let plainDir: string;

  const outsideList = async () => (await api<{ sessions: OutsideSessionView[] }>(phone, 'GET', '/api/outside')).body.sessions;
  const decide = (id: string, body: unknown) => api<Decided>(phone, 'POST', `/api/approvals/${id}`, body);
  /** The one outside session started in `dir`, once its first hook arrived. */
  const sessionIn = (dir: string) => eventually(async () => (await outsideList()).find((s) => s.cwd === dir), 30_000, `an outside session in ${dir}`);

  beforeAll(async () => {
    fake = await FakeAnthropic.start();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    mkdirSync(join(env.home, 'plain'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    plainDir = realpathSync(join(env.home, 'plain'));
    claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project, plainDir] });
    agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: { ...claude.env, POCKETMUX_LOG_LEVEL: 'debug', POCKETMUX_OUTSIDE_POLL_MS: '300' } });
    phone = await claim(agent, 'Pixel 8');
    status = new StatusClient(phone);
    await status.opened;
    const before = (await api<{ state: string; installCommand: string }>(phone, 'GET', '/api/hooks')).body;
    expect(before.state).toBe('none');
    // This agent's data dir is not the default one: the command the app shows names it.
    expect(before.installCommand.endsWith(`hooks install --data-dir ${shellWord(agent.dataDir)}`)).toBe(true);
    const installed = await runCli(['hooks', 'install', '--data-dir', agent.dataDir], agentEnv(agent));
    expect(installed.code, installed.stderr).toBe(0);
    expect((await api<{ state: string }>(phone, 'GET', '/api/hooks')).body.state).toBe('installed');
  });

  afterAll(async () => {
    status?.ws.close();
    await own.stop();
    await cleanupAgents();
    await fake?.close();
  });

  describe('in the person\'s own tmux server', () => {
    let pane: ClaudePane;
    let key: string;

    beforeAll(async () => {
      const paneId = await own.open(project, `'${CLAUDE_BIN}' --permission-mode default`, claude.env);
      pane = new ClaudePane(own.socket, paneId);
      const found = await sessionIn(project);
      key = found.key;
      expect(found).toMatchObject({ terminal: 'tmux', pane: paneId });
      expect(key).toBe(outsideSessionKey(found.sessionId));
      await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
      await status.waitState(key, 'idle');
    });

    it('is listed with its pid, on the sync channel too', async () => {
      const found = await eventually(async () => (await outsideList()).find((s) => s.key === key && s.pid !== null), 15_000, 'its claude pid');
      const sessionFile = JSON.parse(readFileSync(join(env.home, '.claude', 'sessions', `${found.pid}.json`), 'utf8')) as { sessionId: string };
      expect(sessionFile.sessionId).toBe(found.sessionId);
      // It is not a tab: no workspace lists it.
      const tabs = (await api<{ tabs: { id: string }[] }>(phone, 'GET', '/api/tabs')).body.tabs;
      expect(tabs.map((t) => t.id)).not.toContain(key);
    });

    it('its approval is answered from the device and the tool runs', async () => {
      const file = join(project, 'outside-approved.txt');
      fake.onPrompt('run it outside', bash(`echo outside > ${file}`, 'Write a file'));
      fake.afterToolResult(text('Done outside.'));
      await pane.submit('run it outside');
      const approval: Approval = await status.waitApproval(key);
      expect(approval).toMatchObject({ kind: 'permission', tool: 'Bash', tabId: key });
      await pane.waitScreen('the permission dialog', (s) => s.includes(PERMISSION_DIALOG));
      expect(status.latest(key)?.state).toBe('needs-input');
      // Not adopted while Claude waits on an answer: its claude is left alone.
      const adopt = await api<{ error: string }>(phone, 'POST', `/api/outside/${key}/adopt`, {});
      expect(adopt.status).toBe(409);
      expect(adopt.body.error).toMatch(/adopt it when its turn has ended/);
      const decided = await decide(approval.id, { decision: 'allow' });
      expect(decided.body.resolution).toMatchObject({ outcome: 'approved', by: { kind: 'device', name: 'Pixel 8' } });
      await status.waitState(key, 'ready-for-review');
      expect(readFileSync(file, 'utf8')).toBe('outside\n');
      expect(await pane.screen()).toContain('Allowed by PermissionRequest hook');
      expect(status.latest(key)?.lastMessage).toBe('Done outside.');
    });

    it('its question is answered from the device', async () => {
      fake.onPrompt('ask me outside', toolUse('AskUserQuestion', { questions: capturedQuestions() }));
      fake.afterToolResult(text('Blue, then.'));
      await pane.submit('ask me outside');
      const approval = await status.waitApproval(key);
      expect(approval.kind).toBe('question');
      const decided = await decide(approval.id, { decision: 'answer', answers: { 'Which colour should the button be?': 'Blue' } });
      expect(decided.body.resolution.outcome).toBe('answered');
      await eventually(() => fake.lastToolResultText().includes('="Blue"'), 20_000, 'the answer in what the model was sent');
      await status.waitState(key, 'ready-for-review');
    });

    it('its terminal opens through its own tmux server, and typing reaches claude', async () => {
      const term = new TerminalClient(phone, key, { cols: 120, rows: 40 });
      await term.opened;
      await term.waitForLine(/Blue, then\./, 15_000);
      term.type('typed from the phone');
      await pane.waitScreen('the typed text in claude\'s prompt', (s) => s.includes('❯ typed from the phone'));
      // Clear the line again: Ctrl-U in claude's prompt.
      term.type('\u0015');
      await pane.waitScreen('the prompt cleared', (s) => /^❯ *$/m.test(s));
      term.close();
      await term.closed;
      // Closing the terminal ends only its own tmux client: claude runs on in the person's pane.
      expect(await pane.screen()).toContain('❯');
    });

    it('a reply from the review card reaches claude', async () => {
      fake.onPrompt('and a reply', text('Replied outside.'));
      const typed = await api(phone, 'POST', `/api/outside/${key}/input`, { text: 'and a reply' });
      expect(typed.status).toBe(204);
      await eventually(() => status.latest(key)?.lastMessage === 'Replied outside.', 30_000, 'the reply answered');
      await status.waitState(key, 'ready-for-review');
    });

    it('after /clear, is the same claude under its new session id', async () => {
      const before = await eventually(async () => (await outsideList()).find((s) => s.key === key && s.pid !== null), 15_000, 'its claude pid');
      await pane.submit('/clear');
      // Claude ends the old session and starts a new one in the same process and pane.
      const after = await eventually(
        async () => (await outsideList()).find((s) => s.cwd === project && s.key !== key && s.pid !== null),
        20_000,
        'the new session with its claude pid',
      );
      expect(after).toMatchObject({ pid: before.pid, pane: before.pane, terminal: 'tmux' });
      // The old session's SessionEnd and the new one's SessionStart race each other (an HTTP hook
      // and the script): the old one goes when its SessionEnd is in, which may come second.
      const oldKey = key;
      key = after.key;
      await eventually(async () => !(await outsideList()).some((s) => s.key === oldKey), 15_000, 'the old session forgotten');
      await status.waitState(key, 'idle');
    });

    it('is forgotten when its claude exits', async () => {
      const { pid } = await eventually(async () => (await outsideList()).find((s) => s.key === key && s.pid !== null), 15_000, 'its claude pid');
      await pane.submit('/exit');
      await eventually(async () => !(await outsideList()).some((s) => s.key === key), 30_000, 'the session forgotten');
      // The session ends before the process does, and an exiting claude still writes its
      // config file: wait until it is gone, so the next test's trusted folder is not undone.
      await eventually(() => !processAlive(pid as number), 30_000, 'its claude process gone');
      await eventually(() => status.messages.some((m) => m.type === 'status:removed' && m.tabId === key), 10_000, 'status:removed');
      const term = new TerminalClient(phone, key);
      expect((await term.closed).code).toBe(4004);
    });
  });

  describe('adopted as a Claude tab', () => {
    it('ends its claude and resumes the same conversation in a tab of the workspace of its directory', async () => {
      mkdirSync(join(env.home, 'adopt-me'), { recursive: true });
      const dir = realpathSync(join(env.home, 'adopt-me'));
      claude.trust(dir);
      const paneId = await own.open(dir, `'${CLAUDE_BIN}' --permission-mode default`, claude.env);
      const pane = new ClaudePane(own.socket, paneId);
      const found = await sessionIn(dir).catch(async (err: Error) => {
        throw new Error(`${err.message}; its pane shows:\n${await pane.screen()}`);
      });
      await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
      fake.onPrompt('remember a bird', text('Noted: pelican.'));
      await pane.submit('remember a bird');
      await status.waitState(found.key, 'ready-for-review');
      const { pid } = await eventually(async () => (await outsideList()).find((s) => s.key === found.key && s.pid !== null), 15_000, 'its claude pid');

      const adopted = await api<TabView>(phone, 'POST', `/api/outside/${found.key}/adopt`, {});
      expect(adopted.status, JSON.stringify(adopted.body)).toBe(201);
      expect(adopted.body).toMatchObject({ kind: 'claude', claudeSessionId: found.sessionId });
      // Its old claude is gone, and so is the outside session.
      expect(() => process.kill(pid as number, 0)).toThrow();
      expect((await outsideList()).map((s) => s.key)).not.toContain(found.key);
      const workspaces = (await api<{ workspaces: WorkspaceView[] }>(phone, 'GET', '/api/workspaces')).body.workspaces;
      const home = workspaces.find((w) => w.tabs.some((t) => t.id === adopted.body.id));
      expect(home).toMatchObject({ name: 'adopt-me', dir });

      // The tab runs the same session: the conversation goes on where it stopped.
      const tab = adopted.body;
      const tabPane = new ClaudeTabPane(agent, tab);
      await status.waitState(tab.id, 'idle', (s) => s.claudeRunning && s.sessionId === found.sessionId, 30_000);
      await tabPane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
      fake.onPrompt('which bird', text('A pelican.'));
      await tabPane.submit('which bird');
      await status.waitState(tab.id, 'ready-for-review');
      const asked = fake.requests.filter((r) => r.prompt === 'which bird' && !r.sideCall).at(-1);
      expect(JSON.stringify(asked?.body?.messages)).toContain('Noted: pelican.');
    });

    it('is refused for an unknown session, and for a bad key', async () => {
      expect((await api(phone, 'POST', `/api/outside/${outsideSessionKey('0000aaaa-0000')}/adopt`, {})).status).toBe(404);
      expect((await api(phone, 'POST', '/api/outside/not-a-key/adopt', {})).status).toBe(400);
    });
  });

  describe('with no tmux', () => {
    let claudePty: pty.IPty;
    /** What a terminal on the machine would show: claude draws its screen with escapes. */
    const screenTerm = new xtermHeadless.Terminal({ cols: 120, rows: 40, allowProposedApi: true });
    let key: string;

    const screen = async (): Promise<string> => {
      await new Promise<void>((resolve) => screenTerm.write('', resolve));
      const buffer = screenTerm.buffer.active;
      const rows: string[] = [];
      for (let y = 0; y < screenTerm.rows; y++) rows.push((buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd());
      return rows.join('\n').replaceAll('\u00a0', ' ');
    };
    const waitScreen = (what: string, test: (s: string) => boolean, timeoutMs = 20_000) =>
      eventually(async () => {
        const s = await screen();
        return test(s) ? s : null;
      }, timeoutMs, what);

    beforeAll(async () => {
      const { TMUX: _tmux, TMUX_PANE: _pane, ...noTmux } = claude.env;
      claudePty = pty.spawn(CLAUDE_BIN, ['--permission-mode', 'default'], { name: 'xterm-256color', cols: 120, rows: 40, cwd: plainDir, env: { ...noTmux, TERM: 'xterm-256color' } });
      claudePty.onData((d) => screenTerm.write(d));
      const found = await sessionIn(plainDir);
      key = found.key;
      expect(found).toMatchObject({ terminal: 'none', pane: null });
      await status.waitState(key, 'idle');
      await waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
    });

    afterAll(() => {
      screenTerm.dispose();
      try {
        claudePty?.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    });

    /** Types into the pty as a person would: the prompt first, Enter once it shows. */
    async function submit(prompt: string): Promise<void> {
      claudePty.write(prompt);
      await waitScreen(`"${prompt}" typed`, (s) => s.includes(`❯ ${prompt}`));
      claudePty.write('\r');
    }

    it('its approval is answered from the device and the tool runs', async () => {
      const file = join(plainDir, 'plain-approved.txt');
      fake.onPrompt('run it with no tmux', bash(`echo plain > ${file}`, 'Write a file'));
      fake.afterToolResult(text('Done with no tmux.'));
      await submit('run it with no tmux');
      const approval = await status.waitApproval(key);
      expect(approval).toMatchObject({ kind: 'permission', tool: 'Bash' });
      expect(existsSync(file)).toBe(false);
      await decide(approval.id, { decision: 'allow' });
      await status.waitState(key, 'ready-for-review');
      expect(readFileSync(file, 'utf8')).toBe('plain\n');
    });

    it('has no terminal and takes no typed reply, and says why', async () => {
      const term = new TerminalClient(phone, key);
      const closed = await term.closed;
      expect(closed).toEqual({ code: 4004, reason: 'no terminal: started outside tmux' });
      const typed = await api<{ error: string }>(phone, 'POST', `/api/outside/${key}/input`, { text: 'hello' });
      expect(typed.status).toBe(409);
      expect(typed.body.error).toMatch(/started outside tmux/);
    });

    it('is forgotten when its process is gone, with no SessionEnd', async () => {
      await eventually(async () => (await outsideList()).find((s) => s.key === key)?.pid ?? null, 15_000, 'its claude pid');
      claudePty.kill('SIGKILL');
      await eventually(async () => !(await outsideList()).some((s) => s.key === key), 15_000, 'the session forgotten');
      await eventually(() => status.messages.some((m) => m.type === 'status:removed' && m.tabId === key), 10_000, 'status:removed');
    });
  });
});
