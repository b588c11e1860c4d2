import type { ReactiveControllerHost } from 'lit';
import type { WorkspaceView } from '../../protocol/api.js';
import type { MachineSummary } from '../../protocol/machine-key.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { SyncServerMessageSchema } from '../../protocol/sync-server.js';
import type { SyncClientMessage, SyncServerMessage } from '../../protocol/sync.js';
import { CHANNEL_PATHS } from '../core/api.js';
import { JsonChannelController } from '../core/json-channel-controller.js';
import { setMachines } from '../core/labels.js';

/**
 * Keeps the workspace list, and the Claude sessions started outside pocketmux, live from
 * `/api/sync`: the agent sends a full snapshot on connect and on every change. Reconnects with
 * backoff when the socket drops, until access is lost.
 */
export class SyncController extends JsonChannelController<SyncServerMessage> {
  workspaces: WorkspaceView[] = [];
  /** Claude sessions reporting from outside the tabs, first heard of first; none from an older agent. */
  outside: OutsideSessionView[] = [];
  /** The machines this agent links, and whether each answers. */
  machines: MachineSummary[] = [];
  /** False until the first snapshot arrives, so the list can tell "empty" from "not loaded". */
  loaded = false;

  private version = -1;

  constructor(host: ReactiveControllerHost) {
    super(host, {
      path: CHANNEL_PATHS.sync,
      name: 'sync',
      schema: SyncServerMessageSchema,
      requestFullState: JSON.stringify({ type: 'sync:request' } satisfies SyncClientMessage),
    });
  }

  tab(tabId: string) {
    for (const ws of this.workspaces) {
      const tab = ws.tabs.find((t) => t.id === tabId);
      if (tab) return { workspace: ws, tab };
    }
    return undefined;
  }

  /** A Claude session outside the tabs, by its key (`outside-<session id>`). */
  outsideSession(key: string): OutsideSessionView | undefined {
    return this.outside.find((s) => s.key === key);
  }

  /** Versions count within one agent process; a restarted agent starts again from 0. */
  protected connecting(): void {
    this.version = -1;
  }

  protected receive(msg: SyncServerMessage): void {
    // Snapshots carry the agent's version; an older one must not undo a newer one.
    if (msg.version < this.version) return;
    this.version = msg.version;
    this.workspaces = msg.workspaces;
    this.outside = msg.outside;
    this.machines = msg.machines;
    setMachines(msg.machines);
    this.loaded = true;
    this.host.requestUpdate();
  }
}
