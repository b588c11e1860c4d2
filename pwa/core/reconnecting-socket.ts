import { CloseCode, FINAL_CLOSE_CODES } from '../../protocol/close-codes.js';
import { checkAccess } from './access.js';
import { reportAccessLost } from './access-lost.js';
import { Backoff } from './backoff.js';
import { ProvenSocket } from './proven-socket.js';

/** Where a live channel's socket stands. Every channel speaks it; views map it to words. */
export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'open' }
  /**
   * Dropped; attempts go on with backoff until one opens. `failures` counts attempts in a row
   * on which the agent said nothing: an agent without the route, or down.
   */
  | { kind: 'reconnecting'; failures: number }
  /** The agent closed with a code after which reconnecting cannot help (`FINAL_CLOSE_CODES`). */
  | { kind: 'closed-final'; code: number; reason: string }
  /** This device was revoked; the app goes back to pairing and nothing knocks again. */
  | { kind: 'access-lost' };

export type ConnectionKind = ConnectionState['kind'];

/** What a socket's close code says to do next. */
export function closeVerdict(code: number): 'access-lost' | 'final' | 'retry' {
  if (code === CloseCode.DeviceRevoked) return 'access-lost';
  return FINAL_CLOSE_CODES.has(code) ? 'final' : 'retry';
}

export type SocketData = string | Uint8Array<ArrayBuffer>;

/** The part of a browser WebSocket this module drives. */
export interface SocketLike {
  readonly readyState: number;
  binaryType: BinaryType;
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  send(data: SocketData): void;
  close(code?: number, reason?: string): void;
}

// WebSocket.CONNECTING and WebSocket.OPEN, without needing the global to exist.
const CONNECTING = 0;
const OPEN = 1;

/** The page around a socket: where sockets come from, when the page wakes, whom to tell about access. */
export interface SocketEnvironment {
  open(path: string): SocketLike;
  /**
   * Calls `wake` when the page comes back into view (with how long it was hidden) or the
   * network returns (with 0); returns the way to stop.
   */
  watchWake(wake: (awayMs: number) => void): () => void;
  /** A refused WebSocket upgrade looks like any network failure to the page; the REST API tells why. */
  checkAccess(): void;
  reportAccessLost(): void;
}

export const browserEnvironment: SocketEnvironment = {
  open: (path) => new ProvenSocket(path),
  watchWake(wake) {
    let hiddenAt = document.visibilityState === 'hidden' ? Date.now() : null;
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        hiddenAt ??= Date.now();
        return;
      }
      const away = hiddenAt === null ? 0 : Date.now() - hiddenAt;
      hiddenAt = null;
      wake(away);
    };
    const onOnline = () => wake(0);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('online', onOnline);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('online', onOnline);
    };
  },
  checkAccess: () => void checkAccess(),
  reportAccessLost,
};

/**
 * How a socket that looks open proves, after the page slept or the network came back, that it
 * did not die without telling anyone.
 */
export type Liveness =
  /** The agent answers this message at once: send it, and start over when no answer comes. */
  | { probe: () => SocketData }
  /** The agent speaks at least this often (heartbeats): a longer silence means the socket died. */
  | { silentLimitMs: number }
  /** Nothing proves the socket lives: start over after the page was hidden this long. */
  | { awayLimitMs: number };

/** How long a probe waits for its answer. */
export const PROBE_TIMEOUT_MS = 5_000;

export interface ReconnectingSocketOptions {
  /** The agent path to open, asked before every attempt (the terminal puts its size in it). */
  path(): string;
  /** Receive binary messages as ArrayBuffers. */
  binary?: boolean;
  liveness: Liveness;
  /** A new socket is being opened: forget whatever belonged to the last one. */
  onConnecting?(): void;
  onMessage(data: unknown): void;
  onState(state: ConnectionState): void;
  environment?: SocketEnvironment;
}

/**
 * One socket to the agent kept alive: reconnects with backoff when it drops, tries again at once
 * when the page comes back into view or the network returns, proves a socket that may have died
 * while a phone slept, and stops for good on a final close code or when access is lost (a revoked
 * device must not knock again). Stopped, it can be started again.
 */
export class ReconnectingSocket {
  private current: ConnectionState = { kind: 'connecting' };
  private socket: SocketLike | null = null;
  private running = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private probeTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly backoff = new Backoff();
  private failures = 0;
  private lastMessageAt = 0;
  private stopWatching: (() => void) | null = null;
  private readonly env: SocketEnvironment;

