import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '../../protocol/close-codes.js';
import { FrameType, MAX_TERMINAL_CELLS, MAX_TERMINAL_COLUMNS, MAX_TERMINAL_DIMENSION, MAX_TERMINAL_ROWS } from '../../protocol/terminal-frame.js';
import { type AgentHandle, cleanupAgents, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';

let agent: AgentHandle;
let session: Session;

beforeAll(async () => {
  agent = await startAgent();
  session = await claim(agent);
});
afterAll(cleanupAgents);

describe('terminal over WebSocket', () => {
  it('runs a command typed into a new tab and returns its output', async () => {
    const tab = await createTab(session);
    expect(await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}')).toContain(tab.id);
    const term = new TerminalClient(session, tab.id);
    await term.opened;
    term.type('echo hello\r');
    // The command line reads "… echo hello"; the output is a row holding "hello" alone.
    await term.waitForLine(/^hello$/);
    term.close();
  });

  it('carries resizes through to the tmux window', async () => {
    const tab = await createTab(session);
    const term = new TerminalClient(session, tab.id, { cols: 100, rows: 30 });
    await term.opened;
    const width = () => tmux(agent.tmuxSocket, 'display', '-p', '-t', `=pm_${tab.workspaceId}_${tab.id}:`, '#{window_width}x#{window_height}');
    await eventually(async () => (await width()).trim() === '100x30', 5000, 'initial size 100x30');
    term.resize(132, 43);
    await eventually(async () => (await width()).trim() === '132x43', 5000, 'resized to 132x43');
    term.close();
  });

  it('gives tmux no terminal past the cell bound: the upgrade\'s size and a resize are cut to fit, the socket kept', async () => {
    const tab = await createTab(session);
    const size = () => tmux(agent.tmuxSocket, 'display', '-p', '-t', `=pm_${tab.workspaceId}_${tab.id}:`, '#{window_width}x#{window_height}');
    // Asked for at the upgrade: the widest allowed, and as many rows as the cells leave.
    const term = new TerminalClient(session, tab.id, { asked: { cols: MAX_TERMINAL_DIMENSION, rows: MAX_TERMINAL_DIMENSION } });
    await term.opened;
    const widest = `${MAX_TERMINAL_COLUMNS}x${MAX_TERMINAL_CELLS / MAX_TERMINAL_COLUMNS}`;
    await eventually(async () => (await size()).trim() === widest, 5000, `the first size cut to ${widest}`);

    term.send({ type: FrameType.Resize, cols: 132, rows: 43 });
    await eventually(async () => (await size()).trim() === '132x43', 5000, 'resized to 132x43');
    // The documented side limit on both sides: 100 million cells asked, a million given.
    term.send({ type: FrameType.Resize, cols: MAX_TERMINAL_DIMENSION, rows: MAX_TERMINAL_DIMENSION });
    await eventually(async () => (await size()).trim() === widest, 5000, `resized to ${widest}`);
    // Tall and narrow: the rows are cut to their own bound.
    term.send({ type: FrameType.Resize, cols: 100, rows: MAX_TERMINAL_DIMENSION });
    await eventually(async () => (await size()).trim() === `100x${MAX_TERMINAL_ROWS}`, 5000, `resized to 100x${MAX_TERMINAL_ROWS}`);

    // Still open and working at a sane size.
    term.send({ type: FrameType.Resize, cols: 80, rows: 24 });
    await eventually(async () => (await size()).trim() === '80x24', 5000, 'back to 80x24');
    term.type('echo fits-$((40+2))\r');
    await term.waitForLine(/^fits-42$/);
    expect(term.ws.readyState).toBe(term.ws.OPEN);
    term.close();
  });

  it('sends heartbeats and closes a socket that stays silent past the timeout', async () => {
    // Its own agent, with the 30 s / 90 s heartbeat shortened to 200 ms / 1 s.
    const quick = await startAgent({ env: { POCKETMUX_HEARTBEAT_INTERVAL_MS: '200', POCKETMUX_HEARTBEAT_TIMEOUT_MS: '1000' } });
    const quickSession = await claim(quick);
    const tab = await createTab(quickSession);
    const silent = new TerminalClient(quickSession, tab.id);
    const chatty = new TerminalClient(quickSession, tab.id);
    await Promise.all([silent.opened, chatty.opened]);
    const beat = setInterval(() => chatty.send({ type: FrameType.Heartbeat }), 200);
    try {
      const closed = await silent.closed;
      expect(closed.code).toBe(CloseCode.HeartbeatTimeout);
      expect(silent.frames.some((f) => f.type === FrameType.Heartbeat)).toBe(true);
      // The one that kept talking outlived the timeout and still works.
      chatty.type('echo still-$((20+22))\r');
      await chatty.waitForLine(/^still-42$/);
    } finally {
      clearInterval(beat);
      chatty.close();
    }
  });

  it('closes a socket paused for input tmux does not take as input not taken, not as a silent client', async () => {
    const quick = await startAgent({ env: { POCKETMUX_HEARTBEAT_INTERVAL_MS: '200', POCKETMUX_HEARTBEAT_TIMEOUT_MS: '1000' } });
    const quickSession = await claim(quick);
    const tab = await createTab(quickSession);
    const term = new TerminalClient(quickSession, tab.id);
    await term.opened;
    // The client beats throughout; read, its beats keep the socket open past the timeout.
    const beat = setInterval(() => term.send({ type: FrameType.Heartbeat }), 200);
    const serverPid = Number((await tmux(quick.tmuxSocket, 'display-message', '-p', '#{pid}')).trim());
    try {
      term.type('echo beating-$((40+2))\r');
      await term.waitForLine(/^beating-42$/);
      // Past the timeout by the agent's own clock: it sends a beat every 200 ms from the same
      // loop that would close a silent socket, so six more of them span more than 1000 ms.
      const beatsFromAgent = () => term.frames.filter((f) => f.type === FrameType.Heartbeat).length;
      const beatsBefore = beatsFromAgent();
      await eventually(() => beatsFromAgent() >= beatsBefore + 6, 10_000, 'six heartbeats from the agent');
      expect(term.ws.readyState).toBe(term.ws.OPEN);
      // tmux's server stopped: it reads no key, the pty fills, the agent holds the rest and
      // stops reading the socket, so the beats go unheard from here on.
      process.kill(serverPid, 'SIGSTOP');
      term.send({ type: FrameType.Stdin, data: Buffer.alloc(600 * 1024, 'a') });
      const closed = await term.closed;
      expect(closed.code).toBe(CloseCode.InputOverflow);
      expect(closed.reason).toBe('input not taken by tmux within the heartbeat timeout');
    } finally {
      clearInterval(beat);
      process.kill(serverPid, 'SIGCONT');
    }
  });

  it('closes only the socket that sends a malformed frame', async () => {
    const tab = await createTab(session);
    const bad = new TerminalClient(session, tab.id);
    const good = new TerminalClient(session, tab.id);
    await Promise.all([bad.opened, good.opened]);
    bad.ws.send(Uint8Array.of(0x02, 0x00)); // a resize frame three bytes short
    const closed = await bad.closed;
    expect(closed.code).toBe(CloseCode.MalformedFrame);
    expect(closed.reason).toMatch(/resize frame needs 4 payload bytes/);

    const textFrame = new TerminalClient(session, tab.id);
    await textFrame.opened;
    textFrame.ws.send('not binary');
    expect((await textFrame.closed).code).toBe(CloseCode.MalformedFrame);

    const spoof = new TerminalClient(session, tab.id);
    await spoof.opened;
    spoof.ws.send(Uint8Array.of(FrameType.Stdout, 0x41));
    expect((await spoof.closed).code).toBe(CloseCode.MalformedFrame);

    good.type('echo alive-$((3*3))\r');
    await good.waitForLine(/^alive-9$/);
    good.close();
  });

  it('delivers web stdin after leaving copy-mode', async () => {
    const tab = await createTab(session);
    const term = new TerminalClient(session, tab.id);
    await term.opened;
    const target = `=pm_${tab.workspaceId}_${tab.id}:`;
    await tmux(agent.tmuxSocket, 'copy-mode', '-t', target);
    expect((await tmux(agent.tmuxSocket, 'display', '-p', '-t', target, '#{pane_in_mode}')).trim()).toBe('1');
    term.send({ type: FrameType.WebStdin, text: 'echo web-$((5+5))\r' });
    await term.waitForLine(/^web-10$/);
    expect((await tmux(agent.tmuxSocket, 'display', '-p', '-t', target, '#{pane_in_mode}')).trim()).toBe('0');
    term.close();
  });

  it('ends the tab when a client sends kill, and when its shell exits', async () => {
    const killed = await createTab(session);
    const term = new TerminalClient(session, killed.id);
    await term.opened;
    term.send({ type: FrameType.Kill });
    expect((await term.closed).code).toBe(CloseCode.SessionEnded);
    expect(await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}')).not.toContain(killed.id);
    const tabs = await api<{ tabs: { id: string }[] }>(session, 'GET', '/api/tabs');
    expect(tabs.body.tabs.map((t) => t.id)).not.toContain(killed.id);

    const exited = await createTab(session);
    const term2 = new TerminalClient(session, exited.id);
    await term2.opened;
    term2.type('exit\r');
    expect((await term2.closed).code).toBe(CloseCode.SessionEnded);
    const after = await api<{ tabs: { id: string }[] }>(session, 'GET', '/api/tabs');
    expect(after.body.tabs.map((t) => t.id)).not.toContain(exited.id);
  });

  it('refuses a terminal for a tab that does not exist', async () => {
    const term = new TerminalClient(session, 'tb-doesnotexist');
    await term.opened;
    expect((await term.closed).code).toBe(CloseCode.TabNotFound);
  });

  it('keeps the agent up whatever a client sends', async () => {
    const tab = await createTab(session);
    for (const frame of [Uint8Array.of(), Uint8Array.of(0x09), Uint8Array.of(0x05, 0xff), Uint8Array.of(0x03, 1)]) {
      const c = new TerminalClient(session, tab.id);
      await c.opened;
      c.ws.send(frame);
      expect((await c.closed).code).toBe(CloseCode.MalformedFrame);
    }
    const res = await api(session, 'GET', '/api/session');
    expect(res.status).toBe(200);
    expect(readFileSync(`/proc/${agent.pid}/status`, 'utf8')).toMatch(/State:\s+[RS]/);
  });
});
