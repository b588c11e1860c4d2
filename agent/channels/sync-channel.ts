import type { WebSocket } from 'ws';
import { seesLinkedMachines } from '../auth/device-store.js';
import { SyncClientMessage, type SyncServerMessage } from '../../protocol/sync.js';
import { CHANNEL_PATHS } from '../../protocol/routes.js';
import type { OutsideSessions } from '../outside/outside-sessions.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Logger } from '../util/log.js';
import type { MachineUnion } from '../machines/machine-union.js';
import type { Channel, ChannelContext, ChannelDefinition } from './channel.js';
import { parseClientMessage } from './client-message.js';
import { type JsonClientOptions, JsonClients, jsonClientOptions } from './json-client.js';

/**
 * `/api/sync`: every client gets the workspace list (and the Claude sessions outside the
 * tabs) on connect and again on every change.
 * While anyone watches, pane titles are polled so tab labels follow the shell live.
 */
export class SyncChannel implements Channel {
  /** Browsers: this agent's lists and its linked machines'. */
  private readonly clients: JsonClients;
  /** Agents that linked this one: its own lists only (one level deep). */
  private readonly agents: JsonClients;
  private version = 0;
  private poll: NodeJS.Timeout | null = null;
  private pending: NodeJS.Timeout | null = null;
  private readonly onChange = () => this.scheduleBroadcast();

  constructor(
    private readonly tabs: TabService,
    private readonly outside: OutsideSessions,
    private readonly machines: MachineUnion,
    private readonly log: Logger,
    private readonly pollMs: number,
    clientOptions: JsonClientOptions,
  ) {
    this.clients = new JsonClients(clientOptions);
    this.agents = new JsonClients(clientOptions);
    tabs.on('change', this.onChange);
    outside.on('change', this.onChange);
    machines.on('sync', this.onChange);
  }

  accept(ws: WebSocket, ctx: ChannelContext): void {
    const linked = seesLinkedMachines(ctx.device);
    const client = (linked ? this.clients : this.agents).join(ws, () => [JSON.stringify(this.snapshot(linked))], () => this.stopPollingIfUnwatched(), ctx.socket);
    ws.on('message', (data, isBinary) => {
      if (!parseClientMessage(SyncClientMessage, data, isBinary)) {
        client.send(JSON.stringify({ type: 'sync:error', message: 'expected {"type":"sync:request"}' }));
        return;
      }
      client.sendSnapshot();
    });
    this.ensurePolling();
    void this.tabs.refreshPanes().catch((err: Error) => this.log.warn('pane refresh failed', { error: err.message }));
  }

  private stopPollingIfUnwatched(): void {
    if (this.clients.size + this.agents.size === 0 && this.poll) {
      clearInterval(this.poll);
      this.poll = null;
    }
  }

  private ensurePolling(): void {
    if (this.poll) return;
    this.poll = setInterval(() => {
      this.tabs.refreshPanes().catch((err: Error) => this.log.warn('pane refresh failed', { error: err.message }));
    }, this.pollMs);
  }

  /** With the linked machines' after this agent's own, or this agent's alone. */
  private snapshot(linked: boolean): SyncServerMessage {
    return {
      type: 'sync:snapshot',
      version: this.version,
      workspaces: [...this.tabs.views(), ...(linked ? this.machines.workspaces() : [])],
      outside: [...this.outside.views(), ...(linked ? this.machines.outside() : [])],
      machines: linked ? this.machines.machines() : [],
    };
  }

  /** Changes often come in bursts (a workspace closing its tabs); send one snapshot. */
  private scheduleBroadcast(): void {
    this.version++;
    if (this.pending || this.clients.size + this.agents.size === 0) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      if (this.clients.size > 0) this.clients.broadcast(JSON.stringify(this.snapshot(true)));
      if (this.agents.size > 0) this.agents.broadcast(JSON.stringify(this.snapshot(false)));
    }, 10);
  }

  dispose(): void {
    this.tabs.off('change', this.onChange);
    this.outside.off('change', this.onChange);
    this.machines.off('sync', this.onChange);
    if (this.poll) clearInterval(this.poll);
    if (this.pending) clearTimeout(this.pending);
    this.clients.closeAll();
    this.agents.closeAll();
  }
}

export const syncChannel: ChannelDefinition = {
  path: CHANNEL_PATHS.sync,
  caps: 'shared',
  open: (s) => new SyncChannel(s.tabs, s.outside, s.union, s.log, s.config.titlePollMs, jsonClientOptions(s.config)),
};
