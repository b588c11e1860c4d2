import type { WebSocket } from 'ws';
import { seesLinkedMachines } from '../auth/device-store.js';
import { StatusClientMessage } from '../../protocol/status-client.js';
import type { ApprovalServerMessage } from '../../protocol/approvals.js';
import type { StatusServerMessage } from '../../protocol/status.js';
import { CHANNEL_PATHS } from '../../protocol/routes.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { StatusManager } from '../status/status-manager.js';
import type { Presence } from '../push/presence.js';
import type { Logger } from '../util/log.js';
import type { MachineUnion } from '../machines/machine-union.js';
import type { Channel, ChannelContext, ChannelDefinition } from './channel.js';
import { parseClientMessage } from './client-message.js';
import { type JsonClient, type JsonClientOptions, JsonClients, jsonClientOptions } from './json-client.js';

/**
 * `/api/status`: a full snapshot on connect (and on request), then every update, hook event
 * and approval opened or settled, as it happens. A reconnecting client resyncs, so it never shows a stale badge.
 */
export class StatusChannel implements Channel {
  /** Browsers: this agent's sessions and its linked machines'. */
  private readonly clients: JsonClients;
  /** Agents that linked this one: its own sessions only (one level deep). */
  private readonly agents: JsonClients;
  private readonly onMessage = (msg: StatusServerMessage | ApprovalServerMessage) => {
    const text = JSON.stringify(msg);
    this.clients.broadcast(text);
    this.agents.broadcast(text);
  };
  private readonly onLinked = (msg: StatusServerMessage | ApprovalServerMessage) => this.clients.broadcast(JSON.stringify(msg));
  private readonly onResync = () => this.clients.broadcast(JSON.stringify(this.sync(true)));

  constructor(
    private readonly status: StatusManager,
    private readonly approvals: ApprovalStore,
    private readonly presence: Presence,
    private readonly machines: MachineUnion,
    private readonly log: Logger,
    clientOptions: JsonClientOptions,
  ) {
    this.clients = new JsonClients(clientOptions);
    this.agents = new JsonClients(clientOptions);
    status.on('message', this.onMessage);
    approvals.on('message', this.onMessage);
    machines.on('status', this.onLinked);
    machines.on('resync', this.onResync);
  }

  accept(ws: WebSocket, ctx: ChannelContext): void {
    const deviceId = ctx.device.id;
    ws.on('close', () => this.presence.leave(deviceId, ws));
    // A snapshot, not the updates missed, is what a client behind gets: no update is lost.
    const linked = seesLinkedMachines(ctx.device);
    const client = (linked ? this.clients : this.agents).join(ws, () => [JSON.stringify(this.sync(linked))], undefined, ctx.socket);
    // From here the client has its snapshot: the log shows a waiting client (`approvals --wait`) got this far.
    this.log.debug('status client joined', { device: deviceId, approvals: this.approvals.list().length });
    ws.on('message', (data, isBinary) => {
      const msg = parseClientMessage(StatusClientMessage, data, isBinary);
      if (!msg) {
        this.send(client, { type: 'status:error', message: 'expected status:request-sync, status:tab-dismissed, status:ack-notification or status:presence' });
        return;
      }
      if (msg.type === 'status:request-sync') client.sendSnapshot();
      else if (msg.type === 'status:presence') {
        const shown = msg.visible ? msg.tabId : null;
        this.presence.report(deviceId, ws, shown);
        // From here a push about that tab skips this device: the log shows when a device's presence took effect.
        this.log.debug('status client presence', { device: deviceId, tab: shown });
      }
      else if (msg.type === 'status:tab-dismissed') {
        if (this.status.get(msg.tabId)) this.status.apply(msg.tabId, { kind: 'dismissed', at: Date.now() });
      }
      // status:ack-notification is accepted; notifications arrive with Web Push (a later step).
    });
  }

  /** With the linked machines' after this agent's own (their keys carry their machine's id), or this agent's alone. */
  private sync(linked: boolean): StatusServerMessage {
    if (!linked) return { type: 'status:sync', tabs: this.status.snapshot(), approvals: this.approvals.list() };
    return { type: 'status:sync', tabs: { ...this.status.snapshot(), ...this.machines.tabs() }, approvals: [...this.approvals.list(), ...this.machines.approvals()] };
  }

  private send(client: JsonClient, msg: StatusServerMessage): void {
    client.send(JSON.stringify(msg));
  }

  dispose(): void {
    this.status.off('message', this.onMessage);
    this.approvals.off('message', this.onMessage);
    this.machines.off('status', this.onLinked);
    this.machines.off('resync', this.onResync);
    this.clients.closeAll();
    this.agents.closeAll();
  }
}

export const statusChannel: ChannelDefinition = {
  path: CHANNEL_PATHS.status,
  caps: 'shared',
  open: (s) => new StatusChannel(s.status, s.approvals, s.presence, s.union, s.log, jsonClientOptions(s.config)),
};
