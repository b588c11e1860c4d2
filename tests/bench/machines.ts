/**
 * Several machines: what the home agent adds between a linked machine's Claude and the phone.
 *
 * Latency: a linked agent (on loopback) holds a PermissionRequest posted as Claude's HTTP hook
 * posts it; in the same round a client paired with that agent and a client paired only with
 * the home agent both wait for `approval-opened`, so each round times the machine itself and
 * the path through the home agent for the same event. The approval is then approved, by turns
 * through the home agent (forwarded) and on the machine itself, timed until the held hook has
 * its answer.
 *
 * Scale: ten linked agents with twenty shell tabs each; the home agent's RSS before it links
 * any, once it follows all ten (every snapshot taken), and after every tab's status changed
 * once on every machine.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import type WebSocket from 'ws';
import type { ApprovalServerMessage } from '../../protocol/approvals.js';
import type { MachineLinkResponse } from '../../protocol/machines.js';
import type { StatusServerMessage } from '../../protocol/status.js';
import type { SyncSnapshot } from '../../protocol/sync.js';
import { type AgentHandle, agentEnv, cleanupAgents, runCli, startAgent } from '../support/agent.js';
import { procMemory } from '../support/channels.js';
import { claim, createTab, deviceHeaders, deviceSocket, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { quantile } from '../support/stats.js';
import { capturedHook, paneEnv } from '../support/status.js';

export const MACHINES_HEADING = 'Several machines';
export const MACHINES_BENCH = { ROUNDS: 400, WARMUP: 20, MACHINES: 10, TABS: 20 } as const;


export interface Times {
  p50: number;
  p99: number;
}

export interface MachinesBenchResult {
  rounds: number;
  /** PermissionRequest posted → approval-opened, on the machine's own client. */
  direct: Times;
  /** The same event → approval-opened on the home agent's client, same rounds. */
  throughHome: Times;
  /** throughHome − direct, per round. */
  added: Times;
  /** A decision → the held hook answered: on the machine itself, and forwarded by the home agent. */
  decideDirect: Times;
  decideThroughHome: Times;
  /** The home agent's RSS (MiB): alone, following 10 × 20, after every status changed once. */
  rssAlone: number;
  rssFollowing: number;
  rssAfterUpdates: number;
  /** Sessions the home agent's status snapshot held at the end (its own and the machines'). */
  sessionsFollowed: number;
}

const times = (values: number[]): Times => ({ p50: quantile(values, 0.5), p99: quantile(values, 0.99) });
const rssMiB = (pid: number) => procMemory(pid, 'VmRSS') / (1024 * 1024);

/** The next approval-opened on a status socket that `test` picks, with the time it arrived. */
class Opened {
  private pending: { test: (id: string) => boolean; resolve: (r: { id: string; at: number }) => void } | null = null;
  readonly opened: Promise<void>;

  constructor(readonly ws: WebSocket) {
    this.opened = new Promise((r) => ws.once('open', () => r()));
    ws.on('message', (data) => {
      const at = performance.now();
      const msg = JSON.parse(String(data)) as StatusServerMessage | ApprovalServerMessage;
      if (msg.type !== 'approval-opened' || !this.pending?.test(msg.approval.id)) return;
      const { resolve } = this.pending;
      this.pending = null;
      resolve({ id: msg.approval.id, at });
    });
  }

  next(test: (id: string) => boolean): Promise<{ id: string; at: number }> {
    return new Promise((resolve) => {
      this.pending = { test, resolve };
    });
  }
}

async function link(home: AgentHandle, other: AgentHandle, name: string): Promise<void> {
  const made = await runCli(['machines', 'link-code', '--json', '--data-dir', other.dataDir], agentEnv(other), 30_000);
  const { code } = JSON.parse(made.stdout) as MachineLinkResponse;
  const added = await runCli(['machines', 'add', code, '--name', name, '--data-dir', home.dataDir], agentEnv(home), 30_000);
  if (added.code !== 0) throw new Error(`machines add: ${added.stderr}`);
}