  constructor(private readonly options: ReconnectingSocketOptions) {
    this.env = options.environment ?? browserEnvironment;
  }

  get state(): ConnectionState {
    return this.current;
  }

  get isOpen(): boolean {
    return this.current.kind === 'open' && this.socket?.readyState === OPEN;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    this.backoff.reset();
    this.stopWatching = this.env.watchWake((awayMs) => this.wake(awayMs));
    this.current = { kind: 'connecting' };
    this.options.onState(this.current);
    this.connect();
  }

  stop(): void {
    this.halt();
    this.drop(1000, 'closed');
  }

  dispose(): void {
    this.stop();
  }

  /** Sends if the socket is open; what is sent while it is down is dropped, not replayed later. */
  send(data: SocketData): boolean {
    if (!this.isOpen) return false;
    this.socket?.send(data);
    return true;
  }

  /** Skips the remaining backoff wait (the person pressed "retry"). */
  reconnectNow(): void {
    if (this.running && !this.isOpen) this.connect();
  }

  /** Replaces a socket presumed dead at once, without waiting for its close to come through. */
  restart(reason: string): void {
    if (!this.running) return;
    this.drop(4000, reason);
    this.setState({ kind: 'reconnecting', failures: this.failures });
    this.connect();
  }

  private wake(awayMs: number): void {
    if (!this.running) return;
    if (this.retryTimer) {
      this.connect();
      return;
    }
    if (!this.isOpen) return;
    const liveness = this.options.liveness;
    if ('probe' in liveness) {
      this.probe(liveness.probe());
      return;
    }
    const stale = 'silentLimitMs' in liveness ? Date.now() - this.lastMessageAt > liveness.silentLimitMs : awayMs > liveness.awayLimitMs;
    if (stale) this.restart('stale after sleep');
  }

  private probe(message: SocketData): void {
    const ws = this.socket;
    if (!ws || this.probeTimer) return;
    ws.send(message);
    this.probeTimer = setTimeout(() => {
      this.probeTimer = null;
      if (this.socket === ws) this.restart('no answer to a probe');
    }, PROBE_TIMEOUT_MS);
  }

  private connect(): void {
    this.clearRetry();
    this.drop(1000, 'replaced');
    const ws = this.env.open(this.options.path());
    if (this.options.binary) ws.binaryType = 'arraybuffer';
    this.socket = ws;
    this.options.onConnecting?.();
    let opened = false;
    let heard = false;
    ws.onopen = () => {
      opened = true;
      this.lastMessageAt = Date.now();
      this.setState({ kind: 'open' });
    };
    ws.onmessage = (ev) => {
      this.lastMessageAt = Date.now();
      this.clearProbe();
      if (!heard) {
        heard = true;
        // The agent accepted this socket (an upgrade can open and still fail, as a terminal
        // whose attach fails): only now does a later drop start over from the shortest wait.
        this.failures = 0;
        this.backoff.reset();
      }
      this.options.onMessage(ev.data);
    };
    ws.onclose = (ev) => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.clearProbe();
      if (!this.running) return;
      if (!heard) this.failures++;
      const verdict = closeVerdict(ev.code);
      if (verdict === 'access-lost') {
        this.halt();
        this.setState({ kind: 'access-lost' });
        this.env.reportAccessLost();
        return;
      }
      if (!opened) this.env.checkAccess();
      if (verdict === 'final') {
        this.halt();
        this.setState({ kind: 'closed-final', code: ev.code, reason: ev.reason });
        return;
      }
      this.setState({ kind: 'reconnecting', failures: this.failures });
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.connect();
      }, this.backoff.next());
    };
  }

  /** Stops every timer and listener; the socket itself is left to the caller. */
  private halt(): void {
    this.running = false;
    this.stopWatching?.();
    this.stopWatching = null;
    this.clearRetry();
    this.clearProbe();
  }

  /** Forgets the current socket at once; its close handshake may never finish on a dead network. */
  private drop(code: number, reason: string): void {
    this.clearProbe();
    const ws = this.socket;
    this.socket = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    if (ws.readyState === OPEN || ws.readyState === CONNECTING) ws.close(code, reason);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private clearProbe(): void {
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  private setState(state: ConnectionState): void {
    if (JSON.stringify(state) === JSON.stringify(this.current)) return;
    this.current = state;
    this.options.onState(state);
  }
}
