import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { WorkspaceView } from '../../protocol/api.js';
import type { SyncClientMessage, SyncServerMessage } from '../../protocol/sync.js';
import { accessEndedBy } from './access.js';
import { websocketUrl } from './api.js';
import { Backoff } from './backoff.js';

const PROBE_TIMEOUT_MS = 5_000;

export type SyncState = 'connecting' | 'online' | 'reconnecting';

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
  state: SyncState = 'connecting';

  private version = -1;
  private socket: WebSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private readonly backoff = new Backoff();
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private readonly onWake = () => {
    if (!this.running) return;
    if (this.socket?.readyState === WebSocket.OPEN) this.probe();
    else if (this.timer) this.connect();
  };
  private readonly onVisibility = () => {
    if (document.visibilityState === 'visible') this.onWake();
  };

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    window.addEventListener('online', this.onWake);
    document.addEventListener('visibilitychange', this.onVisibility);
    this.connect();
  }

  stop(): void {
    this.running = false;
    window.removeEventListener('online', this.onWake);
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.clearTimer();
    this.drop();
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

  private connect(): void {
    this.clearTimer();
    this.drop();
    const ws = new WebSocket(websocketUrl('/api/sync'));
    this.socket = ws;
    // Versions count within one agent process; a restarted agent starts again from 0.
    this.version = -1;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.backoff.reset();
      this.setState('online');
    };
    ws.onmessage = (ev) => {
      this.clearWatchdog();
      if (typeof ev.data !== 'string') return;
      let msg: unknown;
      try {
        msg = JSON.parse(ev.data);
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
    };
    ws.onclose = (ev) => {
      if (this.socket !== ws) return;
      this.socket = null;
      if (!this.running) return;
      // A revoked device must not knock again; the app shows the pair screen instead.
      if (accessEndedBy(ev, opened)) {
        this.stop();
        return;
      }
      this.setState('reconnecting');
      this.timer = setTimeout(() => this.connect(), this.backoff.next());
    };
  }

  /**
   * After the page was hidden (a phone asleep) an open socket may be dead without knowing it.
   * Ask for a snapshot; no answer within a few seconds means start over.
   */
  private probe(): void {
    const ws = this.socket;
    if (!ws || this.watchdog) return;
    ws.send(JSON.stringify({ type: 'sync:request' } satisfies SyncClientMessage));
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (this.socket === ws) {
        this.setState('reconnecting');
        this.connect();
      }
    }, PROBE_TIMEOUT_MS);
  }

  private clearWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  private drop(): void {
    this.clearWatchdog();
    const ws = this.socket;
    this.socket = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private setState(state: SyncState): void {
    if (this.state === state) return;
    this.state = state;
    this.host.requestUpdate();
  }
}