export async function machinesBench(progress: (line: string) => void): Promise<MachinesBenchResult> {
  try {
    const home = await startAgent();
    const phone = await claim(home, 'phone');
    // Read once its start has settled (its first collections done), as the later readings are.
    await new Promise((r) => setTimeout(r, 5_000));
    const rssAlone = rssMiB(home.pid);

    // Latency: one linked machine, a tab there whose hooks are posted as Claude posts them.
    const machine = await startAgent();
    const own = await claim(machine, 'desk');
    await link(home, machine, 'machine 1');
    const tab = await createTab(own);
    const env = await paneEnv(machine, tab);
    const token = readFileSync(join(machine.dataDir, 'hook-token'), 'utf8').trim();
    const direct = new Opened(deviceSocket(own, '/api/status'));
    const through = new Opened(deviceSocket(phone, '/api/status'));
    await Promise.all([direct.opened, through.opened]);
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 8 });
    const post = (base: string, path: string, headers: Record<string, string>, body: unknown) =>
      new Promise<number>((resolve, reject) => {
        const req = request(new URL(path, base), { method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
          res.resume();
          res.on('end', () => resolve(performance.now()));
        });
        req.on('error', reject);
        req.end(JSON.stringify(body));
      });
    const hookHeaders = { 'x-pocketmux-token': token, 'x-pocketmux-pane': env.TMUX_PANE, 'x-pocketmux-tmux': env.TMUX };
    const permission = capturedHook('PermissionRequest');
    const decide = (session: Session, id: string) => {
      const path = `/api/approvals/${encodeURIComponent(id)}`;
      return post(session.agent.url, path, deviceHeaders(session, 'POST', path), { decision: 'allow' });
    };
    // The machine's key is unknown until the first approval names it.
    const home1 = await eventually(async () => {
      const sync = await new Promise<SyncSnapshot>((resolve) => {
        const ws = deviceSocket(phone, '/api/sync');
        ws.once('message', (d) => {
          resolve(JSON.parse(String(d)) as SyncSnapshot);
          ws.close();
        });
      });
      return sync.machines.find((m) => m.reach === 'ok');
    }, 20_000, 'the machine followed');

    const d: number[] = [];
    const h: number[] = [];
    const added: number[] = [];
    const decidedDirect: number[] = [];
    const decidedHome: number[] = [];
    for (let i = 0; i < MACHINES_BENCH.ROUNDS + MACHINES_BENCH.WARMUP; i++) {
      const atMachine = direct.next(() => true);
      const atHome = through.next((id) => id.startsWith(`${home1.id}~`));
      const t0 = performance.now();
      const answered = post(machine.url, '/hooks/PermissionRequest', hookHeaders, permission);
      const [m, p] = await Promise.all([atMachine, atHome]);
      const a0 = performance.now();
      // By turns: approved on the machine itself, or from the phone through the home agent.
      const viaHome = i % 2 === 1;
      const decision = viaHome ? decide(phone, p.id) : decide(own, m.id);
      const a1 = await answered;
      await decision;
      if (i >= MACHINES_BENCH.WARMUP) {
        d.push(m.at - t0);
        h.push(p.at - t0);
        added.push(p.at - m.at);
        (viaHome ? decidedHome : decidedDirect).push(a1 - a0);
      }
      if ((i + 1) % 100 === 0) progress(`machines: approvals ${i + 1}/${MACHINES_BENCH.ROUNDS + MACHINES_BENCH.WARMUP}`);
    }
    direct.ws.close();
    through.ws.close();
    keepAlive.destroy();

    // Scale: nine more machines, twenty tabs on each of the ten.
    progress(`machines: ${MACHINES_BENCH.MACHINES} linked agents with ${MACHINES_BENCH.TABS} tabs each`);
    const machines: { agent: AgentHandle; session: Session }[] = [{ agent: machine, session: own }];
    for (let i = 1; i < MACHINES_BENCH.MACHINES; i++) {
      const agent = await startAgent();
      machines.push({ agent, session: await claim(agent, 'desk') });
      await link(home, agent, `machine ${i + 1}`);
    }
    const tabs: { agent: AgentHandle; tab: { id: string; workspaceId: string } }[] = [];
    for (const { agent, session } of machines) {
      const have = agent === machine ? 1 : 0;
      for (let t = have; t < MACHINES_BENCH.TABS; t++) tabs.push({ agent, tab: await createTab(session) });
      if (agent === machine) tabs.push({ agent, tab });
    }
    const statusOfHome = deviceSocket(phone, '/api/status');
    let sessionsFollowed = 0;
    statusOfHome.on('message', (data) => {
      const msg = JSON.parse(String(data)) as StatusServerMessage;
      if (msg.type === 'status:sync') sessionsFollowed = Object.keys(msg.tabs).length;
    });
    await eventually(async () => {
      const sync = await new Promise<SyncSnapshot>((resolve) => {
        const ws = deviceSocket(phone, '/api/sync');
        ws.once('message', (msg) => {
          resolve(JSON.parse(String(msg)) as SyncSnapshot);
          ws.close();
        });
      });
      const followedTabs = sync.workspaces.filter((w) => w.machine !== undefined).reduce((n, w) => n + w.tabs.length, 0);
      return sync.machines.length === MACHINES_BENCH.MACHINES && sync.machines.every((m) => m.reach === 'ok') && followedTabs >= MACHINES_BENCH.MACHINES * MACHINES_BENCH.TABS;
    }, 120_000, 'every machine and tab followed');
    await new Promise((r) => setTimeout(r, 5_000));
    const rssFollowing = rssMiB(home.pid);

    // Every tab's status changes once: a prompt hook on each, as 200 Claudes starting a turn.
    const prompt = capturedHook('UserPromptSubmit');
    const updates = new Agent({ keepAlive: true, maxSockets: 16 });
    await Promise.all(
      tabs.map(async ({ agent, tab: t }) => {
        const e = await paneEnv(agent, t);
        const tok = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
        await new Promise<void>((resolve, reject) => {
          const req = request(new URL('/hooks/UserPromptSubmit', agent.url), { method: 'POST', agent: updates, headers: { 'content-type': 'application/json', 'x-pocketmux-token': tok, 'x-pocketmux-pane': e.TMUX_PANE, 'x-pocketmux-tmux': e.TMUX } }, (res) => {
            res.resume();
            res.on('end', () => resolve());
          });
          req.on('error', reject);
          req.end(JSON.stringify(prompt));
        });
      }),
    );
    updates.destroy();
    statusOfHome.send(JSON.stringify({ type: 'status:request-sync' }));
    await eventually(() => sessionsFollowed >= MACHINES_BENCH.MACHINES * MACHINES_BENCH.TABS, 30_000, 'the home agent’s snapshot of every session');
    await new Promise((r) => setTimeout(r, 5_000));
    const rssAfterUpdates = rssMiB(home.pid);
    statusOfHome.close();

    return {
      rounds: MACHINES_BENCH.ROUNDS,
      direct: times(d),
      throughHome: times(h),
      added: times(added),
      decideDirect: times(decidedDirect),
      decideThroughHome: times(decidedHome),
      rssAlone,
      rssFollowing,
      rssAfterUpdates,
      sessionsFollowed,
    };
  } finally {
    await cleanupAgents();
  }
}

