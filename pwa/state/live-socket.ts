import { accessEndedBy } from './access.js';
import { websocketUrl } from './api.js';
import { Backoff } from './backoff.js';

const PROBE_TIMEOUT_MS = 5_000;

export type LiveState = 'connecting' | 'online' | 'reconnecting';

export interface LiveSocketHandlers {
  /** A new socket is being opened: forget whatever belonged to the last one. */
  onConnecting(): void;
  onMessage(data: unknown): void;
  onState(state: LiveState): void;
  /** A message whose answer proves an open socket still lives (after the page slept). */
  probe(): string;
}

/**
 * One JSON WebSocket of the agent kept alive: reconnects with backoff when it drops, wakes
 * up when the page becomes visible or the network returns, probes a socket that may have
 * died while a phone slept, and stops for good when access is lost (a revoked device must
 * not knock again; the app shows the pair screen instead).
 */
export class LiveSocket {
  state: LiveState = 'connecting';

  private socket: WebSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private readonly backoff = new Backoff();
  private readonly onWake = () => {
    if (!this.running) return;
    if (this.open) this.probe();
    else if (this.timer) this.connect();
  };
  private readonly onVisibility = () => {
    if (document.visibilityState === 'visible') this.onWake();
  };

  constructor(
    private readonly path: string,
    private readonly handlers: LiveSocketHandlers,
  ) {}

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
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

  /** Sends when open; a closed socket resyncs on reconnect anyway. */
  send(text: string): void {
    if (this.open) this.socket?.send(text);
  }

  /** Asks for an answer now; none within a few seconds means start over. */
  probe(): void {
    const ws = this.socket;
    if (!ws || this.watchdog) return;
    this.send(this.handlers.probe());
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (this.socket === ws) {
        this.setState('reconnecting');
        this.connect();
      }
    }, PROBE_TIMEOUT_MS);
  }

  private connect(): void {
    this.clearTimer();
    this.drop();
    const ws = new WebSocket(websocketUrl(this.path));
    this.socket = ws;
    this.handlers.onConnecting();
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.backoff.reset();
      this.setState('online');
    };
    ws.onmessage = (ev) => {
      this.clearWatchdog();
      this.handlers.onMessage(ev.data);
    };
    ws.onclose = (ev) => {
      if (this.socket !== ws) return;
      this.socket = null;
      if (!this.running) return;
      if (accessEndedBy(ev, opened)) {
        this.stop();
        return;
      }
      this.setState('reconnecting');
      this.timer = setTimeout(() => this.connect(), this.backoff.next());
    };
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

  private setState(state: LiveState): void {
    if (this.state === state) return;
    this.state = state;
    this.handlers.onState(state);
  }
}
