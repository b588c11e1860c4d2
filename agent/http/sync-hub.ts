import type { WebSocket } from 'ws';
import { SyncClientMessage, type SyncServerMessage } from '../../protocol/sync.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Logger } from '../util/log.js';

/**
 * `/api/sync`: every client gets the workspace list on connect and again on every change.
 * While anyone watches, pane titles are polled so tab labels follow the shell live.
 */
export class SyncHub {
  private readonly clients = new Set<WebSocket>();
  private version = 0;
  private poll: NodeJS.Timeout | null = null;
  private pending: NodeJS.Timeout | null = null;

  constructor(
    private readonly tabs: TabService,
    private readonly log: Logger,
    private readonly pollMs: number,
  ) {
    tabs.on('change', () => this.scheduleBroadcast());
  }

  add(ws: WebSocket): void {
    this.clients.add(ws);
    this.send(ws, this.snapshot());
    ws.on('message', (data, isBinary) => {
      let parsed: unknown;
      try {
        parsed = isBinary ? undefined : JSON.parse(String(data));
      } catch {
        parsed = undefined;
      }
      const msg = SyncClientMessage.safeParse(parsed);
      if (!msg.success) {
        ws.send(JSON.stringify({ type: 'sync:error', message: 'expected {"type":"sync:request"}' }));
        return;
      }
      this.send(ws, this.snapshot());
    });
    ws.on('close', () => this.remove(ws));
    ws.on('error', () => this.remove(ws));
    this.ensurePolling();
    void this.tabs.refreshPanes().catch((err: Error) => this.log.warn('pane refresh failed', { error: err.message }));
  }

  private remove(ws: WebSocket): void {
    this.clients.delete(ws);
    if (this.clients.size === 0 && this.poll) {
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

  private snapshot(): SyncServerMessage {
    return { type: 'sync:snapshot', version: this.version, workspaces: this.tabs.views() };
  }

  /** Changes often come in bursts (a workspace closing its tabs); send one snapshot. */
  private scheduleBroadcast(): void {
    this.version++;
    if (this.pending || this.clients.size === 0) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      const text = JSON.stringify(this.snapshot());
      for (const ws of this.clients) if (ws.readyState === ws.OPEN) ws.send(text);
    }, 10);
  }

  private send(ws: WebSocket, msg: SyncServerMessage): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
  }

  close(): void {
    if (this.poll) clearInterval(this.poll);
    if (this.pending) clearTimeout(this.pending);
    for (const ws of this.clients) ws.close(1001, 'agent shutting down');
    this.clients.clear();
  }
}