export function machinesSection(r: MachinesBenchResult, runLine: string): string {
  const f = (x: number) => x.toFixed(2);
  const t = (x: Times) => `${f(x.p50)} / ${f(x.p99)} ms`;
  const met = r.added.p99 <= 5 ? 'met' : '**not met**';
  return [
    `## ${MACHINES_HEADING}`,
    '',
    runLine,
    '',
    '| measure | through the home agent | on the machine itself, same rounds | added by the home agent | goal |',
    '| --- | --- | --- | --- | --- |',
    `| a linked machine's PermissionRequest posted → \`approval-opened\` on a client, p50 / p99 of ${r.rounds} | **${t(r.throughHome)}** | ${t(r.direct)} | ${t(r.added)} (per round) | ≤ 5 ms more at p99: ${met} |`,
    `| a decision → the held hook answered, p50 / p99 of ${r.rounds / 2} each, by turns | **${t(r.decideThroughHome)}** | ${t(r.decideDirect)} | ${f(r.decideThroughHome.p50 - r.decideDirect.p50)} ms (p50) | |`,
    `| the home agent's RSS: alone / following ${MACHINES_BENCH.MACHINES} machines × ${MACHINES_BENCH.TABS} tabs / after every tab's status changed once | ${r.rssAlone.toFixed(0)} / **${r.rssFollowing.toFixed(0)}** / ${r.rssAfterUpdates.toFixed(0)} MiB (${r.sessionsFollowed} sessions in its snapshot) | | within one reading's noise (see below) | |`,
    '',
    `How it is measured: agents on this machine, each with its own data dir, tmux server and port; the linked ones on loopback (plain HTTP, trust \`loopback\`), linked with \`pocketmux machines add\`. A tab's PermissionRequest is posted to its agent as Claude's HTTP hook posts it (keep-alive); a client paired with that agent and one paired only with the home agent wait for \`approval-opened\` in the same round, so each round gives both times for one event. The approval is then approved by turns on the machine and from the phone through the home agent (a forwarded \`POST /api/approvals/:id\`), timed until the hook's answer; ${MACHINES_BENCH.WARMUP} rounds first are not counted. Then nine more agents are started and linked, ${MACHINES_BENCH.TABS} shell tabs made on each, and the home agent's RSS (VmRSS, one reading each, 5 s after the step: the agent is still giving back the memory of its start when it is read alone, so following reads lower, and the cost of following is below what these readings resolve) read once its sync lists every tab, and again after a UserPromptSubmit on every tab.`,
  ].join('\n');
}
