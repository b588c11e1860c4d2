import type { WebSocket } from 'ws';
import { StatusClientMessage } from '../../protocol/status-client.js';
import type { StatusServerMessage } from '../../protocol/status.js';
import type { StatusManager } from './status-manager.js';

/**
 * `/api/status`: a full snapshot on connect (and on request), then every update and hook
 * event as it happens. A reconnecting client resyncs, so it never shows a stale badge.
 */
export class StatusHub {
  private readonly clients = new Set<WebSocket>();

  constructor(private readonly status: StatusManager) {
    status.on('message', (msg) => this.broadcast(msg));
  }

  add(ws: WebSocket): void {
    this.clients.add(ws);
    this.send(ws, { type: 'status:sync', tabs: this.status.snapshot() });
    ws.on('message', (data, isBinary) => {
      let raw: unknown;
      try {
        raw = isBinary ? undefined : JSON.parse(String(data));
      } catch {
        raw = undefined;
      }
      const parsed = StatusClientMessage.safeParse(raw);
      if (!parsed.success) {
        this.send(ws, { type: 'status:error', message: 'expected status:request-sync, status:tab-dismissed or status:ack-notification' });
        return;
      }
      const msg = parsed.data;
      if (msg.type === 'status:request-sync') this.send(ws, { type: 'status:sync', tabs: this.status.snapshot() });
      else if (msg.type === 'status:tab-dismissed') {
        if (this.status.get(msg.tabId)) this.status.apply(msg.tabId, { kind: 'dismissed', at: Date.now() });
      }
      // status:ack-notification is accepted; notifications arrive with Web Push (a later step).
    });
    const drop = () => this.clients.delete(ws);
    ws.on('close', drop);
    ws.on('error', drop);
  }

  private broadcast(msg: StatusServerMessage): void {
    const text = JSON.stringify(msg);
    for (const ws of this.clients) if (ws.readyState === ws.OPEN) ws.send(text);
  }

  private send(ws: WebSocket, msg: StatusServerMessage): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
  }

  close(): void {
    for (const ws of this.clients) ws.close(1001, 'agent shutting down');
    this.clients.clear();
  }
}
