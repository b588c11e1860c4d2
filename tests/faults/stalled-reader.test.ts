/**
 * A client that stops reading a terminal that floods (a phone on a dead link), beside another
 * client of the same tab that keeps reading: the agent's memory stays within what its flow
 * control allows (1 MB queued per socket before the pty is paused), and the other client keeps
 * receiving the flood. Memory is the agent process's RSS from /proc.
 */
import type { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { TerminalsResponse } from '../../protocol/api.js';
import { HIGH_WATER_BYTES, MAX_INPUT_BACKLOG_BYTES } from '../../agent/terminal/terminal-bridge.js';
import { cleanupAgents, startAgent } from '../support/agent.js';
import { procMemory } from '../support/channels.js';
import { api, claim, createTab, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';

afterAll(cleanupAgents);

/**
 * What the reading client must receive after the other stalled: more than its own socket may
 * have had queued then, so it is output made after the stall, not a backlog draining. tmux
 * sends a client beside a blocked one repaints rather than every byte, so this is a measure of
 * "still moving", not of speed.
 */
const FLOOD_WHILE_STALLED = 2 * HIGH_WATER_BYTES;
/**
 * The agent's growth allowed meanwhile: each of the two sockets may queue up to the high-water
 * mark (plus a read in flight) and take an input backlog, and V8 keeps some garbage before it
 * collects; 48 MiB over that is generous, and far below the flood, which must not be held.
 */
const GROWTH_BOUND = 2 * (2 * HIGH_WATER_BYTES + MAX_INPUT_BACKLOG_BYTES) + 48 * 1024 * 1024;

describe('a client that stops reading a flooding terminal', () => {
  it('costs the agent bounded memory, and another client of the tab keeps receiving', async () => {
    const agent = await startAgent();
    const session = await claim(agent);
    const tab = await createTab(session);
    const reader = new TerminalClient(session, tab.id, { cols: 200, rows: 50 });
    const stalled = new TerminalClient(session, tab.id, { cols: 200, rows: 50 });
    for (const t of [reader, stalled]) {
      t.keepOutput = false;
      t.trackScreen = false;
    }
    await Promise.all([reader.opened, stalled.opened]);
    const stats = async () => (await api<TerminalsResponse>(session, 'GET', '/api/terminals')).body.terminals.filter((t) => t.tabId === tab.id);
    await eventually(async () => (await stats()).length === 2, 10_000, 'both terminals listed');
    const baseline = procMemory(agent.pid, 'VmRSS');

    // An endless flood of full-width lines; one client stops reading at once.
    (stalled.ws as unknown as { _socket: Socket })._socket.pause();
    reader.type(`yes "$(printf '%0198d' 7)"\r`);
    await eventually(async () => (await stats()).some((t) => t.paused), 60_000, 'the stalled client’s pty to be paused');

    let peak = procMemory(agent.pid, 'VmRSS');
    const start = reader.bytesReceived;
    await eventually(
      () => {
        peak = Math.max(peak, procMemory(agent.pid, 'VmRSS'));
        return reader.bytesReceived - start > FLOOD_WHILE_STALLED;
      },
      120_000,
      'the reading client to receive the flood',
    );
    const [held] = (await stats()).filter((t) => t.paused);
    // The stalled socket's queue stayed near the mark; the agent never held the flood.
    expect(held?.peakBuffered).toBeLessThan(2 * HIGH_WATER_BYTES);
    expect(peak - baseline).toBeLessThan(GROWTH_BOUND);
    expect(agent.process.exitCode).toBeNull();

    reader.type('\x03');
    reader.close();
    stalled.close();
  }, 180_000);
});
