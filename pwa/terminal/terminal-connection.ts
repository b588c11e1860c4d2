import { FINAL_CLOSE_CODES } from '../../protocol/close-codes.js';
import { decodeFrame, encodeFrame, FrameType, type TerminalFrame } from '../../protocol/terminal-frame.js';
import { accessEndedBy } from '../state/access.js';
import { websocketUrl } from '../state/api.js';
import { Backoff } from '../state/backoff.js';
import type { TerminalConnectionState } from './connection-state.js';
import { type Disposable, DisposableStore, toDisposable } from './disposables.js';

/** The agent and the browser each send a heartbeat this often… */
export const HEARTBEAT_MS = 30_000;
/** …and a socket with nothing from the agent for this long is treated as dead. */
export const SILENCE_MS = 90_000;
/**
 * After the page was hidden or the network came back, a socket silent for longer than a
 * heartbeat plus slack has probably died without telling anyone.
 */
const STALE_MS = HEARTBEAT_MS + 10_000;

export interface TerminalConnectionOptions {
  tabId: string;
  /** The terminal's size now; sent with every (re)connect so tmux draws at the right size. */
  size(): { cols: number; rows: number };
  /** `afterReconnect` is true for the first output of a new socket that replaced a lost one. */
  onOutput(data: Uint8Array, afterReconnect: boolean): void;
  onState(state: TerminalConnectionState): void;
}

/**
 * The `/api/terminal` socket of one tab, kept alive: heartbeats, a silence timeout, and
 * reconnects with backoff until the agent says the session is over.
 */
export class TerminalConnection implements Disposable {
  private socket: WebSocket | null = null;
  private state: TerminalConnectionState = { kind: 'connecting' };
  private readonly backoff = new Backoff(500, 10_000);
  private readonly store = new DisposableStore();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;
  private lastMessageAt = 0;
  /** Set once a socket has carried output; later sockets are reconnects. */
  private hadSession = false;

  constructor(private readonly opts: TerminalConnectionOptions) {
    const heartbeat = setInterval(() => this.send({ type: FrameType.Heartbeat }), HEARTBEAT_MS);
    this.store.add(toDisposable(() => clearInterval(heartbeat)));
    this.store.addListener(window, 'online', () => this.wake());
    this.store.addListener(document, 'visibilitychange', () => {
      if (document.visibilityState === 'visible') this.wake();
    });
    this.store.add(
      toDisposable(() => {
        this.clearRetry();
        this.clearSilence();
        this.drop(1000, 'terminal closed');
      }),
    );
  }

  start(): void {
    this.connect();
  }

  get isOpen(): boolean {
    return this.state.kind === 'open' && this.socket?.readyState === WebSocket.OPEN;
  }

  /** Sends a frame if the socket is open; input typed while it is down is dropped, not replayed later. */
  send(frame: TerminalFrame): boolean {
    const ws = this.socket;
    if (!ws || ws.readyState !== WebSocket.OPEN || this.state.kind !== 'open') return false;
    // encodeFrame always allocates a fresh ArrayBuffer, never a shared one.
    ws.send(encodeFrame(frame) as Uint8Array<ArrayBuffer>);
    return true;
  }

  /** Skips the remaining backoff wait (the person pressed "retry", the page came back). */
  reconnectNow(): void {
    if (this.store.isDisposed || this.state.kind === 'ended') return;
    if (this.state.kind === 'reconnecting' || !this.isOpen) this.connect();
  }

  private wake(): void {
    if (this.store.isDisposed || this.state.kind === 'ended') return;
    if (this.retryTimer) {
      this.connect();
    } else if (this.isOpen && Date.now() - this.lastMessageAt > STALE_MS) {
      this.drop(4000, 'stale after sleep');
      this.connect();
    } else {
      this.send({ type: FrameType.Heartbeat });
    }
  }

  private connect(): void {
    this.clearRetry();
    this.drop(1000, 'replaced');
    const { cols, rows } = this.opts.size();
    const query = new URLSearchParams({ tab: this.opts.tabId, cols: String(cols), rows: String(rows) });
    const ws = new WebSocket(websocketUrl(`/api/terminal?${query}`));
    ws.binaryType = 'arraybuffer';
    this.socket = ws;
    let opened = false;
    let received = false;
    let sawOutput = false;
    const isReconnect = this.hadSession;

    ws.onopen = () => {
      opened = true;
      this.lastMessageAt = Date.now();
      this.armSilence();
      this.setState({ kind: 'open' });
      // The size may have changed while the socket was connecting.
      const now = this.opts.size();
      if (now.cols !== cols || now.rows !== rows) this.send({ type: FrameType.Resize, ...now });
    };
    ws.onmessage = (ev: MessageEvent) => {
      this.lastMessageAt = Date.now();
      this.armSilence();
      if (!received) {
        received = true;
        this.hadSession = true;
        // The attach worked; a later drop starts the backoff from its shortest wait.
        this.backoff.reset();
      }
      if (!(ev.data instanceof ArrayBuffer)) return;
      const decoded = decodeFrame(new Uint8Array(ev.data));
      if (!decoded.ok) {
        console.warn('pocketmux: ignored a malformed frame from the agent:', decoded.error.message);
        return;
      }
      if (decoded.frame.type === FrameType.Stdout) {
        this.opts.onOutput(decoded.frame.data, isReconnect && !sawOutput);
        sawOutput = true;
      }
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.clearSilence();
      if (this.store.isDisposed) return;
      // A revoked device must not knock again; the app shows the pair screen instead.
      if (accessEndedBy(ev, opened) || FINAL_CLOSE_CODES.has(ev.code)) {
        this.setState({ kind: 'ended', code: ev.code, reason: ev.reason });
        return;
      }
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    const delay = this.backoff.next();
    this.setState({ kind: 'reconnecting' });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private armSilence(): void {
    this.clearSilence();
    this.silenceTimer = setTimeout(() => {
      this.silenceTimer = null;
      this.drop(4001, 'no message from the agent');
      this.scheduleRetry();
    }, SILENCE_MS);
  }

  /** Forgets the current socket at once; its close handshake may never finish on a dead network. */
  private drop(code: number, reason: string): void {
    const ws = this.socket;
    this.socket = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, reason);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private clearSilence(): void {
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
  }

  private setState(state: TerminalConnectionState): void {
    this.state = state;
    this.opts.onState(state);
  }

  dispose(): void {
    this.store.dispose();
  }
}
