import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import type { WorkspaceView } from '../../protocol/api.js';
import type { Approval, ApprovalServerMessage } from '../../protocol/approvals.js';
import type { MachineReach } from '../../protocol/machines.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { CHANNEL_PATHS } from '../../protocol/routes.js';
import { safeParse } from '../../protocol/safe-parse.js';
import { StatusServerMessage, type TabStatus } from '../../protocol/status.js';
import { SyncServerMessageSchema } from '../../protocol/sync-server.js';
import type { Logger } from '../util/log.js';
import { type MachineClient, MachineError } from './machine-client.js';

/** The most one message from a linked agent may be: a status or sync snapshot of many sessions. */
export const FOLLOW_MAX_PAYLOAD = 16 * 1024 * 1024;
/** Sessions, approvals and workspaces kept of one machine at most; the rest of a larger snapshot is left out. */
export const FOLLOW_MAX_ITEMS = 1_000;

/** How long to wait before connecting again: doubling from the first, never past the last. */
export const FOLLOW_BACKOFF_MS = { first: 1_000, max: 30_000 } as const;

/** What the home agent last knew of a linked machine: kept while it is unreachable. */
export interface FollowedState {
  tabs: Map<string, TabStatus>;
  approvals: Map<string, Approval>;
  workspaces: WorkspaceView[];
  outside: OutsideSessionView[];
}

/** Whether a machine's channels are open, since when, and why not. */
export interface FollowReach {
  reach: MachineReach;
  since: number;
  problem: string | null;
}

/**
 * What the follower says, in the machine's own keys (the union puts its prefix on them):
 * `status` for each status or approval message as it came, `resync` when the whole status was
 * replaced (on every connect), `sync` when its workspaces or outside sessions changed, `reach`
 * when it became reachable or not.
 */
export interface FollowerEvents {
  status: [msg: Exclude<StatusServerMessage, { type: 'status:sync' | 'status:error' }> | ApprovalServerMessage];
  resync: [];
  sync: [];
  reach: [reach: FollowReach];
}

/**
 * Follows one linked agent: its status channel (every session's state and every open
 * approval) and its sync channel (workspaces and outside sessions), each message through the
 * protocol's schema. It connects again with backoff when either closes, and keeps what it last
 * knew meanwhile, marked unreachable since the time it went.
 */
export class MachineFollower extends EventEmitter<FollowerEvents> {
  readonly state: FollowedState = { tabs: new Map(), approvals: new Map(), workspaces: [], outside: [] };
  private reachNow: FollowReach = { reach: 'unknown', since: Date.now(), problem: null };
  private sockets: WebSocket[] = [];
  private timer: NodeJS.Timeout | null = null;
  private backoffMs: number = FOLLOW_BACKOFF_MS.first;
  private stopped = false;
  /** Both channels sent their first snapshot since the last connect. */
  private synced = { status: false, sync: false };

  constructor(
    readonly machineId: string,
    private readonly client: MachineClient,
    private readonly log: Logger,
    private readonly backoff: { first: number; max: number } = FOLLOW_BACKOFF_MS,
  ) {
    super();
    this.backoffMs = backoff.first;
  }

  get reach(): FollowReach {
    return this.reachNow;
  }

  start(): void {
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.closeSockets();
  }

  private closeSockets(): void {
    for (const ws of this.sockets.splice(0)) {
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
    }
  }

  /**
   * Asks the machine who this agent is there first: a refusal says why in words (removed from
   * its devices, or another reason), which a refused WebSocket upgrade cannot, and the answer
   * carries its clock, which the sockets' proofs are then signed in.
   */
  private connect(): void {
    if (this.stopped) return;
    this.client.request('GET', '/api/session').then(
      (answer) => {
        if (this.stopped) return;
        if (answer.status !== 200) this.lost(new MachineError('refused', `the agent at ${new URL(this.client.target.url).host} answered HTTP ${answer.status}`));
        else this.open();
      },
      (err: Error) => this.lost(err),
    );
  }

