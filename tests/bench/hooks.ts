/**
 * Hook path figures: from Claude running hook.sh to the `status:update` on a client, the
 * agent's own share of it, and a sustained load over many tabs.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { join } from 'node:path';
import type WebSocket from 'ws';
import type { StatusServerMessage } from '../../protocol/status.js';
import { type AgentHandle, REPO_ROOT, } from '../support/agent.js';
import { procMemory } from '../support/channels.js';
import { createTab, type Session, deviceSocket } from '../support/client.js';
import { paneEnv } from '../support/status.js';
import { quantile } from '../support/stats.js';

const FIXTURES = join(REPO_ROOT, 'tests', 'fixtures', 'claude-code-2.1.332');
const CODEX_FIXTURES = join(REPO_ROOT, 'tests', 'fixtures', 'codex-0.169.0');

export interface HookBenchResult {
  scriptP50: number;
  scriptP99: number;
  /** sh plus one curl to a bare server: what starting the two processes costs. */
  floorP50: number;
  floorP99: number;
  agentP50: number;
  agentP99: number;
  /** hook.sh with Codex's captured payloads (`codex/<event>`), alternating with Claude's: p50 / p99 of each. */
  codex: { rounds: number; claudeP50: number; claudeP99: number; codexP50: number; codexP99: number };
  loadSent: number;
  loadTabs: number;
  loadSeconds: number;
  lost: number;
  reordered: number;
  /** The agent's RSS as the load starts, half a second after it, and 20 s later. */
  rssBeforeKiB: number;
  rssKiB: number;
  rssSettledKiB: number;
}


function payloads(dir = FIXTURES): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of readFileSync(join(dir, 'hooks.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const p = JSON.parse(line) as { hook_event_name: string };
    out[p.hook_event_name] ??= p;
  }
  return out;
}

/** Resolves when the status channel reports `seq` for `tabId`. */
class StatusWatcher {
  private readonly waiters = new Map<string, { seq: number; resolve: () => void }>();
  readonly seqs = new Map<string, number[]>();
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(session: Session) {
    this.ws = deviceSocket(session, '/api/status');
    this.opened = new Promise((r) => this.ws.once('open', () => r()));
    this.ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as StatusServerMessage;
      if (msg.type !== 'status:hook-event') return;
      const list = this.seqs.get(msg.hook.tabId) ?? [];
      list.push(msg.hook.seq);
      this.seqs.set(msg.hook.tabId, list);
      const w = this.waiters.get(msg.hook.tabId);
      if (w && msg.hook.seq >= w.seq) {
        this.waiters.delete(msg.hook.tabId);
        w.resolve();
      }
    });
  }

  waitFor(tabId: string, seq: number): Promise<void> {
    return new Promise((resolve) => this.waiters.set(tabId, { seq, resolve }));
  }
}


function runScript(script: string, event: string, body: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', [script, event], { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', () => resolve());
    child.stdin.end(body);
  });
}

