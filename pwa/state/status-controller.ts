import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { StatusClientMessage } from '../../protocol/status-client.js';
import { CLAUDE_STATES, type StatusServerMessage, type TabStatus } from '../../protocol/status.js';
import { accessEndedBy } from './access.js';
import { websocketUrl } from './api.js';
import { Backoff } from './backoff.js';

const PROBE_TIMEOUT_MS = 5_000;

export type StatusConnectionState = 'connecting' | 'online' | 'reconnecting';

/** Claude sessions the agent saw outside its own tabs; the list has no place for them yet. */
const UNMANAGED_PREFIX = 'unmanaged-';

function isTabStatus(value: unknown): value is TabStatus {
  const v = value as Partial<TabStatus> | null;
  return (
    !!v &&
    typeof v.seq === 'number' &&
    typeof v.claudeRunning === 'boolean' &&
    typeof v.compacting === 'boolean' &&
    (CLAUDE_STATES as readonly unknown[]).includes(v.state)
  );
}

function parseMessage(data: unknown): StatusServerMessage | null {
  if (typeof data !== 'string') return null;
  let msg: Partial<StatusServerMessage> | null;
  try {
    msg = JSON.parse(data) as Partial<StatusServerMessage> | null;
  } catch {
    return null;
  }
  if (!msg || typeof msg !== 'object') return null;
  switch (msg.type) {
    case 'status:sync':
      return msg.tabs && typeof msg.tabs === 'object' ? (msg as StatusServerMessage) : null;
    case 'status:update':
      return typeof msg.tabId === 'string' && isTabStatus(msg.status) ? (msg as StatusServerMessage) : null;
    case 'status:hook-event':
    case 'status:error':
      return msg as StatusServerMessage;
    default:
      return null;
  }
}

/**
 * Keeps every tab's Claude status live from `/api/status`: a full sync on connect, then
 * updates. Reconnects with backoff, and asks for a fresh sync whenever the page comes back
 * into view, so a phone woken from sleep never shows a stale badge.
 */
export class StatusController implements ReactiveController {
  /** Replaced (never mutated) on every change, so elements given it see a new value. */
  statuses: Readonly<Record<string, TabStatus>> = {};
  loaded = false;
  state: StatusConnectionState = 'connecting';

  private socket: WebSocket | null = null;
  /** True once the current socket delivered its first sync. */
  private synced = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private readonly backoff = new Backoff();
  /** The tab on screen, and whether its opening was already acted on. */
  private viewing: { tabId: string; handled: boolean } | null = null;
  private readonly onWake = () => {
    if (!this.running) return;
    if (this.socket?.readyState === WebSocket.OPEN) this.requestSync();
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

  hostDisconnected(): void {
    this.stop();
  }

  get(tabId: string): TabStatus | undefined {
    return this.statuses[tabId];
  }

  /** Statuses of the agent's own tabs, without Claude sessions it found elsewhere. */
  managed(): [string, TabStatus][] {
    return Object.entries(this.statuses).filter(([key]) => !key.startsWith(UNMANAGED_PREFIX));
  }

  /**
   * The person opened a tab (or left every tab, with null). Opening a tab that is ready for
   * review means they have seen the result; if its status is not known yet (the page was
   * loaded on that tab), that is decided when the sync arrives.
   */
  setViewing(tabId: string | null): void {
    if (tabId === this.viewing?.tabId) return;
    this.viewing = tabId === null ? null : { tabId, handled: false };
    this.settleViewing();
  }

  private settleViewing(): void {
    const v = this.viewing;
    if (!v || v.handled || !this.synced || this.socket?.readyState !== WebSocket.OPEN) return;
    v.handled = true;
    if (this.statuses[v.tabId]?.state === 'ready-for-review') this.send({ type: 'status:tab-dismissed', tabId: v.tabId });
  }

  private connect(): void {
    this.clearTimer();
    this.drop();
    const ws = new WebSocket(websocketUrl('/api/status'));
    this.socket = ws;
    this.synced = false;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.backoff.reset();
      this.setState('online');
    };
    ws.onmessage = (ev) => {
      this.clearWatchdog();
      const msg = parseMessage(ev.data);
      if (msg) this.receive(msg);
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

  private receive(msg: StatusServerMessage): void {
    switch (msg.type) {
      case 'status:sync': {
        const next: Record<string, TabStatus> = {};
        for (const [key, status] of Object.entries(msg.tabs)) {
          if (!isTabStatus(status)) continue;
          const shown = this.statuses[key];
          // A sync answered on a live socket can cross an update already shown; a new
          // socket's first sync is the agent's word and replaces everything.
          next[key] = this.synced && shown && shown.seq > status.seq ? shown : status;
        }
        this.statuses = next;
        this.synced = true;
        this.loaded = true;
        this.settleViewing();
        this.host.requestUpdate();
        return;
      }
      case 'status:update': {
        const shown = this.statuses[msg.tabId];
        // seq counts hook events only; a dismissal or a recovery moves the state at the same
        // seq, so only a strictly older update is stale.
        if (shown && msg.status.seq < shown.seq) return;
        this.statuses = { ...this.statuses, [msg.tabId]: msg.status };
        this.host.requestUpdate();
        return;
      }
      case 'status:error':
        console.warn('pocketmux: the status channel refused a message:', msg.message);
        return;
      case 'status:hook-event':
        return;
    }
  }

  private requestSync(): void {
    const ws = this.socket;
    if (!ws || this.watchdog) return;
    this.send({ type: 'status:request-sync' });
    // A socket that slept with the phone may be dead without knowing it: no answer, start over.
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (this.socket === ws) {
        this.setState('reconnecting');
        this.connect();
      }
    }, PROBE_TIMEOUT_MS);
  }

  private send(msg: StatusClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(msg));
  }

  private clearWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  private drop(): void {
    this.clearWatchdog();
    const ws = this.socket;
    this.socket = null;
    this.synced = false;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private setState(state: StatusConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.host.requestUpdate();
  }
}
