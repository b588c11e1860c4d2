/**
 * Input into tabs costs tmux runs: every run of the tmux binary is counted through a
 * wrapper that logs and then executes the real tmux, so the test sees what the agent does.
 */
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameType } from '../../protocol/terminal-frame.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { notYetReadByAgent, procMemory } from '../support/channels.js';
import { api, claim, createTab, recordTypedText, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';

afterAll(cleanupAgents);

const FRAMES = 2_000;

describe('input into a tab', () => {
  let agent: AgentHandle;
  let session: Session;
  let runs: string;
  let slow: string;
  let tabId: string;
  let file: string;

  beforeAll(async () => {
    const env = newTestEnvironment();
    runs = join(env.root, 'tmux-runs.log');
    const wrapper = join(env.root, 'tmux-counting');
    slow = join(env.root, 'slow-tmux');
    // While the file \`slow\` exists, each copy-mode exit takes half a second, as tmux might on
    // a loaded machine: input then waits in the agent, whose holding it is what is measured.
    writeFileSync(
      wrapper,
      `#!/bin/sh\necho "$*" >> '${runs}'\ncase "$*" in *if-shell*) [ -e '${slow}' ] && sleep 0.5;; esac\nexec tmux "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    agent = await startAgent({ reuse: env, env: { POCKETMUX_TMUX_BIN: wrapper } });
    session = await claim(agent);
    tabId = (await createTab(session)).id;
    file = join(agent.root, 'typed.txt');
    await recordTypedText(session, tabId, file);
  });

  /** tmux runs that typed input (title polls and pane listings run beside them). */
  const countRuns = () =>
    readFileSync(runs, 'utf8')
      .split('\n')
      .filter((line) => / (if-shell|send-keys) /.test(line)).length;

  it(`types ${FRAMES} input-bar frames in order with a handful of tmux runs, not one each`, async () => {
    const term = new TerminalClient(session, tabId);
    await term.opened;
    const before = countRuns();
    const expected: string[] = [];
    for (let i = 0; i < FRAMES; i++) {
      expected.push(`line-${i}`);
      term.send({ type: FrameType.WebStdin, text: `line-${i}\r` });
    }
    const lines = await eventually(() => {
      const got = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      return got.length >= FRAMES ? got : null;
    }, 30_000, `${FRAMES} lines to arrive`);
    expect(lines).toEqual(expected);
    const used = countRuns() - before;
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThan(FRAMES / 20);
    term.close();
  });

  it('stops reading a terminal that sends input faster than tmux takes it, so memory stays bounded', async () => {
    // A tab of its own: what the agent read before it stopped reading is typed there.
    const floodTab = (await createTab(session)).id;
    const flooder = new TerminalClient(session, floodTab);
    await flooder.opened;
    const socket = (flooder.ws as unknown as { _socket: Socket })._socket;
    writeFileSync(slow, '');
    const before = procMemory(agent.pid, 'VmRSS');
    // Text-bar frames wait for tmux; empty stdin frames between them cost nothing but the frame.
    for (let i = 0; i < 200_000; i++) {
      flooder.send({ type: FrameType.WebStdin, text: 'x' });
      flooder.send({ type: FrameType.Stdin, data: new Uint8Array(0) });
    }
    await eventually(() => flooder.ws.bufferedAmount === 0 && socket.writableLength === 0, 60_000, 'the flood to leave the client');
    // The agent stopped reading: the rest of the flood waits in the kernel (on either end of
    // the connection, as the window allows), not in the agent.
    await eventually(() => notYetReadByAgent(agent.port, socket.localPort as number) > 256 * 1024, 10_000, 'the agent to stop reading');
    const peak = procMemory(agent.pid, 'VmHWM');
    expect(peak - before).toBeLessThan(48 * 1024 * 1024);
    expect(flooder.ws.readyState).toBe(flooder.ws.OPEN);
    rmSync(slow);
    flooder.ws.terminate();
    // The agent reads on once the backlog is typed, and then sees the client gone.
    await eventually(
      async () => (await api<{ terminals: unknown[] }>(session, 'GET', '/api/terminals')).body.terminals.length === 0,
      30_000,
      'the flooding terminal to be closed',
    );
    // Other tabs took input all along.
    expect((await api(session, 'POST', `/api/tabs/${tabId}/input`, { text: 'after-flood' })).status).toBe(204);
    await eventually(() => readFileSync(file, 'utf8').includes('after-flood'), 15_000, 'input after the flood');
  });

  it('holds a paste typed faster than tmux takes it, stops reading that socket, and types it all in order', async () => {
    const pasteTab = await createTab(session);
    const out = join(agent.root, 'paste.txt');
    await recordTypedText(session, pasteTab.id, out);
    const term = new TerminalClient(session, pasteTab.id);
    await term.opened;
    const socket = (term.ws as unknown as { _socket: Socket })._socket;
    // 1.1 MB of keys in 64 KB frames, at once. tmux's server reads the pty and handles each
    // key, at about 1 MB/s here; the kernel takes some kilobytes and the rest waits in the agent.
    const lines = Array.from({ length: 100_000 }, (_, i) => `raw-${String(i).padStart(6, '0')}`);
    const bytes = Buffer.from(lines.map((l) => `${l}\r`).join(''));
    for (let at = 0; at < bytes.length; at += 64 * 1024) term.send({ type: FrameType.Stdin, data: bytes.subarray(at, at + 64 * 1024) });
    // Past 256 KB held for the pty the agent stops reading: the rest waits in the kernel.
    await eventually(() => notYetReadByAgent(agent.port, socket.localPort as number) > 256 * 1024, 20_000, 'the agent to stop reading');
    expect(term.ws.readyState).toBe(term.ws.OPEN);
    const typed = await eventually(() => {
      const got = readFileSync(out, 'utf8').split('\n').filter(Boolean);
      return got.length >= lines.length ? got : null;
    }, 60_000, 'every line typed');
    expect(typed).toEqual(lines);
    expect(term.ws.readyState).toBe(term.ws.OPEN);
    term.close();
  });

  it('types a REST request with one tmux run, and parallel requests in order with fewer', async () => {
    const runsWith = (text: string) =>
      readFileSync(runs, 'utf8')
        .split('\n')
        .filter((line) => line.includes(text)).length;
    expect((await api(session, 'POST', `/api/tabs/${tabId}/input`, { text: 'single-request' })).status).toBe(204);
    expect(runsWith('single-request')).toBe(1);

    const texts = Array.from({ length: 50 }, (_, i) => `parallel-${i}`);
    const results = await Promise.all(texts.map((text) => api(session, 'POST', `/api/tabs/${tabId}/input`, { text })));
    expect(results.every((r) => r.status === 204)).toBe(true);
    const lines = await eventually(() => {
      const got = readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('parallel-'));
      return got.length >= texts.length ? got : null;
    }, 15_000, 'the parallel lines');
    // HTTP requests may arrive in any order; each line is whole and none is lost.
    expect([...lines].sort()).toEqual([...texts].sort());
    expect(runsWith('parallel-')).toBeLessThan(texts.length);
  });
});
