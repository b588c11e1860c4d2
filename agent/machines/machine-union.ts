import { AGENT_NAMES } from '../../protocol/agents.js';
import { EventEmitter } from 'node:events';
import { basename } from 'node:path';
import type { WorkspaceView } from '../../protocol/api.js';
import type { Approval, ApprovalServerMessage } from '../../protocol/approvals.js';
import { machineKey, splitMachineKey } from '../../protocol/machine-key.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import type { StatusServerMessage, TabStatus } from '../../protocol/status.js';
import type { MachineSummary } from '../../protocol/machine-key.js';
import type { Logger } from '../util/log.js';
import type { MachineClient } from './machine-client.js';
import { type FollowerEvents, MachineFollower } from './machine-follower.js';
import type { MachineRecord } from './machine-store.js';
import { approvalOf, outsideOf, resolutionOf, workspaceOf } from './machine-views.js';
import { relaySockets } from './socket-relay.js';
import type WebSocket from 'ws';
import { CloseCode } from '../../protocol/close-codes.js';
import { PROOF_QUERY } from '../../protocol/device-proof.js';
import { FOLLOW_MAX_PAYLOAD } from './machine-follower.js';

/** Sockets relayed to one machine at most (terminals and timelines of all devices together). */
export const MAX_RELAYS_PER_MACHINE = 64;

/**
 * What the union says, in the home agent's keys: `status`, a message for every status client;
 * `resync`, every status client should get a fresh snapshot (a machine's whole status was
 * replaced, or a machine came or went); `sync`, the workspace lists changed.
 */
export interface UnionEvents {
  status: [msg: StatusServerMessage | ApprovalServerMessage];
  resync: [];
  sync: [];
}

/** What the home agent lists of its linked machines beside its own, over REST as on its channels. */
export type LinkedLists = Pick<MachineUnion, 'tabs' | 'approvals' | 'workspaces' | 'outside'>;

/** A key of a linked machine's own, or of one it links in turn: only its own are followed. */
function own(key: string): boolean {
  return splitMachineKey(key) === null;
}

/**
 * The linked machines' sessions as the home agent serves them: one follower per machine, and
 * everything it knows under keys with the machine's id in front (`protocol/machine-key.ts`),
 * each workspace, outside session and approval marked with its machine. What a machine links
 * in turn is not followed: the union is one level deep.
 */
export class MachineUnion extends EventEmitter<UnionEvents> {
  private readonly followers = new Map<string, { record: MachineRecord; follower: MachineFollower; off: () => void }>();
  /** The phones' sockets relayed to each machine, each with what ends it. */
  private readonly relays = new Map<string, Set<(code: number, reason: string) => void>>();

  constructor(
    private readonly clientOf: (record: MachineRecord) => MachineClient,
    private readonly log: Logger,
    private readonly backoff?: { first: number; max: number },
  ) {
    super();
  }

  follow(record: MachineRecord): void {
    if (this.followers.has(record.id)) return;
    const follower = new MachineFollower(record.id, this.clientOf(record), this.log, this.backoff);
    const id = record.id;
    const onStatus = (...[msg]: FollowerEvents['status']) => this.forward(id, msg);
    const onResync = () => this.emit('resync');
    const onSync = () => this.emit('sync');
    const onReach = () => {
      this.emit('sync');
      this.emit('resync');
    };
    follower.on('status', onStatus);
    follower.on('resync', onResync);
    follower.on('sync', onSync);
    follower.on('reach', onReach);
    const off = () => {
      follower.off('status', onStatus);
      follower.off('resync', onResync);
      follower.off('sync', onSync);
      follower.off('reach', onReach);
      follower.stop();
    };
    this.followers.set(id, { record, follower, off });
    follower.start();
    this.emit('sync');
  }

  /** Stops following a machine; its sessions and approvals leave every client. */
  unfollow(id: string): void {
    const entry = this.followers.get(id);
    if (!entry) return;
    for (const end of [...(this.relays.get(id) ?? [])]) end(CloseCode.TabNotFound, 'the machine was unlinked');
    this.relays.delete(id);
    entry.off();
    this.followers.delete(id);
    this.emit('sync');
    this.emit('resync');
  }

  renamed(record: MachineRecord): void {
    const entry = this.followers.get(record.id);
    if (!entry) return;
    entry.record = record;
    this.emit('sync');
  }

  /** The follower of a machine, for what goes to it (decisions, input, terminals). */
  follower(id: string): MachineFollower | undefined {
    return this.followers.get(id)?.follower;
  }