export async function hookBench(agent: AgentHandle, session: Session, progress: (line: string) => void = () => undefined): Promise<HookBenchResult> {
  const events = payloads();
  const script = join(agent.dataDir, 'hooks', 'hook.sh');
  const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
  const watcher = new StatusWatcher(session);
  await watcher.opened;
  const tab = await createTab(session);
  const env = await paneEnv(agent, tab);
  const order = ['UserPromptSubmit', 'Stop'];
  let seq = 0;

  // The floor: sh running one curl that posts the same payload to a bare HTTP server in this
  // process, with nothing behind it. No script can start less.
  const floorServer = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => floorServer.listen(0, '127.0.0.1', () => r()));
  const floorPort = (floorServer.address() as { port: number }).port;
  const floorScript = join(agent.root, 'floor.sh');
  writeFileSync(
    floorScript,
    `#!/bin/sh\ncurl -s -f --noproxy '*' --connect-timeout 0.5 --max-time 5 -H 'Content-Type: application/json' --data-binary @- "http://127.0.0.1:${floorPort}/hooks/$1" 2>/dev/null\nexit 0\n`,
    { mode: 0o700 },
  );

  // Whole path: hook.sh started as Claude starts it, until the client hears of it; each run
  // is followed by one of the floor, so both see the same machine.
  const scriptTimes: number[] = [];
  const floorTimes: number[] = [];
  for (let i = 0; i < 1050; i++) {
    const event = order[i % 2] as string;
    const body = `${JSON.stringify(events[event])}\n`;
    const heard = watcher.waitFor(tab.id, ++seq);
    const t0 = performance.now();
    await runScript(script, event, body, env);
    await heard;
    const t1 = performance.now();
    await runScript(floorScript, event, body, env);
    if (i >= 50) {
      scriptTimes.push(t1 - t0);
      floorTimes.push(performance.now() - t1);
    }
    if ((i + 1) % 350 === 0) progress(`  hook.sh and its floor: ${i + 1}/1050 runs`);
  }
  floorServer.close();

  // Codex beside Claude: the same script, Codex's payloads posted to its own intake path
  // (`codex/<event>`, read by Codex's schemas into Claude's events) in a second tab,
  // alternating round by round with Claude's.
  const codexEvents = payloads(CODEX_FIXTURES);
  const codexTab = await createTab(session);
  const codexEnv = await paneEnv(agent, codexTab);
  let codexSeq = 0;
  const claudeTimes: number[] = [];
  const codexTimes: number[] = [];
  const codexRounds = 525;
  for (let i = 0; i < codexRounds; i++) {
    const event = order[i % 2] as string;
    const heardClaude = watcher.waitFor(tab.id, ++seq);
    const t0 = performance.now();
    await runScript(script, event, `${JSON.stringify(events[event])}\n`, env);
    await heardClaude;
    const t1 = performance.now();
    const heardCodex = watcher.waitFor(codexTab.id, ++codexSeq);
    await runScript(script, `codex/${event}`, `${JSON.stringify(codexEvents[event])}\n`, codexEnv);
    await heardCodex;
    if (i >= 25) {
      claudeTimes.push(t1 - t0);
      codexTimes.push(performance.now() - t1);
    }
    if ((i + 1) % 175 === 0) progress(`  Codex beside Claude: ${i + 1}/${codexRounds} rounds`);
  }

  // The agent's share: an HTTP POST straight to the intake, until the client hears of it.
  const agentTimes: number[] = [];
  // node:http with keep-alive rather than fetch: undici's own overhead showed in the p99.
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });
  const post = (event: string, headers: Record<string, string>) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        new URL(`/hooks/${event}`, agent.url),
        { method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json', 'x-pocketmux-token': token, ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(events[event]));
    });
  const hookHeaders = (e: Record<string, string>) => ({ 'x-pocketmux-pane': e.TMUX_PANE as string, 'x-pocketmux-tmux': e.TMUX as string });
  for (let i = 0; i < 1050; i++) {
    const event = order[i % 2] as string;
    const heard = watcher.waitFor(tab.id, ++seq);
    const t0 = performance.now();
    await post(event, hookHeaders(env));
    await heard;
    if (i >= 50) agentTimes.push(performance.now() - t0);
    if ((i + 1) % 350 === 0) progress(`  agent only: ${i + 1}/1050 posts`);
  }

  // Sustained load: 1,000 events a second for 10 s spread over 20 tabs.
  progress('  load: 1,000 events a second for 10 s over 20 tabs');
  const tabs = [tab];
  while (tabs.length < 20) tabs.push(await createTab(session));
  const envs = await Promise.all(tabs.map((t) => paneEnv(agent, t)));
  const before = new Map(tabs.map((t) => [t.id, watcher.seqs.get(t.id)?.length ?? 0]));
  const rss = () => procMemory(agent.pid, 'VmRSS') / 1024;
  const rssBeforeKiB = rss();
  const rate = 1000;
  const seconds = 10;
  let sent = 0;
  const started = performance.now();
  const inflight: Promise<unknown>[] = [];
  while (sent < rate * seconds) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (sent < Math.min(due, rate * seconds)) {
      const i = sent % tabs.length;
      inflight.push(post(order[Math.floor(sent / tabs.length) % 2] as string, hookHeaders(envs[i] as Record<string, string>)));
      sent++;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inflight);
  const loadSeconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 500));
  let lost = 0;
  let reordered = 0;
  for (const t of tabs) {
    const list = (watcher.seqs.get(t.id) ?? []).slice(before.get(t.id));
    lost += rate * seconds / tabs.length - list.length;
    for (let i = 1; i < list.length; i++) if ((list[i] as number) <= (list[i - 1] as number)) reordered++;
  }
  const rssKiB = rss();
  // V8 keeps the heap a burst grew (the young generation at its largest) until it sees the
  // process idle; what the agent holds shows once it has given that back.
  progress('  load: agent RSS again after 20 s idle');
  await new Promise((r) => setTimeout(r, 20_000));
  const rssSettledKiB = rss();
  watcher.ws.close();
  return {
    scriptP50: quantile(scriptTimes, 0.5),
    scriptP99: quantile(scriptTimes, 0.99),
    floorP50: quantile(floorTimes, 0.5),
    floorP99: quantile(floorTimes, 0.99),
    agentP50: quantile(agentTimes, 0.5),
    agentP99: quantile(agentTimes, 0.99),
    codex: {
      rounds: codexTimes.length,
      claudeP50: quantile(claudeTimes, 0.5),
      claudeP99: quantile(claudeTimes, 0.99),
      codexP50: quantile(codexTimes, 0.5),
      codexP99: quantile(codexTimes, 0.99),
    },
    loadSent: sent,
    loadTabs: tabs.length,
    loadSeconds,
    lost,
    reordered,
    rssBeforeKiB,
    rssKiB,
    rssSettledKiB,
  };
}
