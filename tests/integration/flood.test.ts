import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { TerminalsResponse } from '../../protocol/api.js';
import { HIGH_WATER_BYTES } from '../../agent/terminal/terminal-bridge.js';
import { cleanupAgents, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';

afterAll(cleanupAgents);

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

/**
 * Pulls the line numbers `seq` printed out of the raw terminal stream. tmux re-renders what
 * it shows: it may move the cursor and redraw part of a line, so the stream is cut at every
 * escape sequence and line break, and only runs of exactly one full line's digits count.
 */
class SeqScanner {
  readonly numbers: number[] = [];
  private rest = '';
  private readonly decoder = new TextDecoder();
  private readonly separator = /\x1b\[[0-9;?>]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r|\n/;

  constructor(private readonly width: number) {}

  push(chunk: Uint8Array): void {
    const segments = (this.rest + this.decoder.decode(chunk, { stream: true })).split(this.separator);
    // The last segment may continue in the next chunk.
    this.rest = segments.pop() ?? '';
    for (const segment of segments) {
      if (segment.length === this.width && /^\d+$/.test(segment)) this.numbers.push(Number(segment));
    }
  }
}

describe('output flood', () => {
  // tmux is a terminal, not a pipe: when its reader falls behind it skips intermediate
  // frames and repaints. So "complete" means the client ends on exactly tmux's screen, with
  // every line that reached it in order and the last line present.
  it('carries a 50 MB flood in order to the last line and the exact final screen, memory bounded', async () => {
    const agent = await startAgent();
    const session = await claim(agent);
    const tab = await createTab(session);
    // A wide window: tmux coalesces scrolling on small screens, but passes wide full lines
    // through nearly byte for byte, so the whole flood really crosses the bridge.
    const cols = 250;
    const rows = 80;
    const term = new TerminalClient(session, tab.id, { cols, rows });
    term.keepOutput = false;
    const scanner = new SeqScanner(cols - 2);
    let sawDone = false;
    let tail = '';
    term.onOutput = (data) => {
      scanner.push(data);
      tail = (tail + Buffer.from(data).toString('latin1')).slice(-64);
      if (tail.includes('FLOOD-DONE-42')) sawDone = true;
    };
    await term.opened;
    // The shell's first screen drawn: the attach is done before the baseline is taken.
    await term.waitForLine(/\S/, 20_000);

    const baseline = rssKiB(agent.pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssKiB(agent.pid));
    }, 50);

    // 220,000 numbered lines of 248 digits: 54.8 MB. The marker is computed so the typed
    // command line cannot match it.
    const last = 220_000;
    const width = cols - 2;
    term.type(`seq -f '%0${width}.0f' 1 ${last}; echo FLOOD-DONE-$((40+2))\r`);

    await eventually(() => sawDone, 120_000, 'the flood to end').catch(() => undefined);
    clearInterval(sampler);
    expect(sawDone).toBe(true);

    const nums = scanner.numbers;
    expect(nums.length).toBeGreaterThan(1000);
    // Lines arrived up to the final screen; tmux may paint that screen by rewriting only the
    // cells that changed, so its last lines are checked on the screen itself, below.
    expect(nums.reduce((a, b) => Math.max(a, b), 0)).toBeGreaterThan(last - rows);
    // In order: numbers only move forward, apart from tmux redrawing the visible screen
    // (after the pause it repaints up to one screenful of lines already sent).
    let maxSeen = 0;
    for (const n of nums) {
      expect(n).toBeGreaterThan(maxSeen - rows);
      maxSeen = Math.max(maxSeen, n);
    }
    // What arrived ends with exactly the screen tmux shows.
    const pane = await tmux(agent.tmuxSocket, 'capture-pane', '-p', '-t', `=pm_${tab.workspaceId}_${tab.id}:`);
    const paneRows = pane.replace(/\n$/, '').split('\n').map((r) => r.trimEnd());
    const clientRows = (await term.screen()).slice(0, paneRows.length);
    expect(clientRows).toEqual(paneRows);
    expect(paneRows).toContain(String(last).padStart(width, '0'));
    // The flood was held, and once it went quiet tmux was asked to redraw this client.
    const listed = (await api<TerminalsResponse>(session, 'GET', '/api/terminals')).body.terminals.find((t) => t.tabId === tab.id);
    expect(listed?.holds).toBeGreaterThan(0);
    expect(listed?.redraws).toBeGreaterThan(0);
    console.log(
      `flood: ${(term.bytesReceived / 1e6).toFixed(1)} MB received, ${nums.length} numbered lines seen, ` +
        `agent RSS baseline ${baseline} KiB, peak ${peak} KiB`,
    );
    // Memory stays bounded: the agent never holds the flood.
    expect(peak - baseline).toBeLessThan(48 * 1024);
    term.close();
  }, 180_000);

  it('pauses the pty while a client stops reading, and resumes when it drains', async () => {
    const agent = await startAgent();
    const session = await claim(agent);
    const tab = await createTab(session);
    const term = new TerminalClient(session, tab.id, { cols: 250, rows: 80 });
    term.keepOutput = false;
    await term.opened;
    // The shell's first screen drawn: the attach is done before the baseline is taken.
    await term.waitForLine(/\S/, 20_000);
    const stats = async () => {
      const res = await api<TerminalsResponse>(session, 'GET', '/api/terminals');
      const found = res.body.terminals.find((t) => t.tabId === tab.id);
      if (!found) throw new Error('terminal not listed');
      return found;
    };
    const baseline = rssKiB(agent.pid);

    // An endless flood of full-width lines, and a client that stops reading, like a phone
    // on a dead link: the agent must stop reading the pty rather than queue output.
    term.type(`yes "$(printf '%0248d' 7)"\r`);
    const socket = (term.ws as unknown as { _socket: Socket })._socket;
    await eventually(async () => (await stats()).bytesOut > 0, 10_000, 'the flood to start');
    socket.pause();
    const paused = await eventually(async () => {
      const s = await stats();
      return s.paused ? s : null;
    }, 60_000, 'the agent to pause the pty');
    expect(paused.pauses).toBeGreaterThanOrEqual(1);

    // While paused, nothing more is read from the pty, and the queue stays near 1 MB.
    // yes keeps the pty full, so a pty read would be due at every turn of the agent's loop;
    // each answer below is one more such turn that read nothing.
    for (let turn = 0; turn < 20; turn++) await stats();
    const still = await stats();
    expect(still.paused).toBe(true);
    expect(still.bytesOut).toBe(paused.bytesOut);
    expect(still.peakBuffered).toBeLessThan(HIGH_WATER_BYTES + 256 * 1024);
    expect(rssKiB(agent.pid) - baseline).toBeLessThan(48 * 1024);

    socket.resume();
    await eventually(async () => (await stats()).bytesOut > still.bytesOut, 20_000, 'output to flow again');
    term.type('\x03');
    term.type('echo after-$((40+2))\r');
    await term.waitForLine(/^after-42$/, 30_000);
    term.close();
  }, 180_000);
});
