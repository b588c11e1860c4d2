import { HEARTBEAT_INTERVAL_MS, HEARTBEAT_TIMEOUT_MS } from '../../protocol/limits.js';
import { decodeFrame, encodeFrame, FrameType, type TerminalFrame } from '../../protocol/terminal-frame.js';
import { CHANNEL_PATHS } from '../core/api.js';
import { type ConnectionState, ReconnectingSocket } from '../core/reconnecting-socket.js';
import { type Disposable, DisposableStore, toDisposable } from './disposables.js';

/**
 * After the page was hidden or the network came back, a socket silent for longer than a
 * heartbeat plus slack has probably died without telling anyone.
 */
const STALE_MS = HEARTBEAT_INTERVAL_MS + 10_000;

export interface TerminalConnectionOptions {
  tabId: string;
  /** The terminal's size now; sent with every (re)connect so tmux draws at the right size. */
  size(): { cols: number; rows: number };
  /** `afterReconnect` is true for the first output of a new socket that replaced a lost one. */
  onOutput(data: Uint8Array, afterReconnect: boolean): void;
  onState(state: ConnectionState): void;
}

/**
 * The `/api/terminal` socket of one tab, on top of the reconnecting socket: binary frames,
 * heartbeats and a silence timeout, and the terminal's size on every (re)connect.
 */
export class TerminalConnection implements Disposable {
  private readonly socket: ReconnectingSocket;
  private readonly store = new DisposableStore();
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;
  /** The size the current socket's URL asked for. */
  private connectedSize = { cols: 0, rows: 0 };
  /** Set once a socket has carried a message; later sockets are reconnects. */
  private hadSession = false;
  /** Whether the current socket replaced one that had a session, until its first output. */
  private redrawPending = false;

  constructor(private readonly opts: TerminalConnectionOptions) {
    this.socket = this.store.add(
      new ReconnectingSocket({
        path: () => {
          this.connectedSize = opts.size();
          const { cols, rows } = this.connectedSize;
          return `${CHANNEL_PATHS.terminal}?${new URLSearchParams({ tab: opts.tabId, cols: String(cols), rows: String(rows) })}`;
        },
        binary: true,
        liveness: { silentLimitMs: STALE_MS },
        onConnecting: () => {
          this.redrawPending = this.hadSession;
        },
        onMessage: (data) => this.receive(data),
        onState: (state) => this.changed(state),
      }),
    );
    const heartbeat = setInterval(() => this.send({ type: FrameType.Heartbeat }), HEARTBEAT_INTERVAL_MS);
    this.store.add(toDisposable(() => clearInterval(heartbeat)));
    this.store.add(toDisposable(() => this.clearSilence()));
  }

  start(): void {
    this.socket.start();
  }

  get isOpen(): boolean {
    return this.socket.isOpen;
  }

  /** Sends a frame if the socket is open; input typed while it is down is dropped, not replayed later. */
  send(frame: TerminalFrame): boolean {
    // encodeFrame always allocates a fresh ArrayBuffer, never a shared one.
    return this.socket.send(encodeFrame(frame) as Uint8Array<ArrayBuffer>);
  }

  /** Skips the remaining backoff wait (the person pressed "retry"). */
  reconnectNow(): void {
    this.socket.reconnectNow();
  }

  private changed(state: ConnectionState): void {
    if (state.kind === 'open') {
      this.armSilence();
      // The size may have changed while the socket was connecting.
      const now = this.opts.size();
      if (now.cols !== this.connectedSize.cols || now.rows !== this.connectedSize.rows) this.send({ type: FrameType.Resize, ...now });
    } else {
      this.clearSilence();
    }
    this.opts.onState(state);
  }

  private receive(data: unknown): void {
    this.armSilence();
    this.hadSession = true;
    if (!(data instanceof ArrayBuffer)) return;
    const decoded = decodeFrame(new Uint8Array(data));
    if (!decoded.ok) {
      console.warn('pocketmux: ignored a malformed frame from the agent:', decoded.error.message);
      return;
    }
    if (decoded.frame.type === FrameType.Stdout) {
      this.opts.onOutput(decoded.frame.data, this.redrawPending);
      this.redrawPending = false;
    }
  }

  private armSilence(): void {
    this.clearSilence();
    this.silenceTimer = setTimeout(() => {
      this.silenceTimer = null;
      this.socket.restart('no message from the agent');
    }, HEARTBEAT_TIMEOUT_MS);
  }

  private clearSilence(): void {
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
  }

  dispose(): void {
    this.store.dispose();
  }
}
