/**
 * The terminal path side by side, in one run, rounds interleaved: node-pty reading `tmux
 * attach` in this process (the floor), pocketmux's `/api/terminal`, and wetty (the peer web
 * terminal: node-pty → socket.io) running the same `tmux attach` on the same tmux server.
 * Each path reads its own session of that server, in a pane of the same size.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { io, type Socket as IoSocket } from 'socket.io-client';
import { type AgentHandle, REPO_ROOT, tmux } from '../support/agent.js';
import type { LoopDelaySecond, TerminalsResponse } from '../../protocol/api.js';
import { api, createTab, type Session, TerminalClient } from '../support/client.js';
import { median, quantile } from '../support/stats.js';

/** BYTES is the file's size, its lines of 76 base64 characters and their line feeds. */
export const CAT = { COLS: 200, ROWS: 50, BYTES: 20_000_000, ROUNDS: 31 } as const;
export const FLOOD = { COLS: 250, ROWS: 80, LINES: 220_000, ROUNDS: 11 } as const;
const FLOOD_WIDTH = FLOOD.COLS - 2;
export const FLOOD_BYTES = FLOOD.LINES * (FLOOD_WIDTH + 1);
export const ECHO = { KEYS: 1000, BATCHES: 10, WARMUP: 10, GAP_MS: 2 } as const;

export type PathName = 'direct' | 'pocketmux' | 'wetty';
export const PATHS: readonly PathName[] = ['direct', 'pocketmux', 'wetty'];

export interface PathFigures {
  /** Random-file cat: MB/s from the median round time, and each round's time. */
  catMBps: number;
  catMs: number[];
  floodMBps: number;
  floodMs: number[];
  /** Bytes the path delivered per second of flood, median: tmux skips frames for a slow reader. */
  floodWireMBps: number;
  echoP50: number;
  echoP99: number;
}

export interface TerminalBenchResult {
  /** The size of the random file `cat` prints. */
  catBytes: number;
  paths: Record<PathName, PathFigures>;
  /** Medians of per-round ratios (time of the other path ÷ pocketmux's): above 1, pocketmux is faster. */
  ratios: {
    catVsDirect: number;
    catVsWetty: number;
    floodVsDirect: number;
    floodVsWetty: number;
    /** pocketmux's echo p99 and p50 ÷ wetty's: below 1, pocketmux echoes faster. */
    echoP99VsWetty: number;
    echoP50VsWetty: number;
    /** pocketmux's echo p99 ÷ the direct reading's: what the agent and the socket add. */
    echoP99VsDirect: number;
  };
  catPairs: { direct: number[]; wetty: number[] };
  floodPairs: { direct: number[]; wetty: number[] };
  /**
   * The agent's event-loop delay in the seconds that overlap pocketmux's echo batches (the
   * agent must run with `POCKETMUX_MEASURE_LOOP_DELAY=1`; null otherwise): the worst second's
   * p99 and the longest delay, in ms.
   */
  agentLoop: AgentLoopFigures | null;
}

export interface AgentLoopFigures {
  seconds: number;
  worstP99: number;
  max: number;
  /** Seconds in which the loop was late by more than 5 ms at least once. */
  secondsOver5Ms: number;
  /** V8's longest collection in those seconds (ms), and how many full ones ran. */
  gcLongest: number;
  majorGcs: number;
}

/** A span of the bench's clock (epoch ms), during which pocketmux's path was measured. */
export interface Span {
  from: number;
  to: number;
}

/** The recorded seconds that overlap any of `spans`, summed up; null when none do. */
export function loopDuring(seconds: readonly LoopDelaySecond[], spans: readonly Span[]): AgentLoopFigures | null {
  // A second is recorded at its end: it covers (at − 1000, at].
  const overlapping = seconds.filter((s) => spans.some((span) => s.at > span.from && s.at - 1_000 < span.to));
  if (overlapping.length === 0) return null;
  return {
    seconds: overlapping.length,
    worstP99: Math.max(...overlapping.map((s) => s.p99)),
    max: Math.max(...overlapping.map((s) => s.max)),
    secondsOver5Ms: overlapping.filter((s) => s.max > 5).length,
    gcLongest: Math.max(...overlapping.map((s) => s.gcLongest)),
    majorGcs: overlapping.reduce((sum, s) => sum + s.majorGcs, 0),
  };
}

