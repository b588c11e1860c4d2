/**
 * The terminal's output flow control, as the README states it: "when a client falls behind by
 * 1 MB the agent pauses the pty and resumes under 256 KB". A real client stops reading a
 * flooding terminal, then reads it back a little at a time; what the agent did is read from
 * `GET /api/terminals` (whether the pty is held, how often it was, the most ever queued, the
 * bytes sent, and what was queued when it let go) after each step. The kernel's socket buffers
 * lie between what the client reads and what the agent has queued, and they grow and shrink as
 * they like, so how much the client must read before the agent lets go is not fixed; that it
 * lets go under the low mark is read from the agent's own count.
 */
import type { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { TerminalConnectionView, TerminalsResponse } from '../../protocol/api.js';
import { HIGH_WATER_BYTES, LOW_WATER_BYTES } from '../../agent/terminal/terminal-bridge.js';
import { cleanupAgents, startAgent } from '../support/agent.js';
import { api, claim, createTab, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';

afterAll(cleanupAgents);

const KB = 1024;

describe('terminal output flow control', () => {
  it('holds the pty once 1 MB is queued for a client that stopped reading, reads nothing while held, and lets go as the client reads', async () => {
    expect(HIGH_WATER_BYTES).toBe(1024 * KB);
    expect(LOW_WATER_BYTES).toBe(256 * KB);
    const agent = await startAgent();
    const session = await claim(agent);
    const tab = await createTab(session);
    const term = new TerminalClient(session, tab.id, { cols: 250, rows: 80 });
    term.keepOutput = false;
    term.trackScreen = false;
    await term.opened;
    const stats = async (): Promise<TerminalConnectionView> => {
      const found = (await api<TerminalsResponse>(session, 'GET', '/api/terminals')).body.terminals.find((t) => t.tabId === tab.id);
      if (!found) throw new Error('terminal not listed');
      return found;
    };

    // What the client has taken off the wire, frames and all.
    const socket = (term.ws as unknown as { _socket: Socket })._socket;
    let read = 0;
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length;
    });

    term.type(`yes "$(printf '%0248d' 7)"\r`);
    await eventually(() => term.bytesReceived > 64 * KB, 20_000, 'the flood to start');
    socket.pause();
    const held = await eventually(async () => {
      const s = await stats();
      return s.paused ? s : null;
    }, 60_000, 'the agent to hold the pty');
    // Held at the high mark, not before it: more than 1 MB was queued when it stopped
    // reading, and no more than one pty read past it.
    expect(held.pauses).toBe(1);
    expect(held.peakBuffered).toBeGreaterThan(HIGH_WATER_BYTES);
    expect(held.peakBuffered).toBeLessThan(HIGH_WATER_BYTES + 256 * KB);

    // Read back a little at a time; after each step the agent says whether it still holds.
    const step = 64 * KB;
    const readStep = () =>
      new Promise<void>((resolve) => {
        const target = read + step;
        const onData = () => {
          if (read < target) return;
          socket.pause();
          socket.off('data', onData);
          resolve();
        };
        socket.on('data', onData);
        socket.resume();
      });
    const start = read;
    let resumedAfter = -1;
    // Up to 16 MB read back: the agent's megabyte and whatever the kernel holds besides.
    for (let i = 0; i < 256 && resumedAfter < 0; i++) {
      await readStep();
      // The agent's write callbacks run as its socket drains, maybe after this look: a look
      // that still finds it holding is true at that moment, and the resume shows a step later.
      const s = await stats();
      // Held all along means held: not a byte more read from the pty. (Let go and held again
      // between two looks, it counts one more pause.)
      if (s.paused && s.pauses === held.pauses) expect(s.bytesOut).toBe(held.bytesOut);
      else resumedAfter = read - start;
    }
    expect(resumedAfter).toBeGreaterThan(0);
    // Let go under the low mark: what was still queued for the client at that moment, as the
    // agent saw it (gathered output leaves in frames of 128 KB, each a moment to look again).
    const resumed = await stats();
    expect(resumed.queuedAtResume).toBeGreaterThanOrEqual(0);
    expect(resumed.queuedAtResume).toBeLessThan(LOW_WATER_BYTES);

    socket.resume();
    await eventually(async () => (await stats()).bytesOut > held.bytesOut, 20_000, 'output to flow again');
    // The terminal is still usable: the flood stops and a command's output comes through.
    term.keepOutput = true;
    term.type('\x03');
    term.type('echo after-$((40+2))\r');
    await term.waitFor('after-42', 30_000);
    term.close();
  }, 180_000);
});
