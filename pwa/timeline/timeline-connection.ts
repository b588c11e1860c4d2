import { CloseCode } from '../../protocol/close-codes.js';
import type { TimelineServerMessage } from '../../protocol/timeline.js';
import { accessEndedBy } from '../state/access.js';
import { websocketUrl } from '../state/api.js';
import { Backoff } from '../state/backoff.js';
import { parseTimelineMessage } from './timeline-store.js';

export type TimelineLinkState =
  | { kind: 'connecting' }
  | { kind: 'online' }
  /** `failures` counts attempts in a row that never opened: an agent without the route, or down. */
  | { kind: 'reconnecting'; failures: number }
  /** The tab is gone; trying again cannot help. */
  | { kind: 'gone' }
  /** This device was revoked; the app goes back to pairing. */
  | { kind: 'revoked' };

/** A phone asleep this long may hold a dead socket that does not know it; start over. */
const STALE_AFTER_HIDDEN_MS = 20_000;

/**
 * `/api/timeline?tab=<id>`: each (re)connection starts with a full page, so nothing is
 * lost while the socket was down. Reconnects with backoff until the tab is gone.
 */
export class TimelineConnection {
  private socket: WebSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly backoff = new Backoff(500, 15_000);
  private failures = 0;
  private disposed = false;
  private hiddenAt: number | null = null;
  private readonly onVisibility = () => {
    if (document.visibilityState === 'hidden') {
      this.hiddenAt = Date.now();
      return;
    }
    const slept = this.hiddenAt !== null && Date.now() - this.hiddenAt > STALE_AFTER_HIDDEN_MS;
    this.hiddenAt = null;
    if (this.timer || slept) this.connect();
  };
  private readonly onOnline = () => {
    if (this.timer) this.connect();
  };

  constructor(
    private readonly tabId: string,
    private readonly onMessage: (msg: TimelineServerMessage) => void,
    private readonly onState: (state: TimelineLinkState) => void,
  ) {
    document.addEventListener('visibilitychange', this.onVisibility);
    window.addEventListener('online', this.onOnline);
    this.connect();
  }

  reconnectNow(): void {
    if (!this.disposed) this.connect();
  }

  dispose(): void {
    this.disposed = true;
    document.removeEventListener('visibilitychange', this.onVisibility);
    window.removeEventListener('online', this.onOnline);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.drop();
  }

  private connect(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.drop();
    if (this.failures === 0) this.onState({ kind: 'connecting' });
    const ws = new WebSocket(websocketUrl(`/api/timeline?tab=${encodeURIComponent(this.tabId)}`));
    this.socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.failures = 0;
      this.backoff.reset();
      this.onState({ kind: 'online' });
    };
    ws.onmessage = (ev) => {
      const msg = parseTimelineMessage(ev.data);
      if (msg) this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.socket !== ws) return;
      this.socket = null;
      if (this.disposed) return;
      if (accessEndedBy(ev, opened)) {
        this.onState({ kind: 'revoked' });
        return;
      }
      if (ev.code === CloseCode.TabNotFound || ev.code === CloseCode.SessionEnded) {
        this.onState({ kind: 'gone' });
        return;
      }
      if (!opened) this.failures++;
      this.onState({ kind: 'reconnecting', failures: this.failures });
      this.timer = setTimeout(() => this.connect(), this.backoff.next());
    };
  }

  private drop(): void {
    const ws = this.socket;
    this.socket = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000);
  }
}