interface Sink {
  write(text: string): void;
  onData(fn: (chunk: Uint8Array | string) => void): void;
  close(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function viaAgent(session: Session, tabId: string, cols: number, rows: number): Promise<Sink> {
  const term = new TerminalClient(session, tabId, { cols, rows });
  term.keepOutput = false;
  term.trackScreen = false;
  await term.opened;
  const listeners: ((c: Uint8Array) => void)[] = [];
  term.onOutput = (c) => {
    for (const l of listeners) l(c);
  };
  return { write: (text) => term.type(text), onData: (fn) => listeners.push(fn), close: () => term.close() };
}

function attachArgs(agent: AgentHandle, session: string): string[] {
  return ['-u', '-L', agent.tmuxSocket, '-f', join(agent.dataDir, 'tmux.conf'), 'attach-session', '-t', `=${session}`];
}

/** The floor: node-pty reading `tmux attach` in this process. */
function direct(agent: AgentHandle, session: string, cols: number, rows: number): Sink {
  const p = pty.spawn('tmux', attachArgs(agent, session), {
    name: 'xterm-256color',
    cols,
    rows,
    env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string>,
    encoding: null,
  });
  const listeners: ((c: Uint8Array) => void)[] = [];
  p.onData((c) => {
    for (const l of listeners) l(c as unknown as Uint8Array);
  });
  return { write: (text) => p.write(text), onData: (fn) => listeners.push(fn), close: () => p.kill() };
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  return port;
}

/**
 * A wetty server, started as its CLI starts it, whose command is a `tmux attach` (wetty runs
 * the command itself, not ssh, when it runs as root for a local host; otherwise it would ssh
 * to this machine, which the bench does not set up).
 */
export class WettyServer {
  private constructor(
    readonly proc: ChildProcess,
    readonly port: number,
  ) {}

  static async start(agent: AgentHandle, session: string): Promise<WettyServer> {
    if (process.getuid?.() !== 0) throw new Error('wetty runs a local command only as root: run the bench as root, or with --no-wetty');
    const port = await freePort();
    const command = ['tmux', ...attachArgs(agent, session)].join(' ');
    const proc = spawn(process.execPath, [join(REPO_ROOT, 'node_modules', 'wetty', 'build', 'main.js'), '--host', '127.0.0.1', '--port', String(port), '--command', command, '--log-level', 'warn'], {
      env: { ...process.env, TERM: 'xterm-256color' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    proc.stderr?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${port}/`).then(
        () => true,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`wetty did not start:\n${out}`);
      await sleep(100);
    }
    return new WettyServer(proc, port);
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill('SIGTERM');
    await once(this.proc, 'exit');
  }
}

/**
 * A wetty client as its page is, without the page: socket.io over WebSocket, the terminal's
 * size sent on connect, and the flow-control acknowledgements wetty waits for (a `commit`
 * every 256 KiB taken, as its client does after xterm has written them).
 */
async function viaWetty(server: WettyServer, cols: number, rows: number): Promise<Sink> {
  const socket: IoSocket = io(`http://127.0.0.1:${server.port}`, { path: '/socket.io', transports: ['websocket'], reconnection: false });
  const listeners: ((c: string) => void)[] = [];
  const ACK = 262_144;
  let unacked = 0;
  const loggedIn = new Promise<void>((resolve, reject) => {
    socket.once('login', () => resolve());
    socket.once('connect_error', reject);
  });
  socket.on('data', (data: string) => {
    for (const l of listeners) l(data);
    unacked += data.length;
    while (unacked >= ACK) {
      unacked -= ACK;
      socket.emit('commit', ACK);
    }
  });
  await loggedIn;
  socket.emit('resize', { cols, rows });
  return {
    write: (text) => socket.emit('input', text),
    onData: (fn) => listeners.push(fn as (c: Uint8Array | string) => void),
    close: () => socket.close(),
  };
}

const chunkLength = (chunk: Uint8Array | string) => (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length);
const chunkText = (chunk: Uint8Array | string) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1'));

/** Waits until `marker` shows up in the stream; counts the bytes seen meanwhile. */
function watchFor(sink: Sink, marker: string): { done: Promise<void>; bytes: () => number } {
  let tail = '';
  let bytes = 0;
  let resolve: () => void = () => undefined;
  const done = new Promise<void>((r) => {
    resolve = r;
  });
  let armed = true;
  sink.onData((chunk) => {
    if (!armed) return;
    bytes += chunkLength(chunk);
    tail = (tail + chunkText(chunk)).slice(-marker.length - 64);
    if (tail.includes(marker)) {
      armed = false;
      resolve();
    }
  });
  return { done, bytes: () => bytes };
}

/** Runs `command` in the pane; time from sending it until the marker it prints after reaches the client. */
async function timed(sink: Sink, command: string, tag: string, round: number): Promise<{ ms: number; bytes: number }> {
  const n = 1000 + round;
  const watch = watchFor(sink, `${tag}-END-${n}`);
  const start = performance.now();
  // The marker is computed in the shell, so the typed command line cannot match it.
  sink.write(`${command}; echo ${tag}-END-$((${n - 1}+1))\r`);
  await watch.done;
  const ms = performance.now() - start;
  // Let tmux settle its last repaint before the next round.
  await sleep(300);
  return { ms, bytes: watch.bytes() };
}

/** Resolves the pending echo wait of each sink on its next output. */
const echoWaiters = new WeakMap<Sink, { waiting: (() => void) | null }>();

async function keystrokes(sink: Sink, count: number): Promise<number[]> {
  let slot = echoWaiters.get(sink);
  if (!slot) {
    const created: { waiting: (() => void) | null } = { waiting: null };
    sink.onData(() => {
      const w = created.waiting;
      created.waiting = null;
      w?.();
    });
    echoWaiters.set(sink, created);
    slot = created;
  }
  const samples: number[] = [];
  for (let i = 0; i < count + ECHO.WARMUP; i++) {
    // Type a character, then erase it: the line never grows and every key has an echo.
    const key = i % 2 === 0 ? 'a' : '\x7f';
    const current = slot;
    const echoed = new Promise<void>((r) => {
      current.waiting = r;
    });
    const t0 = performance.now();
    sink.write(key);
    await echoed;
    const dt = performance.now() - t0;
    if (i >= ECHO.WARMUP) samples.push(dt);
    await sleep(ECHO.GAP_MS);
  }
  return samples;
}

/** One tab per path, each with a terminal of the given size on it. */
async function openPaths(agent: AgentHandle, session: Session, cols: number, rows: number, setup?: string): Promise<{ sinks: Record<PathName, Sink>; wetty: WettyServer }> {
  const tabs = { direct: await createTab(session), pocketmux: await createTab(session), wetty: await createTab(session) };
  const name = (p: PathName) => `pm_${tabs[p].workspaceId}_${tabs[p].id}`;
  if (setup) for (const p of PATHS) await tmux(agent.tmuxSocket, 'send-keys', '-t', `=${name(p)}:`, setup, 'Enter');
  const wetty = await WettyServer.start(agent, name('wetty'));
  const sinks = {
    direct: direct(agent, name('direct'), cols, rows),
    pocketmux: await viaAgent(session, tabs.pocketmux.id, cols, rows),
    wetty: await viaWetty(wetty, cols, rows),
  };
  await sleep(800);
  return { sinks, wetty };
}

/** Round r runs the paths in an order that turns, so no path always follows the same one. */
const orderOf = (round: number): PathName[] => PATHS.map((_, i) => PATHS[(i + round) % PATHS.length] as PathName);

export async function terminalBench(agent: AgentHandle, session: Session, progress: (line: string) => void, catFile: string): Promise<TerminalBenchResult> {
  // Random bytes as base64, in 76-character lines as base64(1) writes them.
  const text = `${randomBytes(Math.ceil((CAT.BYTES * 3) / 4))
    .toString('base64')
    .slice(0, Math.floor((CAT.BYTES * 76) / 77))
    .replace(/(.{76})/g, '$1\n')}\n`;
  writeFileSync(catFile, text);
  const catBytes = text.length;

  const runs = {
    cat: { direct: [], pocketmux: [], wetty: [] } as Record<PathName, { ms: number; bytes: number }[]>,
    flood: { direct: [], pocketmux: [], wetty: [] } as Record<PathName, { ms: number; bytes: number }[]>,
    echo: { direct: [], pocketmux: [], wetty: [] } as Record<PathName, number[]>,
  };

  progress(`terminal: random-file cat, ${(catBytes / 1e6).toFixed(1)} MB in a ${CAT.COLS}×${CAT.ROWS} pane, ${CAT.ROUNDS} rounds × 3 paths`);
  {
    const { sinks, wetty } = await openPaths(agent, session, CAT.COLS, CAT.ROWS);
    for (let r = 0; r < CAT.ROUNDS; r++) {
      const line: string[] = [];
      for (const p of orderOf(r)) {
        const run = await timed(sinks[p], `cat '${catFile}'`, 'CAT', r * 3 + PATHS.indexOf(p));
        runs.cat[p].push(run);
        line.push(`${p} ${(catBytes / 1e6 / (run.ms / 1000)).toFixed(1)} MB/s`);
      }
      progress(`  cat round ${r + 1}/${CAT.ROUNDS}: ${line.join(', ')}`);
    }
    for (const s of Object.values(sinks)) s.close();
    await wetty.stop();
  }

  progress(`terminal: flood of full-width lines, ${(FLOOD_BYTES / 1e6).toFixed(1)} MB in a ${FLOOD.COLS}×${FLOOD.ROWS} pane, ${FLOOD.ROUNDS} rounds × 3 paths`);
  {
    const { sinks, wetty } = await openPaths(agent, session, FLOOD.COLS, FLOOD.ROWS);
    for (let r = 0; r < FLOOD.ROUNDS; r++) {
      const line: string[] = [];
      for (const p of orderOf(r)) {
        const run = await timed(sinks[p], `seq -f '%0${FLOOD_WIDTH}.0f' 1 ${FLOOD.LINES}`, 'FLOOD', r * 3 + PATHS.indexOf(p));
        runs.flood[p].push(run);
        line.push(`${p} ${(FLOOD_BYTES / 1e6 / (run.ms / 1000)).toFixed(1)} MB/s`);
      }
      progress(`  flood round ${r + 1}/${FLOOD.ROUNDS}: ${line.join(', ')}`);
    }
    for (const s of Object.values(sinks)) s.close();
    await wetty.stop();
  }

  progress(`terminal: keystroke echo, ${ECHO.KEYS} keys per path in ${ECHO.BATCHES} batches`);
  const echoSpans: Span[] = [];
  {
    const { sinks, wetty } = await openPaths(agent, session, 80, 24, 'exec cat');
    const batch = ECHO.KEYS / ECHO.BATCHES;
    for (let b = 0; b < ECHO.BATCHES; b++) {
      for (const p of orderOf(b)) {
        const from = Date.now();
        runs.echo[p].push(...(await keystrokes(sinks[p], batch)));
        if (p === 'pocketmux') echoSpans.push({ from, to: Date.now() });
      }
      progress(`  echo batch ${b + 1}/${ECHO.BATCHES}: p50 so far ${PATHS.map((p) => `${p} ${quantile(runs.echo[p], 0.5).toFixed(2)} ms`).join(', ')}`);
    }
    for (const s of Object.values(sinks)) s.close();
    await wetty.stop();
  }
  // The second the last batch ended in is recorded when it ends.
  await sleep(1_100);
  const { loopDelay } = (await api<TerminalsResponse>(session, 'GET', '/api/terminals')).body;
  const agentLoop = loopDelay ? loopDuring(loopDelay, echoSpans) : null;
  if (agentLoop) progress(`  agent loop delay during pocketmux's echo batches: worst second's p99 ${agentLoop.worstP99.toFixed(2)} ms, max ${agentLoop.max.toFixed(2)} ms; longest collection ${agentLoop.gcLongest.toFixed(2)} ms, ${agentLoop.majorGcs} full`);

  const figures = (p: PathName): PathFigures => ({
    catMBps: catBytes / 1e6 / (median(runs.cat[p].map((x) => x.ms)) / 1000),
    catMs: runs.cat[p].map((x) => x.ms),
    floodMBps: FLOOD_BYTES / 1e6 / (median(runs.flood[p].map((x) => x.ms)) / 1000),
    floodMs: runs.flood[p].map((x) => x.ms),
    floodWireMBps: median(runs.flood[p].map((x) => x.bytes / 1e6 / (x.ms / 1000))),
    echoP50: quantile(runs.echo[p], 0.5),
    echoP99: quantile(runs.echo[p], 0.99),
  });
  const paths = { direct: figures('direct'), pocketmux: figures('pocketmux'), wetty: figures('wetty') };
  // Each round's ratio cancels slow drifts of the machine; the median of those is the figure.
  const pairs = (w: 'cat' | 'flood', other: PathName) => runs[w].pocketmux.map((o, i) => (runs[w][other][i] as { ms: number }).ms / o.ms);
  const catPairs = { direct: pairs('cat', 'direct'), wetty: pairs('cat', 'wetty') };
  const floodPairs = { direct: pairs('flood', 'direct'), wetty: pairs('flood', 'wetty') };
  return {
    catBytes,
    paths,
    ratios: {
      catVsDirect: median(catPairs.direct),
      catVsWetty: median(catPairs.wetty),
      floodVsDirect: median(floodPairs.direct),
      floodVsWetty: median(floodPairs.wetty),
      echoP99VsWetty: paths.pocketmux.echoP99 / paths.wetty.echoP99,
      echoP50VsWetty: paths.pocketmux.echoP50 / paths.wetty.echoP50,
      echoP99VsDirect: paths.pocketmux.echoP99 / paths.direct.echoP99,
    },
    catPairs,
    floodPairs,
    agentLoop,
  };
}
