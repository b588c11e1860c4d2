/**
 * Approval path figures, agent only: a PermissionRequest posted as Claude's HTTP hook posts it,
 * until a client hears `approval-opened`; and a device's decision, until the held hook request
 * gets its answer. Beside them, alternating, the plain hook path (a UserPromptSubmit until its
 * `status:update`) as the peer: what any hook costs on the same agent at the same moment.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import type WebSocket from 'ws';
import type { StatusServerMessage } from '../../protocol/status.js';
import type { AgentHandle } from '../support/agent.js';
import { createTab, type Session, deviceSocket, deviceHeaders } from '../support/client.js';
import { PushEndpoint } from '../support/push-endpoint.js';
import { capturedHook, paneEnv } from '../support/status.js';
import { quantile } from '../support/stats.js';

export const APPROVAL_ROUNDS = 500;
const WARMUP = 20;

export interface ApprovalBenchResult {
  rounds: number;
  openedP50: number;
  openedP99: number;
  answeredP50: number;
  answeredP99: number;
  peerP50: number;
  peerP99: number;
  /** PermissionRequest posted → the encrypted push received (and decrypted) by a push endpoint on loopback. */
  pushP50: number;
  pushP99: number;
}

/** The next message on the status channel that `test` picks, with the time it arrived. */
class Waiter {
  private pending: { test: (m: StatusServerMessage) => boolean; resolve: (r: { msg: StatusServerMessage; at: number }) => void } | null = null;
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(session: Session) {
    this.ws = deviceSocket(session, '/api/status');
    this.opened = new Promise((r) => this.ws.once('open', () => r()));
    this.ws.on('message', (data) => {
      const at = performance.now();
      const msg = JSON.parse(String(data)) as StatusServerMessage;
      if (this.pending?.test(msg)) {
        const { resolve } = this.pending;
        this.pending = null;
        resolve({ msg, at });
      }
    });
  }

  next(test: (m: StatusServerMessage) => boolean): Promise<{ msg: StatusServerMessage; at: number }> {
    return new Promise((resolve) => {
      this.pending = { test, resolve };
    });
  }
}

/**
 * The agent must run with `POCKETMUX_PUSH_INSECURE_LOOPBACK=1`: the session's device subscribes
 * to a push endpoint in this process, so every approval is also pushed, encrypted and signed.
 */
export async function approvalBench(agent: AgentHandle, session: Session, progress: (what: string) => void): Promise<ApprovalBenchResult> {
  const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
  const waiter = new Waiter(session);
  await waiter.opened;
  const tab = await createTab(session);
  const env = await paneEnv(agent, tab);
  // node:http with keep-alive, as the other agent-only rows: fetch's own overhead shows in a p99.
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 8 });
  const send = (path: string, headers: Record<string, string>, body: unknown) =>
    new Promise<number>((resolve, reject) => {
      const req = request(new URL(path, agent.url), { method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now()));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const hookHeaders = { 'x-pocketmux-token': token, 'x-pocketmux-pane': env.TMUX_PANE, 'x-pocketmux-tmux': env.TMUX };
  const permission = capturedHook('PermissionRequest');
  const prompt = capturedHook('UserPromptSubmit');

  /** One approval opened by the hook and approved by a device, timed at each step. */
  const round = async () => {
    // The peer: any hook, to its status:update.
    const busy = waiter.next((m) => m.type === 'status:update' && m.tabId === tab.id && m.status.state === 'busy');
    const p0 = performance.now();
    const promptSent = send('/hooks/UserPromptSubmit', hookHeaders, prompt);
    const p1 = (await busy).at;
    await promptSent;

    // A PermissionRequest, held: until the card is offered.
    const offered = waiter.next((m) => m.type === 'approval-opened' && m.approval.tabId === tab.id);
    const o0 = performance.now();
    const hookAnswered = send('/hooks/PermissionRequest', hookHeaders, permission);
    const { msg, at: o1 } = await offered;
    if (msg.type !== 'approval-opened') throw new Error('expected approval-opened');

    // A device's decision: until Claude's held request has its answer.
    const a0 = performance.now();
    const decided = send(`/api/approvals/${msg.approval.id}`, deviceHeaders(session, 'POST', `/api/approvals/${msg.approval.id}`), { decision: 'allow' });
    const a1 = await hookAnswered;
    await decided;
    return { peer: p1 - p0, opened: o1 - o0, answered: a1 - a0, id: msg.approval.id, sentAt: o0 };
  };

  // First with no device subscribed, so the pushes' work (here and in the agent) is not in these figures.
  const opened: number[] = [];
  const answered: number[] = [];
  const peer: number[] = [];
  for (let i = 0; i < APPROVAL_ROUNDS + WARMUP; i++) {
    const r = await round();
    if (i >= WARMUP) {
      peer.push(r.peer);
      opened.push(r.opened);
      answered.push(r.answered);
    }
    if ((i + 1) % 100 === 0) progress(`approvals ${i + 1}/${APPROVAL_ROUNDS + WARMUP}`);
  }

  // Then with the device subscribed: each approval is pushed, and closed once approved.
  const pushes = await PushEndpoint.start();
  const subscribed = await fetch(new URL('/api/push/subscription', agent.url), {
    method: 'POST',
    headers: { ...deviceHeaders(session, 'POST', '/api/push/subscription'), 'content-type': 'application/json' },
    body: JSON.stringify(pushes.subscribe().json),
  });
  if (subscribed.status !== 201) throw new Error(`push subscription refused: ${subscribed.status} ${await subscribed.text()}`);
  const received = (kind: 'show' | 'close', id: string) => pushes.received.find((r) => r.payload.kind === kind && r.payload.tag === id);
  const pushed: number[] = [];
  for (let i = 0; i < APPROVAL_ROUNDS + WARMUP; i++) {
    const r = await round();
    // Both pushes arrive before the next round, so no round overlaps the next.
    const deadline = Date.now() + 10_000;
    while (!received('show', r.id) || !received('close', r.id)) {
      if (Date.now() > deadline) throw new Error('no push arrived within 10 s');
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (i >= WARMUP) pushed.push((received('show', r.id)?.receivedAt ?? Number.NaN) - r.sentAt);
    if ((i + 1) % 100 === 0) progress(`pushes ${i + 1}/${APPROVAL_ROUNDS + WARMUP}`);
  }
  waiter.ws.close();
  keepAlive.destroy();
  if (pushes.refused.length > 0) throw new Error(`the push endpoint refused: ${pushes.refused[0]}`);
  await pushes.close();
  return {
    rounds: APPROVAL_ROUNDS,
    openedP50: quantile(opened, 0.5),
    openedP99: quantile(opened, 0.99),
    answeredP50: quantile(answered, 0.5),
    answeredP99: quantile(answered, 0.99),
    peerP50: quantile(peer, 0.5),
    peerP99: quantile(peer, 0.99),
    pushP50: quantile(pushed, 0.5),
    pushP99: quantile(pushed, 0.99),
  };
}
