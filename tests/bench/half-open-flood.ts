/**
 * A flood of half-open connections (`tests/support/half-open-flood.ts`) against a fresh
 * agent: how long a hook and a paired device's request take while it is on, beside the same
 * requests with no flood, and what it costs the agent in descriptors and memory.
 */
import { randomUUID } from 'node:crypto';
import type { WorkspacesResponse } from '../../protocol/api.js';
import { cleanupAgents, startAgent } from '../support/agent.js';
import { api, claim, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { fdLimit, HalfOpenFlood, type HookOutcome, openFds, postHookOnNewConnection, ResourceSampler, rssKiB } from '../support/half-open-flood.js';
import { quantile } from '../support/stats.js';
import { capturedHook } from '../support/status.js';

export const HALF_OPEN_BENCH = {
  /** Connections the flood keeps open or opening. */
  CONNECTIONS: 20_000,
  /** Hooks, and as many device requests, timed with the flood and without it. */
  REQUESTS: 200,
  /** Not timed: the first requests of an agent do work of their own. */
  WARMUP: 20,
  /** The flood ends by itself after this long, whatever the bench is doing. */
  FLOOD_SECONDS: 600,
} as const;

export interface RequestTimes {
  hookP50: number;
  hookP99: number;
  deviceP50: number;
  deviceP99: number;
  /** Requests that got no answer, or another one than expected. */
  hookFailures: number;
  deviceFailures: number;
}

export interface HalfOpenBenchResult {
  connections: number;
  requests: number;
  quiet: RequestTimes;
  flood: RequestTimes;
  /** Connections the flood opened in all, and how many of them the agent cut. */
  floodOpened: number;
  floodCutByAgent: number;
  /** How long it took the flood to open its connections once. */
  floodRampSeconds: number;
  fdLimit: number;
  fds: { before: number; peak: number; after: number };
  rssKiB: { before: number; peak: number; after: number };
}

/** Hook and device request in turn, `count` of each, each timed from send to answer. */
async function timeRequests(agent: Parameters<typeof postHookOnNewConnection>[0], session: Session, count: number): Promise<RequestTimes> {
  const hooks: number[] = [];
  const devices: number[] = [];
  let hookFailures = 0;
  let deviceFailures = 0;
  for (let i = 0; i < count; i++) {
    let start = performance.now();
    const hook: HookOutcome = await postHookOnNewConnection(agent, 'UserPromptSubmit', { ...capturedHook('UserPromptSubmit'), session_id: randomUUID() });
    if ('status' in hook && hook.status === 204) hooks.push(performance.now() - start);
    else hookFailures++;
    start = performance.now();
    const device = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces').catch(() => ({ status: 0 }));
    if (device.status === 200) devices.push(performance.now() - start);
    else deviceFailures++;
  }
  return {
    hookP50: quantile(hooks, 0.5),
    hookP99: quantile(hooks, 0.99),
    deviceP50: quantile(devices, 0.5),
    deviceP99: quantile(devices, 0.99),
    hookFailures,
    deviceFailures,
  };
}

export async function halfOpenFloodBench(progress: (line: string) => void = () => undefined): Promise<HalfOpenBenchResult> {
  const agent = await startAgent();
  let flood: HalfOpenFlood | null = null;
  let sampler: ResourceSampler | null = null;
  try {
    const session = await claim(agent, 'bench');
    await timeRequests(agent, session, HALF_OPEN_BENCH.WARMUP);
    progress(`half-open flood: ${HALF_OPEN_BENCH.REQUESTS} hooks and device requests, no flood`);
    const quiet = await timeRequests(agent, session, HALF_OPEN_BENCH.REQUESTS);

    const before = { fds: openFds(agent.pid), rss: rssKiB(agent.pid) };
    sampler = new ResourceSampler(agent.pid);
    const limit = fdLimit(agent.pid);
    const floodStart = performance.now();
    flood = HalfOpenFlood.start({ port: agent.port, connections: HALF_OPEN_BENCH.CONNECTIONS, seconds: HALF_OPEN_BENCH.FLOOD_SECONDS });
    const running = flood;
    const report = setInterval(() => {
      const c = running.counts();
      progress(`half-open flood: ${c.opened.toLocaleString('en')} opened, ${c.open.toLocaleString('en')} open, ${c.cutByAgent.toLocaleString('en')} cut by the agent; agent ${openFds(agent.pid)} fds, ${(rssKiB(agent.pid) / 1024).toFixed(0)} MiB`);
    }, 5_000);
    try {
      await eventually(
        () => running.counts().opened >= HALF_OPEN_BENCH.CONNECTIONS || openFds(agent.pid) >= limit - 16,
        300_000,
        `the flood to open ${HALF_OPEN_BENCH.CONNECTIONS} connections`,
      );
      const floodRampSeconds = (performance.now() - floodStart) / 1000;
      progress(`half-open flood: ${HALF_OPEN_BENCH.REQUESTS} hooks and device requests during the flood`);
      const during = await timeRequests(agent, session, HALF_OPEN_BENCH.REQUESTS);
      if (!running.running()) throw new Error('the flood ended before the requests did: raise FLOOD_SECONDS');
      const counts = running.counts();

      progress('half-open flood: over; waiting for the agent to cut what it left open');
      running.hold();
      await eventually(() => openFds(agent.pid) <= before.fds + 8, 60_000, 'the agent to cut the connections left half-open').catch(() => undefined);
      sampler.stop();
      await running.stop();
      flood = null;
      return {
        connections: HALF_OPEN_BENCH.CONNECTIONS,
        requests: HALF_OPEN_BENCH.REQUESTS,
        quiet,
        flood: during,
        floodOpened: counts.opened,
        floodCutByAgent: counts.cutByAgent,
        floodRampSeconds,
        fdLimit: limit,
        fds: { before: before.fds, peak: sampler.peakFds, after: openFds(agent.pid) },
        rssKiB: { before: before.rss, peak: sampler.peakRssKiB, after: rssKiB(agent.pid) },
      };
    } finally {
      clearInterval(report);
    }
  } finally {
    sampler?.stop();
    await flood?.stop();
    await agent.stop();
    await cleanupAgents();
  }
}

/** The section of docs/benchmarks.md, under its own heading. */
export function halfOpenSection(r: HalfOpenBenchResult, runLine: string): string {
  const f1 = (x: number) => x.toFixed(1);
  const f2 = (x: number) => x.toFixed(2);
  const n = (x: number) => x.toLocaleString('en');
  const mib = (k: number) => (k / 1024).toFixed(0);
  const failures = (t: RequestTimes) => (t.hookFailures + t.deviceFailures === 0 ? 'none failed' : `**${t.hookFailures} hooks and ${t.deviceFailures} device requests failed**`);
  return `## A flood of half-open connections

${runLine}

| measure | no flood | during the flood |
| --- | --- | --- |
| hook (\`POST /hooks/UserPromptSubmit\` with the token, a new connection each, as hook.sh's curl), p50 / p99 of ${r.requests} | ${f2(r.quiet.hookP50)} / ${f2(r.quiet.hookP99)} ms | **${f2(r.flood.hookP50)} / ${f2(r.flood.hookP99)} ms** |
| paired device (\`GET /api/workspaces\`, keep-alive), p50 / p99 of ${r.requests} | ${f2(r.quiet.deviceP50)} / ${f2(r.quiet.deviceP99)} ms | **${f2(r.flood.deviceP50)} / ${f2(r.flood.deviceP99)} ms** |
| requests without an answer | ${failures(r.quiet)} | ${failures(r.flood)} |

| agent during the flood | before | peak | after |
| --- | --- | --- | --- |
| open file descriptors (limit ${n(r.fdLimit)}) | ${n(r.fds.before)} | **${n(r.fds.peak)}** | ${n(r.fds.after)} |
| RSS | ${mib(r.rssKiB.before)} MiB | **${mib(r.rssKiB.peak)} MiB** | ${mib(r.rssKiB.after)} MiB |

How it is measured: a fresh agent; two child processes keep ${n(r.connections)} TCP connections
to it open or opening from 127.0.0.1 (the address hooks come from), each sending
\`GET / HTTP/1.1\` and a Host line and nothing more, and open a new one for each the agent closes
(\`tests/support/half-open-flood.ts\`). The flood opened its ${n(r.connections)} in ${f1(r.floodRampSeconds)} s
and ${n(r.floodOpened)} by the end of the timed requests, ${n(r.floodCutByAgent)} of them cut by the agent.
Then the hooks and the device's requests are timed in turn, one at a time, as they were before
the flood (after ${HALF_OPEN_BENCH.WARMUP} untimed of each). The hook runs from \`UserPromptSubmit\` for a
session the agent does not manage; the device is paired, its requests go through
\`tests/support/client.ts\`. Descriptors are \`/proc/<pid>/fd\`, RSS is VmRSS, sampled every 100 ms
from before the flood until it ends; *after* is once the flood has stopped opening
connections and the agent has cut those it left open (10 s without headers).
The flood's connects wait in the kernel's queue of the listening socket when it is full (511
by Node's default) and are sent again a second later, which is what a hook's p99 shows.
Before the caps on unproven connections the agent held every one of these connections, at
about 6 KB each, until it had no descriptor left, and then reset every new connection.`;
}