  private open(): void {
    this.synced = { status: false, sync: false };
    let status: WebSocket;
    let sync: WebSocket;
    try {
      status = this.client.socket(CHANNEL_PATHS.status, FOLLOW_MAX_PAYLOAD);
      sync = this.client.socket(CHANNEL_PATHS.sync, FOLLOW_MAX_PAYLOAD);
    } catch (err) {
      this.lost(err as Error);
      return;
    }
    this.sockets = [status, sync];
    let failure: Error | null = null;
    for (const ws of this.sockets) {
      ws.on('error', (err) => {
        failure ??= err;
      });
      ws.on('unexpected-response', (_req, res) => {
        failure ??= new MachineError(res.statusCode === 401 ? 'revoked' : 'refused', `the agent at ${new URL(this.client.target.url).host} refused the connection: HTTP ${res.statusCode}`);
        ws.terminate();
      });
      ws.on('close', () => this.lost(failure ?? new MachineError('unreachable', `the connection to ${new URL(this.client.target.url).host} closed`)));
    }
    status.on('message', (data, isBinary) => {
      if (!isBinary) this.onStatus(String(data));
    });
    sync.on('message', (data, isBinary) => {
      if (!isBinary) this.onSync(String(data));
    });
  }

  /** Either channel closed or never opened: both are closed, and tried again after the backoff. */
  private lost(err: Error): void {
    if (this.stopped || this.timer) return;
    this.closeSockets();
    const reach = err instanceof MachineError ? err.reach : 'unreachable';
    const message = err instanceof MachineError ? err.message : `cannot reach the agent at ${new URL(this.client.target.url).host}: ${(err as NodeJS.ErrnoException).code ?? err.message}`;
    if (this.reachNow.reach !== reach || this.reachNow.problem !== message) this.setReach({ reach, since: Date.now(), problem: message });
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.backoff.max);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, wait);
    this.timer.unref();
  }

  private setReach(reach: FollowReach): void {
    this.reachNow = reach;
    this.log.info('linked machine', { machine: this.machineId, reach: reach.reach, problem: reach.problem });
    this.emit('reach', reach);
  }

  private parse(text: string): StatusServerMessage | null {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return null;
    }
    const parsed = safeParse(StatusServerMessage, raw);
    if (!parsed.success) {
      this.log.warn('a linked machine sent a status message this agent cannot read', { machine: this.machineId });
      return null;
    }
    return parsed.data;
  }

  private onStatus(text: string): void {
    const msg = this.parse(text);
    if (!msg) return;
    const { tabs, approvals } = this.state;
    switch (msg.type) {
      case 'status:sync':
        tabs.clear();
        approvals.clear();
        for (const [key, status] of Object.entries(msg.tabs).slice(0, FOLLOW_MAX_ITEMS)) tabs.set(key, status);
        for (const approval of msg.approvals.slice(0, FOLLOW_MAX_ITEMS)) approvals.set(approval.id, approval);
        this.synced.status = true;
        this.emit('resync');
        this.maybeReachable();
        return;
      case 'status:error':
        return;
      case 'status:update':
        if (!tabs.has(msg.tabId) && tabs.size >= FOLLOW_MAX_ITEMS) return;
        tabs.set(msg.tabId, msg.status);
        break;
      case 'status:removed':
        tabs.delete(msg.tabId);
        break;
      case 'approval-opened':
        if (approvals.size >= FOLLOW_MAX_ITEMS) return;
        approvals.set(msg.approval.id, msg.approval);
        break;
      case 'approval-resolved':
        approvals.delete(msg.resolution.id);
        break;
      default:
        break;
    }
    this.emit('status', msg);
  }

  private onSync(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = safeParse(SyncServerMessageSchema, raw);
    if (!parsed.success) return;
    this.state.workspaces = parsed.data.workspaces.slice(0, FOLLOW_MAX_ITEMS);
    this.state.outside = parsed.data.outside.slice(0, FOLLOW_MAX_ITEMS);
    this.synced.sync = true;
    this.emit('sync');
    this.maybeReachable();
  }

  private maybeReachable(): void {
    if (!this.synced.status || !this.synced.sync || this.reachNow.reach === 'ok') return;
    this.backoffMs = this.backoff.first;
    this.setReach({ reach: 'ok', since: Date.now(), problem: null });
  }
}
