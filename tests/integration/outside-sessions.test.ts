/**
 * Claude sessions started outside pocketmux's tabs, against the real agent: reported by the
 * agent's own hook script (`--global`, as Claude's user settings run it) from a pane of a
 * SEPARATE tmux server the test starts (the person's own tmux) and from no tmux at all; then
 * listed, synced, given a status, a terminal and typed input, and forgotten when they end.
 * A terminal opens and typed input goes only where a claude runs: the panes' "claude" is a copy of cat, so what it
 * is sent shows twice (the terminal's echo, then cat's), and a shell left alone never runs it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeStandIn } from '../support/claude-stand-in.js';
import { descendants, processLister, procStartTime } from '../../agent/claude/process.js';
import { CloseCode } from '../../protocol/close-codes.js';
import { HOOK_HEADERS, outsideSessionKey } from '../../protocol/hook-contract.js';
import type { OutsideSessionsResponse, OutsideSessionView, UserHooksView } from '../../protocol/outside.js';
import type { SyncSnapshot } from '../../protocol/sync.js';
import { FrameType } from '../../protocol/terminal-frame.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { RawChannel } from '../support/channels.js';
import { api, claim, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { runHookScript } from '../support/hook-script.js';
import { capturedHook, StatusClient } from '../support/status.js';
import { testSocketName } from '../support/temp.js';
import { shellWord } from '../../agent/config/shell-words.js';

/** A tmux server of its own, standing for the person's tmux: never pocketmux's. */
class OutsideServer {
  readonly name = testSocketName('outside');
  socketPath = '';
  private serverPid = '';

  constructor(private readonly home: string) {}

