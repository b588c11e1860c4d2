/**
 * A flood of half-open connections against an agent, on loopback: connections that send
 * `GET / HTTP/1.1` and a Host line and nothing more, each one the agent closes opened again,
 * from child processes (`half-open-flooder.mjs`), and what it costs the agent (its open
 * descriptors and RSS, read from /proc). Also a hook posted on a connection of its own, as
 * hook.sh's curl does, which is what must still get through.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { AgentHandle } from './agent.js';

const FLOODER = join(import.meta.dirname, 'half-open-flooder.mjs');

export interface FloodOptions {
  port: number;
  /** Connections kept open or opening, in all. */
  connections: number;
  /** Per child process: under a process's descriptor limit, with room to spare. */
  perProcess?: number;
  /** Each child stops after this long, whatever else. */
  seconds: number;
  /** Connects each child makes at most. */
  maxAttemptsPerProcess?: number;
}

export interface FloodCounts {
  /** Connected and not closed yet. */
  open: number;
  /** Connects under way. */
  opening: number;
  /** Connects that succeeded. */
  opened: number;
  /** Connections that were open and that the agent closed. */
  cutByAgent: number;
  /** Connects that failed (reset, refused, no free port). */
  failed: number;
  attempts: number;
}

const ZERO: FloodCounts = { open: 0, opening: 0, opened: 0, cutByAgent: 0, failed: 0, attempts: 0 };

export class HalfOpenFlood {
  private readonly latest: FloodCounts[];
  private readonly exited: Promise<unknown>[];

  private constructor(private readonly children: ChildProcess[]) {
    this.latest = children.map(() => ({ ...ZERO }));
    this.exited = children.map((child) => (child.exitCode === null ? once(child, 'exit') : Promise.resolve()));
    children.forEach((child, i) => {
      let rest = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        const last = lines.filter(Boolean).pop();
        if (last) this.latest[i] = JSON.parse(last) as FloodCounts;
      });
    });
  }

  static start(options: FloodOptions): HalfOpenFlood {
    const perProcess = options.perProcess ?? 10_000;
    const children: ChildProcess[] = [];
    for (let left = options.connections; left > 0; left -= perProcess) {
      const args = { port: options.port, connections: Math.min(perProcess, left), seconds: options.seconds, maxAttempts: options.maxAttemptsPerProcess ?? 20 * perProcess };
      children.push(spawn(process.execPath, [FLOODER, JSON.stringify(args)], { stdio: ['pipe', 'pipe', 'inherit'] }));
    }
    return new HalfOpenFlood(children);
  }

  /** The children's last counts, added up. */
  counts(): FloodCounts {
    const sum = { ...ZERO };
    for (const c of this.latest) for (const k of Object.keys(sum) as (keyof FloodCounts)[]) sum[k] += c[k];
    return sum;
  }

  /** Whether every child is still flooding (none has run out of time and exited). */
  running(): boolean {
    return this.children.every((child) => child.exitCode === null && child.signalCode === null);
  }

  /** Opens no more connections, and keeps those still open as they are. */
  hold(): void {
    for (const child of this.children) child.stdin?.write('hold\n');
  }

  /** Closes every connection and waits for the children to exit. */
  async stop(): Promise<void> {
    for (const child of this.children) child.stdin?.end();
    await Promise.all(this.exited);
  }
}

/** The agent's open file descriptors. */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The most descriptors the agent may open (its soft limit). */
export function fdLimit(pid: number): number {
  const m = /^Max open files\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

export function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

/** Samples an agent's descriptors and RSS until stopped, keeping the highest of each. */
export class ResourceSampler {
  peakFds: number;
  peakRssKiB: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 100,
  ) {
    this.peakFds = openFds(pid);
    this.peakRssKiB = rssKiB(pid);
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  sample(): void {
    try {
      this.peakFds = Math.max(this.peakFds, openFds(this.pid));
      this.peakRssKiB = Math.max(this.peakRssKiB, rssKiB(this.pid));
    } catch {
      // The agent is gone: what it reached before is what counts.
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

/** What a hook post came to: the agent's status, or the socket error that ended it. */
export type HookOutcome = { status: number } | { error: string };

/**
 * Posts a hook as hook.sh's curl does: a connection of its own (no keep-alive), the token in
 * its header, the payload as the body.
 */
export function postHookOnNewConnection(agent: Pick<AgentHandle, 'port' | 'dataDir'>, event: string, payload: unknown, timeoutMs = 60_000): Promise<HookOutcome> {
  const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
  const body = JSON.stringify(payload);
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: agent.port,
        path: `/hooks/${event}`,
        method: 'POST',
        agent: false,
        timeout: timeoutMs,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-pocketmux-token': token },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(body);
  });
}
