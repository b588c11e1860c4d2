import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { WorkspaceView } from '../../protocol/api.js';
import type { SyncClientMessage, SyncServerMessage } from '../../protocol/sync.js';
import { type LiveState, LiveSocket } from './live-socket.js';

export type SyncState = LiveState;

function isSnapshot(value: unknown): value is SyncServerMessage {
  const v = value as Partial<SyncServerMessage> | null;
  return !!v && v.type === 'sync:snapshot' && typeof v.version === 'number' && Array.isArray(v.workspaces);
}

/**
 * Keeps the workspace list live from `/api/sync`: the agent sends a full snapshot on connect
 * and on every change. Reconnects with backoff when the socket drops, until access is lost.
 */
export class SyncController implements ReactiveController {
  workspaces: WorkspaceView[] = [];
  /** False until the first snapshot arrives, so the list can tell "empty" from "not loaded". */
  loaded = false;

  private version = -1;
  private readonly live = new LiveSocket('/api/sync', {
    // Versions count within one agent process; a restarted agent starts again from 0.
    onConnecting: () => {
      this.version = -1;
    },
    onMessage: (data) => this.receive(data),
    onState: () => this.host.requestUpdate(),
    probe: () => JSON.stringify({ type: 'sync:request' } satisfies SyncClientMessage),
  });

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  get state(): SyncState {
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

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let msg: unknown;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (!isSnapshot(msg)) return;
    // Snapshots carry the agent's version; an older one must not undo a newer one.
    if (msg.version < this.version) return;
    this.version = msg.version;
    this.workspaces = msg.workspaces;
    this.loaded = true;
    this.host.requestUpdate();
  }
}