  run(...args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        'tmux',
        ['-L', this.name, ...args],
        // No TMUX from the test's own environment: this server is not nested in anything.
        { env: { PATH: process.env.PATH, HOME: this.home, SHELL: '/bin/sh', TERM: 'xterm-256color', LANG: 'C.UTF-8' }, timeout: 5_000 },
        (err, stdout, stderr) => (err ? reject(new Error(`tmux ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout)),
      );
    });
  }

  /** Starts the server with one pane; returns that pane's id. */
  async start(): Promise<string> {
    await this.run('-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', '24');
    const [socketPath, pid, pane] = (await this.run('display', '-p', '#{socket_path}\t#{pid}\t#{pane_id}')).trim().split('\t');
    this.socketPath = socketPath as string;
    this.serverPid = pid as string;
    return pane as string;
  }

  /** One more pane, in a window of its own; running `command` through the shell when given. */
  async newPane(command?: string): Promise<string> {
    return (await this.run('new-window', '-d', '-P', '-F', '#{pane_id}', ...(command ? [command] : []))).trim();
  }

  /** What the pane runs in its foreground now (`claude`, `sh`). */
  async foreground(pane: string): Promise<string> {
    return (await this.run('display', '-p', '-t', pane, '#{pane_current_command}')).trim();
  }

  /** Starts `bin` from the pane's shell, as a person types `claude`, and waits for it to run. */
  async startClaude(pane: string, bin: string): Promise<void> {
    await this.run('send-keys', '-t', pane, '-l', `'${bin}'`);
    await this.run('send-keys', '-t', pane, 'Enter');
    await eventually(async () => (await this.foreground(pane)) === 'claude', 15_000, `claude to run in pane ${pane}`);
  }

  /** The pid of the claude the pane's shell runs. */
  async claudePid(pane: string): Promise<number> {
    const panePid = Number((await this.run('display', '-p', '-t', pane, '#{pane_pid}')).trim());
    return eventually(async () => {
      const table = await processLister().list();
      return [panePid, ...descendants(table, panePid)].find((pid) => table.get(pid)?.comm === 'claude');
    }, 15_000, `the claude process in pane ${pane}`);
  }

  /** `$TMUX` and `$TMUX_PANE` as a claude in that pane has them. */
  env(pane: string): Record<string, string> {
    return { TMUX: `${this.socketPath},${this.serverPid},0`, TMUX_PANE: pane };
  }

  async capture(pane: string): Promise<string[]> {
    return (await this.run('capture-pane', '-p', '-t', pane)).split('\n').map((l) => l.trimEnd());
  }

  /** Waits for a line of the pane to be exactly `line`. */
  async waitForLine(pane: string, line: string): Promise<void> {
    await eventually(async () => (await this.capture(pane)).includes(line), 15_000, `"${line}" in pane ${pane}`);
  }

  /** How many lines of the pane are exactly `line`. */
  async count(pane: string, line: string): Promise<number> {
    return (await this.capture(pane)).filter((l) => l === line).length;
  }

  /** Waits for the pane's claude (cat) to have read `line`: shown twice, as typed and as cat writes it back. */
  async waitForEcho(pane: string, line: string, timeoutMs = 15_000): Promise<void> {
    await eventually(async () => (await this.count(pane, line)) >= 2, timeoutMs, `"${line}" read by the claude in pane ${pane}`, async () =>
      (await this.capture(pane)).join('\n'),
    );
  }

  async paneExists(pane: string): Promise<boolean> {
    return this.run('display', '-p', '-t', pane, '#{pane_id}').then(
      (out) => out.trim() === pane,
      () => false,
    );
  }

  async stop(): Promise<void> {
    await this.run('kill-server').catch(() => undefined);
    if (this.socketPath) rmSync(this.socketPath, { force: true });
  }
}

const sessionStart = capturedHook('SessionStart');

function startPayload(sessionId: string, cwd: string): Record<string, unknown> {
  return { ...sessionStart, session_id: sessionId, cwd, transcript_path: `/nonexistent/${sessionId}.jsonl`, hook_event_name: 'SessionStart' };
}

function newSessionId(): string {
  return `${randomBytes(4).toString('hex')}-0000-4000-8000-${randomBytes(6).toString('hex')}`;
}

/** Reports a session the way Claude runs a hook from its user settings: the script's --global mode. */
async function report(agent: AgentHandle, event: string, payload: unknown, env: Record<string, string>): Promise<void> {
  const run = await runHookScript(agent.dataDir, `--global ${event}`, payload, env);
  expect(run, `hook ${event}`).toMatchObject({ code: 0, stdout: '' });
}

/** POSTs a hook event the way Claude's HTTP hooks send one, and returns the response's status. */
async function postHook(agent: AgentHandle, event: string, body: unknown, env: Record<string, string>): Promise<number> {
  const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
  const headers = { 'content-type': 'application/json', [HOOK_HEADERS.token]: token, [HOOK_HEADERS.tmux]: env.TMUX ?? '', [HOOK_HEADERS.pane]: env.TMUX_PANE ?? '' };
  const res = await fetch(new URL(`/hooks/${event}`, agent.url), { method: 'POST', headers, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

async function outsideList(session: Session): Promise<OutsideSessionView[]> {
  const res = await api<OutsideSessionsResponse>(session, 'GET', '/api/outside');
  expect(res.status).toBe(200);
  return res.body.sessions;
}

function waitListed(session: Session, key: string, check: (v: OutsideSessionView) => boolean = () => true): Promise<OutsideSessionView> {
  return eventually(async () => (await outsideList(session)).find((v) => v.key === key && check(v)), 15_000, `${key} in /api/outside`);
}

async function waitGone(session: Session, key: string): Promise<void> {
  await eventually(async () => !(await outsideList(session)).some((v) => v.key === key), 15_000, `${key} to leave /api/outside`);
}

function lastSnapshot(sync: RawChannel): SyncSnapshot | undefined {
  return sync.of<SyncSnapshot>('sync:snapshot').at(-1);
}

const children: ChildProcess[] = [];
const servers: OutsideServer[] = [];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const s of servers) await s.stop();
  await cleanupAgents();
});

async function outsideServer(home: string): Promise<{ server: OutsideServer; pane: string }> {
  const server = new OutsideServer(home);
  servers.push(server);
  const pane = await server.start();
  return { server, pane };
}

describe('Claude sessions outside the tabs', () => {
  let agent: AgentHandle;
  let session: Session;
  let server: OutsideServer;
  let pane: string;
  let status: StatusClient;
  let sync: RawChannel;
  let claudeBin: string;
  const inTmux = { id: newSessionId(), cwd: '/home/someone/in-tmux' };
  const plain = { id: newSessionId(), cwd: '/home/someone/plain' };
  const tmuxKey = outsideSessionKey(inTmux.id);
  const plainKey = outsideSessionKey(plain.id);

  beforeAll(async () => {
    // No sweep while these run: a pane that cannot be reached (f) would be forgotten by one.
    agent = await startAgent({ env: { POCKETMUX_OUTSIDE_POLL_MS: '3600000' } });
    session = await claim(agent);
    claudeBin = claudeStandIn(agent.root);
    ({ server, pane } = await outsideServer(agent.home));
    status = new StatusClient(session);
    sync = new RawChannel(session, '/api/sync');
    await Promise.all([status.opened, sync.opened]);
    await report(agent, 'SessionStart', startPayload(inTmux.id, inTmux.cwd), server.env(pane));
    await report(agent, 'SessionStart', startPayload(plain.id, plain.cwd), {});
  });
  afterAll(() => {
    status?.ws.close();
    sync?.ws.close();
  });

  it('(a) lists both, in /api/outside, in the sync snapshot and on the status channel', async () => {
    const listed = await outsideList(session);
    expect(listed.find((v) => v.key === tmuxKey)).toMatchObject({ key: tmuxKey, sessionId: inTmux.id, cwd: inTmux.cwd, terminal: 'tmux', pane, pid: null });
    expect(listed.find((v) => v.key === plainKey)).toMatchObject({ key: plainKey, sessionId: plain.id, cwd: plain.cwd, terminal: 'none', pane: null, pid: null });

    const snapshot = await eventually(() => {
      const s = lastSnapshot(sync);
      return s && [tmuxKey, plainKey].every((k) => s.outside.some((v) => v.key === k)) ? s : null;
    }, 15_000, 'a sync snapshot with both');
    expect(snapshot.outside.find((v) => v.key === tmuxKey)).toMatchObject({ terminal: 'tmux', pane, cwd: inTmux.cwd });
    expect(snapshot.outside.find((v) => v.key === plainKey)).toMatchObject({ terminal: 'none', pane: null, cwd: plain.cwd });
    // Neither is a tab.
    expect(snapshot.workspaces.flatMap((w) => w.tabs.map((t) => t.id))).not.toContain(tmuxKey);

    await status.waitState(tmuxKey, 'idle');
    await status.waitState(plainKey, 'idle');
    // Their status follows their hooks by key, like a tab's.
    await report(agent, 'UserPromptSubmit', { ...startPayload(plain.id, plain.cwd), hook_event_name: 'UserPromptSubmit', prompt: 'hello' }, {});
    await status.waitState(plainKey, 'busy');
    // A fresh client gets them in its first sync.
    const late = new StatusClient(session);
    await late.opened;
    await late.waitState(tmuxKey, 'idle');
    await late.waitState(plainKey, 'busy');
    late.ws.close();
  });

  it('(b) opens no terminal on a pane where only a shell runs, as REST types nothing there: nothing typed reaches it', async () => {
    // Its claude exited and left the shell it ran from: what is typed there would run as a command.
    expect(await server.foreground(pane)).toBe('sh');
    const marker = `never-run-${randomBytes(3).toString('hex')}`;
    const term = new TerminalClient(session, tmuxKey);
    await term.opened;
    // Sent at once, before the agent has looked for its claude.
    term.type(`echo ${marker}-$((2+3))\r`);
    const closed = await term.closed;
    expect(closed).toEqual({ code: CloseCode.TabNotFound, reason: 'its claude is no longer running in that pane' });
    // The same rule as typed input, from the same check: the session is forgotten.
    await waitGone(session, tmuxKey);
    const input = await api(session, 'POST', `/api/outside/${tmuxKey}/input`, { text: `echo ${marker}` });
    expect(input.status).toBe(404);
    expect(await server.paneExists(pane)).toBe(true);
    expect((await server.capture(pane)).some((l) => l.includes(marker))).toBe(false);
  });

  it('(b) opens a terminal on the pane through its own tmux server where its claude runs: output, typed input, and a kill frame that kills nothing', async () => {
    await server.startClaude(pane, claudeBin);
    // Its claude reports again, as a claude started in that pane does.
    await report(agent, 'SessionStart', startPayload(inTmux.id, inTmux.cwd), server.env(pane));
    await waitListed(session, tmuxKey);
    const marker = `shown-${randomBytes(3).toString('hex')}`;
    await server.run('send-keys', '-t', pane, '-l', marker);
    await server.run('send-keys', '-t', pane, 'Enter');
    await server.waitForEcho(pane, marker);

    const term = new TerminalClient(session, tmuxKey);
    await term.opened;
    // What the pane shows arrives in output frames.
    await term.waitForLine(new RegExp(`^${marker}$`));

    const typed = `typed-${randomBytes(3).toString('hex')}`;
    term.type(`${typed}\r`);
    await server.waitForEcho(pane, typed);
    await term.waitForLine(new RegExp(`^${typed}$`));

    term.send({ type: FrameType.Kill });
    // Frames are handled in order: input sent after the kill still reaches the pane.
    const after = `after-kill-${randomBytes(3).toString('hex')}`;
    term.type(`${after}\r`);
    await server.waitForEcho(pane, after);
    expect(await server.paneExists(pane)).toBe(true);
    expect((await outsideList(session)).some((v) => v.key === tmuxKey)).toBe(true);
    term.close();
    // Closing the browser's terminal detaches its tmux client only.
    await term.closed;
    expect(await server.paneExists(pane)).toBe(true);
    expect(await server.foreground(pane)).toBe('claude');
  });

  it('(c) types a reply into the pane over REST where its claude runs; refuses one with no tmux, an unknown key and a bad one', async () => {
    const posted = `posted-${randomBytes(3).toString('hex')}`;
    const res = await api(session, 'POST', `/api/outside/${tmuxKey}/input`, { text: posted });
    expect(res.status).toBe(204);
    await server.waitForEcho(pane, posted);

    // Text without Enter is typed but not sent: claude has not read it yet.
    const pending = `pending-${randomBytes(3).toString('hex')}`;
    expect((await api(session, 'POST', `/api/outside/${tmuxKey}/input`, { text: pending, enter: false })).status).toBe(204);
    await eventually(async () => (await server.count(pane, pending)) === 1, 15_000, 'the unsent line');
    expect((await api(session, 'POST', `/api/outside/${tmuxKey}/input`, { text: '' })).status).toBe(204);
    await server.waitForEcho(pane, pending);
    // A line ending in ';' arrives as it was typed.
    const semi = `semi-${randomBytes(3).toString('hex')};`;
    expect((await api(session, 'POST', `/api/outside/${tmuxKey}/input`, { text: semi })).status).toBe(204);
    await server.waitForEcho(pane, semi);

    const none = await api<{ error: string }>(session, 'POST', `/api/outside/${plainKey}/input`, { text: 'echo hi' });
    expect(none.status).toBe(409);
    expect(none.body.error).toMatch(/outside tmux/);
    expect((await api(session, 'POST', `/api/outside/${outsideSessionKey(newSessionId())}/input`, { text: 'echo hi' })).status).toBe(404);
    for (const bad of ['tb-notoutside', 'outside-bad%21key', `outside-${'a'.repeat(65)}`, 'outside-']) {
      expect((await api(session, 'POST', `/api/outside/${bad}/input`, { text: 'echo hi' })).status, bad).toBe(400);
    }
    // A body that is not input is refused too.
    expect((await api(session, 'POST', `/api/outside/${tmuxKey}/input`, { text: 'x', extra: 1 })).status).toBe(400);

    const term = new TerminalClient(session, plainKey);
    await term.opened;
    const closed = await term.closed;
    expect(closed.code).toBe(CloseCode.TabNotFound);
    expect(closed.reason).toMatch(/^no terminal/);

    const unknown = new TerminalClient(session, outsideSessionKey(newSessionId()));
    await unknown.opened;
    expect((await unknown.closed).code).toBe(CloseCode.TabNotFound);
  });

  it('(c) types nothing into a pane where only a shell runs: 409, and the session is forgotten', async () => {
    const shellPane = await server.newPane();
    const id = newSessionId();
    const key = outsideSessionKey(id);
    const refuse = async (text: string) => {
      const res = await api<{ error: string }>(session, 'POST', `/api/outside/${key}/input`, { text });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('its claude is no longer running in that pane: nothing was typed');
      // Refused before anything was sent to the pane.
      expect((await server.capture(shellPane)).some((l) => l.includes(text))).toBe(false);
      expect((await outsideList(session)).some((v) => v.key === key)).toBe(false);
    };

    // Its claude exited and left the shell it ran from; the session was not heard of since.
    await report(agent, 'SessionStart', startPayload(id, '/home/someone/shell-only'), server.env(shellPane));
    await waitListed(session, key);
    await status.waitState(key, 'idle');
    const removals = () => status.messages.filter((m) => m.type === 'status:removed' && m.tabId === key).length;
    await refuse(`rm-rf-${randomBytes(3).toString('hex')}`);
    await eventually(() => removals() === 1, 15_000, 'status:removed');

    // A claude started there and reporting again takes input; once it exits, the shell is left alone again.
    await server.startClaude(shellPane, claudeBin);
    await report(agent, 'SessionStart', startPayload(id, '/home/someone/shell-only'), server.env(shellPane));
    await waitListed(session, key);
    const reply = `reply-${randomBytes(3).toString('hex')}`;
    expect((await api(session, 'POST', `/api/outside/${key}/input`, { text: reply })).status).toBe(204);
    await server.waitForEcho(shellPane, reply);
    await server.run('send-keys', '-t', shellPane, 'C-d');
    await eventually(async () => (await server.foreground(shellPane)) === 'sh', 15_000, 'claude to exit');
    await refuse(`after-exit-${randomBytes(3).toString('hex')}`);
    await eventually(() => removals() === 2, 15_000, 'status:removed again');
    expect(await server.paneExists(shellPane)).toBe(true);
  });

  it('(c) for a session whose claude process is known, types while that process runs, and nothing once it is gone', async () => {
    // The claude runs under the pane's shell, which stays when it ends.
    const claudePane = await server.newPane(`'${claudeBin}'; exec /bin/sh`);
    const pid = await server.claudePid(claudePane);
    const id = newSessionId();
    const key = outsideSessionKey(id);
    const sessionsDir = join(agent.home, '.claude', 'sessions');
    mkdirSync(sessionsDir, { recursive: true });
    // As Claude writes it on Linux: with the process's start time.
    const procStart = procStartTime(pid);
    writeFileSync(join(sessionsDir, `${pid}.json`), JSON.stringify({ pid, sessionId: id, cwd: '/home/someone/known', ...(procStart ? { procStart } : {}) }));
    await report(agent, 'SessionStart', startPayload(id, '/home/someone/known'), server.env(claudePane));
    await waitListed(session, key, (v) => v.pid === pid);

    const typed = `known-${randomBytes(3).toString('hex')}`;
    expect((await api(session, 'POST', `/api/outside/${key}/input`, { text: typed })).status).toBe(204);
    await server.waitForEcho(claudePane, typed);

    // Killed: its session file stays behind, naming a pid that is no longer running.
    process.kill(pid, 'SIGKILL');
    await eventually(async () => (await server.foreground(claudePane)) === 'sh', 15_000, 'the shell back in the foreground');
    // Gone, not only signalled: the shell has reaped it (a signal is delivered, not waited for).
    await eventually(
      () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      15_000,
      'the killed claude to be gone',
    );
    const late = `late-${randomBytes(3).toString('hex')}`;
    const res = await api<{ error: string }>(session, 'POST', `/api/outside/${key}/input`, { text: late });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/no longer running/);
    expect((await server.capture(claudePane)).some((l) => l.includes(late))).toBe(false);
    expect((await outsideList(session)).some((v) => v.key === key)).toBe(false);
  });

  it('(d) forgets a session at its SessionEnd: gone from /api/outside, the sync snapshot and the status', async () => {
    const ending = { id: newSessionId(), cwd: '/home/someone/ending' };
    const key = outsideSessionKey(ending.id);
    const endPane = await server.newPane();
    await report(agent, 'SessionStart', startPayload(ending.id, ending.cwd), server.env(endPane));
    await waitListed(session, key);
    await status.waitState(key, 'idle');
    await eventually(() => lastSnapshot(sync)?.outside.some((v) => v.key === key), 15_000, 'the session in a sync snapshot');

    await report(agent, 'SessionEnd', { ...startPayload(ending.id, ending.cwd), hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }, server.env(endPane));
    await waitGone(session, key);
    await eventually(() => status.messages.some((m) => m.type === 'status:removed' && m.tabId === key), 15_000, 'status:removed');
    await eventually(() => {
      const s = lastSnapshot(sync);
      return s && !s.outside.some((v) => v.key === key) && s.outside.some((v) => v.key === tmuxKey);
    }, 15_000, 'a sync snapshot without it');
    // What it sent before its end can arrive after it (its statusLine runs in the background, a
    // hook races the end): taken and dropped, it brings back neither the session nor a status.
    expect(await postHook(agent, 'statusline', { session_id: ending.id, cwd: ending.cwd, model: { display_name: 'Late' } }, server.env(endPane))).toBe(204);
    await report(agent, 'Stop', { ...capturedHook('Stop'), session_id: ending.id, cwd: ending.cwd }, server.env(endPane));
    expect((await outsideList(session)).some((v) => v.key === key)).toBe(false);
    // Its pane is the person's: the end of claude does not end it.
    expect(await server.paneExists(endPane)).toBe(true);
    // The others stay.
    expect((await outsideList(session)).map((v) => v.key)).toEqual(expect.arrayContaining([tmuxKey, plainKey]));
    const late = new StatusClient(session);
    await late.opened;
    await late.waitState(tmuxKey, 'idle');
    expect(late.latest(key)).toBeUndefined();
    expect(late.messages.some((m) => m.type === 'status:update' && m.tabId === key)).toBe(false);
    // Resumed (`claude --resume`), the same session starts again: its SessionStart brings it back.
    await report(agent, 'SessionStart', { ...startPayload(ending.id, ending.cwd), source: 'resume' }, server.env(endPane));
    await waitListed(session, key);
    await late.waitState(key, 'idle');
    await report(agent, 'SessionEnd', { ...startPayload(ending.id, ending.cwd), hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }, server.env(endPane));
    await waitGone(session, key);
    late.ws.close();
  });

  it('(f) lists a session whose $TMUX names no socket, and refuses its terminal and input without harm', async () => {
    const file = join(agent.root, 'not-a-socket');
    writeFileSync(file, 'plain file\n');
    const odd = { id: newSessionId(), cwd: '/home/someone/odd' };
    const key = outsideSessionKey(odd.id);
    await report(agent, 'SessionStart', startPayload(odd.id, odd.cwd), { TMUX: `${file},4242,0`, TMUX_PANE: '%0' });
    expect(await waitListed(session, key)).toMatchObject({ terminal: 'tmux', pane: '%0', cwd: odd.cwd });

    // No claude can be found in a pane that cannot be reached: nothing is typed, and the session goes.
    const input = await api<{ error: string }>(session, 'POST', `/api/outside/${key}/input`, { text: 'echo nope' });
    expect(input.status).toBe(409);
    expect(input.body.error).toMatch(/no longer running/);
    await waitGone(session, key);
    const after = new TerminalClient(session, key);
    await after.opened;
    expect((await after.closed).code).toBe(CloseCode.TabNotFound);
    // Heard of again, its terminal is refused by the same look, before anything is spawned.
    await report(agent, 'SessionStart', startPayload(odd.id, odd.cwd), { TMUX: `${file},4242,0`, TMUX_PANE: '%0' });
    await waitListed(session, key);
    const term = new TerminalClient(session, key);
    await term.opened;
    expect(await term.closed).toEqual({ code: CloseCode.TabNotFound, reason: 'its claude is no longer running in that pane' });
    await waitGone(session, key);

    // A server that is gone (its socket removed) is refused the same way.
    const goneId = newSessionId();
    const goneKey = outsideSessionKey(goneId);
    await report(agent, 'SessionStart', startPayload(goneId, '/x'), { TMUX: `${join(agent.root, 'no-such-socket')},4242,0`, TMUX_PANE: '%1' });
    await waitListed(session, goneKey);
    const goneTerm = new TerminalClient(session, goneKey);
    await goneTerm.opened;
    expect(await goneTerm.closed).toMatchObject({ code: CloseCode.TabNotFound, reason: expect.stringMatching(/no longer running/) });
    await waitGone(session, goneKey);
    expect((await api(session, 'POST', `/api/outside/${goneKey}/input`, { text: 'x' })).status).toBe(404);

    // The agent is up and the real pane still answers.
    expect((await api(session, 'GET', '/api/session')).status).toBe(200);
    expect(agent.process.exitCode).toBeNull();
    const alive = `alive-${randomBytes(3).toString('hex')}`;
    expect((await api(session, 'POST', `/api/outside/${tmuxKey}/input`, { text: alive })).status).toBe(204);
    await server.waitForEcho(pane, alive);
  });
});

describe('checking that each outside claude still runs', () => {
  let agent: AgentHandle;
  let session: Session;
  let server: OutsideServer;

  beforeAll(async () => {
    agent = await startAgent({ env: { POCKETMUX_OUTSIDE_POLL_MS: '200' } });
    session = await claim(agent);
    ({ server } = await outsideServer(agent.home));
  });

  it('(e) forgets a session whose pane is gone, and one whose claude process (from its session file) exits', async () => {
    const status = new StatusClient(session);
    await status.opened;

    // A "claude" the test controls: a sleeping process, named in Claude's session file.
    const claude = spawn('sleep', ['600'], { stdio: 'ignore' });
    children.push(claude);
    await once(claude, 'spawn');
    const pid = claude.pid as number;
    const withPid = { id: newSessionId(), cwd: '/home/someone/with-pid' };
    const pidKey = outsideSessionKey(withPid.id);
    // The agent's Claude config dir: ~/.claude of the test HOME (no CLAUDE_CONFIG_DIR is set).
    const sessionsDir = join(agent.home, '.claude', 'sessions');
    mkdirSync(sessionsDir, { recursive: true });
    writeFileSync(join(sessionsDir, `${pid}.json`), JSON.stringify({ pid, sessionId: withPid.id, cwd: withPid.cwd, startedAt: Date.now() }));

    const inPane = { id: newSessionId(), cwd: '/home/someone/in-pane' };
    const paneKey = outsideSessionKey(inPane.id);
    const doomed = await server.newPane();
    // With its pid known, the pane is not what decides: this one's pane goes away too.
    const pidPane = await server.newPane();

    await report(agent, 'SessionStart', startPayload(inPane.id, inPane.cwd), server.env(doomed));
    await report(agent, 'SessionStart', startPayload(withPid.id, withPid.cwd), server.env(pidPane));
    await waitListed(session, paneKey);
    expect(await waitListed(session, pidKey, (v) => v.pid === pid)).toMatchObject({ pid, terminal: 'tmux' });
    await status.waitState(paneKey, 'idle');

    await server.run('kill-pane', '-t', doomed);
    await server.run('kill-pane', '-t', pidPane);
    await waitGone(session, paneKey);
    await eventually(() => status.messages.some((m) => m.type === 'status:removed' && m.tabId === paneKey), 15_000, 'status:removed for the pane');
    // Sweeps ran (one forgot the pane's session); the one whose claude runs is still there.
    expect((await outsideList(session)).find((v) => v.key === pidKey)).toMatchObject({ pid });

    claude.kill('SIGKILL');
    await once(claude, 'exit');
    await waitGone(session, pidKey);
    await eventually(() => status.messages.some((m) => m.type === 'status:removed' && m.tabId === pidKey), 15_000, 'status:removed for the process');
    status.ws.close();
  });

  it('(e) forgets one whose $TMUX names no socket: no process known, and its pane cannot be there', async () => {
    const status = new StatusClient(session);
    await status.opened;
    const file = join(agent.root, 'not-a-socket');
    writeFileSync(file, '');
    const key = outsideSessionKey(newSessionId());
    await report(agent, 'SessionStart', startPayload(key.slice('outside-'.length), '/x'), { TMUX: `${file},1,0`, TMUX_PANE: '%3' });
    // It may be gone before a listing sees it: its status, given by the hook, is what is removed.
    await eventually(() => status.messages.some((m) => m.type === 'status:removed' && m.tabId === key), 15_000, 'status:removed');
    await waitGone(session, key);
    expect(agent.process.exitCode).toBeNull();
    status.ws.close();
  });

  it('(e) keeps one with neither a process nor a pane until its SessionEnd', async () => {
    const id = newSessionId();
    const key = outsideSessionKey(id);
    const status = new StatusClient(session);
    await status.opened;
    // Another session, reported after it, is forgotten by a sweep: by then this one went through one.
    const other = { id: newSessionId() };
    const otherPane = await server.newPane();
    await report(agent, 'SessionStart', startPayload(id, '/plain'), {});
    await report(agent, 'SessionStart', startPayload(other.id, '/other'), server.env(otherPane));
    await waitListed(session, outsideSessionKey(other.id));
    await server.run('kill-pane', '-t', otherPane);
    await waitGone(session, outsideSessionKey(other.id));
    expect((await outsideList(session)).some((v) => v.key === key)).toBe(true);
    await report(agent, 'SessionEnd', { ...startPayload(id, '/plain'), hook_event_name: 'SessionEnd', reason: 'other' }, {});
    await waitGone(session, key);
    await eventually(() => status.messages.some((m) => m.type === 'status:removed' && m.tabId === key), 15_000, 'status:removed');
    status.ws.close();
  });
});

describe('an agent restart', () => {
  it('(g) keeps the outside sessions, their status, and the terminal to the pane', async () => {
    const env = newTestEnvironment();
    const first = await startAgent({ reuse: env, env: { POCKETMUX_OUTSIDE_POLL_MS: '3600000' } });
    const firstSession = await claim(first);
    const { server, pane } = await outsideServer(env.home);
    // Its claude runs in the pane: a terminal opens only there.
    await server.startClaude(pane, claudeStandIn(env.root));
    const inTmux = newSessionId();
    const plain = newSessionId();
    await report(first, 'SessionStart', startPayload(inTmux, '/restart/tmux'), server.env(pane));
    await report(first, 'SessionStart', startPayload(plain, '/restart/plain'), {});
    // A session id as long as a hook may send (256): its entry must not make the file unreadable.
    const long = `long-${'a'.repeat(251)}`;
    await report(first, 'SessionStart', startPayload(long, '/restart/long'), {});
    const before = [
      await waitListed(firstSession, outsideSessionKey(inTmux)),
      await waitListed(firstSession, outsideSessionKey(plain)),
      await waitListed(firstSession, outsideSessionKey(long)),
    ];
    expect(await first.stop()).toBe(0);

    const second = await startAgent({ reuse: env, env: { POCKETMUX_OUTSIDE_POLL_MS: '3600000' } });
    const session = await claim(second);
    const after = await outsideList(session);
    for (const view of before) expect(after.find((v) => v.key === view.key)).toEqual(view);

    const status = new StatusClient(session);
    await status.opened;
    await status.waitState(outsideSessionKey(inTmux), 'idle');
    await status.waitState(outsideSessionKey(plain), 'idle');
    status.ws.close();

    // The pane is reached through its own server as before.
    const marker = `restarted-${randomBytes(3).toString('hex')}`;
    const term = new TerminalClient(session, outsideSessionKey(inTmux));
    await term.opened;
    // Typed once its tmux client is attached and drawing (the line that started claude is on
    // the screen), as a person types into what they see: typed at once, under load, the keys
    // could come before the attach and not reach the pane.
    await term.waitForLine(/\S/, 15_000);
    term.type(`${marker}\r`);
    // A tmux client just attached to a server that was busy may not read the first keys; as a
    // person would, the line is typed again if the pane shows none of it after a while.
    const echoed = await server.waitForEcho(pane, marker, 5_000).then(
      () => true,
      async () => (await server.count(pane, marker)) > 0,
    );
    if (!echoed) term.type(`${marker}\r`);
    await server.waitForEcho(pane, marker);
    term.close();

    // Hooks keep coming to the new agent (its script was rewritten at start): SessionEnd forgets.
    await report(second, 'SessionEnd', { ...startPayload(plain, '/restart/plain'), hook_event_name: 'SessionEnd', reason: 'other' }, {});
    await waitGone(session, outsideSessionKey(plain));
    await second.stop();
    const third = await startAgent({ reuse: env, env: { POCKETMUX_OUTSIDE_POLL_MS: '3600000' } });
    const thirdSession = await claim(third);
    expect((await outsideList(thirdSession)).map((v) => v.key)).toEqual([outsideSessionKey(inTmux), outsideSessionKey(long)]);
  });
});

describe('whether the user hooks are installed', () => {
  it('(h) says none, then installed with the settings under the test HOME after `pocketmux hooks install`', async () => {
    const agent = await startAgent();
    const session = await claim(agent);
    const settingsPath = join(agent.home, '.claude', 'settings.json');
    const none = await api<UserHooksView>(session, 'GET', '/api/hooks');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ state: 'none', settingsPath, detail: null });
    // The agent's data dir is not the default one: the command names it.
    expect(none.body.installCommand).toMatch(/ hooks install --data-dir \S+$/);
    expect(none.body.installCommand.endsWith(`hooks install --data-dir ${shellWord(agent.dataDir)}`)).toBe(true);

    const install = await runCli(['hooks', 'install', '--data-dir', agent.dataDir], agentEnv(agent));
    expect(install.code, install.stderr).toBe(0);
    const installed = await api<UserHooksView>(session, 'GET', '/api/hooks');
    expect(installed.body).toMatchObject({ state: 'installed', settingsPath, detail: null });
    expect(installed.body.settingsPath.startsWith(`${agent.home}/`)).toBe(true);

    // What was installed is what reports a session from outside: Claude's SessionStart command, run as Claude runs it.
    type Settings = { hooks: Record<string, { hooks: { type: string; command?: string }[] }[]> };
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Settings;
    const command = settings.hooks.SessionStart?.flatMap((m) => m.hooks).find((h) => h.command?.includes(agent.dataDir))?.command;
    expect(command).toMatch(/--global SessionStart$/);
    const id = newSessionId();
    const child = spawn('/bin/sh', ['-c', command as string], { env: { PATH: process.env.PATH }, stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.end(`${JSON.stringify(startPayload(id, '/from/user/settings'))}\n`);
    expect((await once(child, 'exit'))[0]).toBe(0);
    expect(await waitListed(session, outsideSessionKey(id))).toMatchObject({ cwd: '/from/user/settings', terminal: 'none' });

    const uninstall = await runCli(['hooks', 'uninstall', '--data-dir', agent.dataDir], agentEnv(agent));
    expect(uninstall.code, uninstall.stderr).toBe(0);
    expect((await api<UserHooksView>(session, 'GET', '/api/hooks')).body.state).toBe('none');
  });
});
