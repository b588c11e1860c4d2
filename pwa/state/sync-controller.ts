import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { WorkspaceView } from '../../protocol/api.js';
import { SyncServerMessageSchema } from '../../protocol/sync-server.js';
import type { SyncClientMessage, SyncServerMessage } from '../../protocol/sync.js';
import { type ConnectionState, ReconnectingSocket } from './reconnecting-socket.js';
import { parseServerMessage } from './server-message.js';

/**
 * Keeps the workspace list live from `/api/sync`: the agent sends a full snapshot on connect
 * and on every change. Reconnects with backoff when the socket drops, until access is lost.
 */
export class SyncController implements ReactiveController {
  workspaces: WorkspaceView[] = [];
  /** False until the first snapshot arrives, so the list can tell "empty" from "not loaded". */
  loaded = false;

  private version = -1;
  private readonly live = new ReconnectingSocket({
    path: () => '/api/sync',
    liveness: { probe: () => JSON.stringify({ type: 'sync:request' } satisfies SyncClientMessage) },
    // Versions count within one agent process; a restarted agent starts again from 0.
    onConnecting: () => {
      this.version = -1;
    },
    onMessage: (data) => {
      const msg = parseServerMessage(SyncServerMessageSchema, data, 'sync');
      if (msg) this.receive(msg);
    },
    onState: () => this.host.requestUpdate(),
  });

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  get state(): ConnectionState {
    return this.live.state;
  }

  start(): void {
    this.live.start();
  }

  stop(): void {
    this.live.stop();
  }

  tab(tabId: string) {
    for (const ws of this.workspaces) {
      const tab = ws.tabs.find((t) => t.id === tabId);
      if (tab) return { workspace: ws, tab };
    }
    return undefined;
  }

  hostDisconnected(): void {
    this.stop();
  }

  private receive(msg: SyncServerMessage): void {
    // Snapshots carry the agent's version; an older one must not undo a newer one.
    if (msg.version < this.version) return;
    this.version = msg.version;
    this.workspaces = msg.workspaces;
    this.loaded = true;
    this.host.requestUpdate();
  }
}