  /**
   * Joins a phone's terminal or timeline socket for a linked machine's session to the same
   * channel there (`path`, with the query as the phone sent it, the session's own key in
   * `tab`, and no proof of the phone's: the home agent proves its own). Refused, with a close
   * code the app knows, when the machine is not linked, not reachable, or at its cap.
   */
  relay(client: WebSocket, machineId: string, path: string, query: URLSearchParams, key: string): void {
    const entry = this.followers.get(machineId);
    if (!entry) {
      client.close(CloseCode.TabNotFound, 'no such machine: it was unlinked');
      return;
    }
    const { reach } = entry.follower.reach;
    if (reach !== 'ok' && reach !== 'unknown') {
      client.close(CloseCode.AttachFailed, `${entry.record.name} is not reachable`.slice(0, 120));
      return;
    }
    let ends = this.relays.get(machineId);
    if (!ends) {
      ends = new Set();
      this.relays.set(machineId, ends);
    }
    if (ends.size >= MAX_RELAYS_PER_MACHINE) {
      client.close(CloseCode.ConnectionLimit, `too many terminals and timelines open on ${entry.record.name}`.slice(0, 120));
      return;
    }
    const params = new URLSearchParams(query);
    params.delete(PROOF_QUERY);
    params.set('tab', key);
    let far: WebSocket;
    try {
      far = this.clientOf(entry.record).socket(`${path}?${params.toString()}`, FOLLOW_MAX_PAYLOAD);
    } catch (err) {
      client.close(CloseCode.AttachFailed, (err as Error).message.slice(0, 120));
      return;
    }
    const set = ends;
    const { end } = relaySockets(client, far, () => set.delete(end));
    set.add(end);
  }

  private forward(machine: string, msg: FollowerEvents['status'][0]): void {
    switch (msg.type) {
      case 'status:update':
        if (own(msg.tabId)) this.emit('status', { ...msg, tabId: machineKey(machine, msg.tabId) });
        return;
      case 'status:removed':
        if (own(msg.tabId)) this.emit('status', { ...msg, tabId: machineKey(machine, msg.tabId) });
        return;
      case 'status:hook-event':
        if (own(msg.hook.tabId)) this.emit('status', { ...msg, hook: { ...msg.hook, tabId: machineKey(machine, msg.hook.tabId) } });
        return;
      case 'approval-opened':
        if (own(msg.approval.id)) this.emit('status', { type: 'approval-opened', approval: approvalOf(machine, msg.approval) });
        return;
      case 'approval-resolved':
        if (own(msg.resolution.id)) this.emit('status', { type: 'approval-resolved', resolution: resolutionOf(machine, msg.resolution) });
        return;
    }
  }

  /** Every linked machine's sessions' status, under the home agent's keys. */
  tabs(): Record<string, TabStatus> {
    const out: Record<string, TabStatus> = {};
    for (const [id, { follower }] of this.followers) {
      for (const [key, status] of follower.state.tabs) if (own(key)) out[machineKey(id, key)] = status;
    }
    return out;
  }

  /** Every linked machine's open approvals, oldest first within each machine. */
  approvals(): Approval[] {
    const out: Approval[] = [];
    for (const [id, { follower }] of this.followers) {
      for (const a of follower.state.approvals.values()) if (own(a.id)) out.push(approvalOf(id, a));
    }
    return out;
  }

  workspaces(): WorkspaceView[] {
    const out: WorkspaceView[] = [];
    for (const [id, { follower }] of this.followers) {
      for (const w of follower.state.workspaces) {
        if (w.machine !== undefined) continue;
        out.push(workspaceOf(id, w));
      }
    }
    return out;
  }

  outside(): OutsideSessionView[] {
    const out: OutsideSessionView[] = [];
    for (const [id, { follower }] of this.followers) {
      for (const o of follower.state.outside) if (o.machine === undefined) out.push(outsideOf(id, o));
    }
    return out;
  }

  /**
   * How a notification names where a linked machine's session is: the machine's name before
   * its workspace's, as a card does; null for a key no machine followed here has.
   */
  place(key: string): { workspace: string; tab: string; agent?: string } | null {
    const split = splitMachineKey(key);
    const entry = split && this.followers.get(split.machineId);
    if (!split || !entry) return null;
    const { state } = entry.follower;
    for (const w of state.workspaces) {
      const tab = w.tabs.find((t) => t.id === split.key);
      if (tab) return { workspace: `${entry.record.name} · ${w.name}`, tab: tab.name ?? (tab.kind === 'shell' ? (tab.title?.command ?? 'shell') : AGENT_NAMES[tab.kind]), ...(tab.kind === 'shell' ? {} : { agent: AGENT_NAMES[tab.kind] }) };
    }
    const outside = state.outside.find((o) => o.key === split.key);
    if (outside) return { workspace: `${entry.record.name} · Outside pocketmux`, tab: outside.cwd ? basename(outside.cwd) : 'Claude' };
    return { workspace: entry.record.name, tab: 'Claude' };
  }

  machines(): MachineSummary[] {
    return [...this.followers.values()].map(({ record, follower }) => ({ id: record.id, name: record.name, ...follower.reach }));
  }

  dispose(): void {
    for (const ends of this.relays.values()) for (const end of [...ends]) end(CloseCode.AgentShutdown, 'agent shutting down');
    this.relays.clear();
    for (const { off } of this.followers.values()) off();
    this.followers.clear();
  }
}
