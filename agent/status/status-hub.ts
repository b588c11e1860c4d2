import type { WebSocket } from 'ws';
import { StatusClientMessage } from '../../protocol/status-client.js';
import type { StatusServerMessage } from '../../protocol/status.js';
import { JsonClient, type JsonClientOptions } from '../channels/json-client.js';
import type { StatusManager } from './status-manager.js';

/**
 * `/api/status`: a full snapshot on connect (and on request), then every update and hook
 * event as it happens. A reconnecting client resyncs, so it never shows a stale badge.
 */
export class StatusHub {
  private readonly clients = new Set<JsonClient>();

  constructor(
    private readonly status: StatusManager,
    private readonly channel: JsonClientOptions,
  ) {
    status.on('message', (msg) => this.broadcast(msg));
  }

  add(ws: WebSocket): void {
    // A snapshot, not the updates missed, is what a client behind gets: no update is lost.
    const client = new JsonClient(ws, () => [JSON.stringify(this.sync())], this.channel);
    this.clients.add(client);
    client.sendSnapshot();
    ws.on('message', (data, isBinary) => {
      let raw: unknown;
      try {
        raw = isBinary ? undefined : JSON.parse(String(data));
      } catch {
        raw = undefined;
      }
      const parsed = StatusClientMessage.safeParse(raw);
      if (!parsed.success) {
        this.send(client, { type: 'status:error', message: 'expected status:request-sync, status:tab-dismissed or status:ack-notification' });
        return;
      }
      const msg = parsed.data;
      if (msg.type === 'status:request-sync') client.sendSnapshot();
      else if (msg.type === 'status:tab-dismissed') {
        if (this.status.get(msg.tabId)) this.status.apply(msg.tabId, { kind: 'dismissed', at: Date.now() });
      }
      // status:ack-notification is accepted; notifications arrive with Web Push (a later step).
    });
    const drop = () => this.clients.delete(client);
    ws.on('close', drop);
    ws.on('error', drop);
  }

  private broadcast(msg: StatusServerMessage): void {
    const text = JSON.stringify(msg);
    for (const client of this.clients) client.send(text);
  }

  private sync(): StatusServerMessage {
    return { type: 'status:sync', tabs: this.status.snapshot() };
  }

  private send(client: JsonClient, msg: StatusServerMessage): void {
    client.send(JSON.stringify(msg));
  }

  close(): void {
    for (const client of this.clients) client.close(1001, 'agent shutting down');
    this.clients.clear();
  }
}
