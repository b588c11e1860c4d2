import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { CloseCode } from '../../protocol/close-codes.js';
import type { AgentConfig } from '../config/config.js';

export interface FlowLimits {
  /** Past this many bytes not yet handed to the kernel, the client is behind: it gets nothing more. */
  behindBytes: number;
  /** A client that was behind and is back under this many bytes gets one fresh snapshot. */
  caughtUpBytes: number;
  /** Past this many bytes the client is closed (one huge message can jump past `behindBytes`). */
  closeBytes: number;
  /** A client behind for this long is closed. */
  behindTimeoutMs: number;
}

export const DEFAULT_FLOW_LIMITS: FlowLimits = {
  behindBytes: 1024 * 1024,
  caughtUpBytes: 256 * 1024,
  closeBytes: 8 * 1024 * 1024,
  behindTimeoutMs: 60_000,
};

export interface JsonClientOptions {
  /** How often the client is pinged. */
  heartbeatIntervalMs: number;
  /** A client that answered no ping for this long is taken for gone (half-open) and cut. */
  heartbeatTimeoutMs: number;
  limits?: Partial<FlowLimits>;
}

/** The pings of every JSON channel client, as the agent is configured. */
export function jsonClientOptions(config: Pick<AgentConfig, 'heartbeatIntervalMs' | 'heartbeatTimeoutMs'>): JsonClientOptions {
  return { heartbeatIntervalMs: config.heartbeatIntervalMs, heartbeatTimeoutMs: config.heartbeatTimeoutMs };
}

/**
 * One client of a JSON WebSocket channel (/api/sync, /api/status, /api/timeline), where the
 * agent sends snapshots and updates and the client may ask for a snapshot again.
 *
 * What a client cannot read waits in the agent's memory, so nothing is sent blindly:
 * - a snapshot asked for while another is still on its way (not yet taken by the kernel)
 *   adds nothing: the one on its way answers both requests;
 * - a client whose backlog passes `behindBytes` is behind: its updates are dropped, and
 *   once it has caught up it gets one fresh snapshot instead of everything it missed;
 * - a client past `closeBytes`, or behind for `behindTimeoutMs`, is closed with
 *   `CloseCode.TooSlow` (clients reconnect and start over);
 * - a client that stops answering pings (a phone gone off the network) is cut.
 */
export class JsonClient {
  private readonly limits: FlowLimits;
  private snapshotOnItsWay = false;
  /** Set while the client is behind: fires when it has been behind too long. */
  private behindTimer: NodeJS.Timeout | null = null;
  private readonly heartbeat: NodeJS.Timeout;
  private lastPongAt = Date.now();
  private done = false;
  private corked = false;

  /**
   * @param snapshot the messages (serialized) that bring a client up to date from nothing:
   *   sent on request and after the client was behind.
   */
  constructor(
    readonly ws: WebSocket,
    private readonly snapshot: () => string[],
    options: JsonClientOptions,
    /** The connection under `ws`, when the caller has it: its writes are held together per loop turn. */
    private readonly socket?: Duplex,
  ) {
    this.limits = { ...DEFAULT_FLOW_LIMITS, ...options.limits };
    ws.on('pong', () => {
      this.lastPongAt = Date.now();
    });
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastPongAt > options.heartbeatTimeoutMs) {
        this.dispose();
        this.ws.terminate();
      } else if (this.open) {
        this.ws.ping();
      }
    }, options.heartbeatIntervalMs);
    ws.on('close', () => this.dispose());
  }

  get open(): boolean {
    return !this.done && this.ws.readyState === this.ws.OPEN;
  }

  /** Whether the client fell behind and waits to catch up for a fresh snapshot. */
  get behind(): boolean {
    return this.behindTimer !== null;
  }

  /** An update (serialized once for every client). A client that is behind does without it. */
  send(text: string): void {
    if (!this.open) return;
    if (this.behind) this.resyncIfCaughtUp();
    else if (this.ws.bufferedAmount > this.limits.behindBytes) this.fallBehind();
    else this.write(text, false);
  }

  /** A snapshot for this client, unless one is on its way already or it waits to catch up. */
  sendSnapshot(): void {
    if (!this.open || this.snapshotOnItsWay) return;
    if (this.behind) this.resyncIfCaughtUp();
    else if (this.ws.bufferedAmount > this.limits.behindBytes) this.fallBehind();
    else this.writeSnapshot();
  }

  close(code: number, reason: string): void {
    if (this.done) return;
    this.dispose();
    this.ws.close(code, reason);
  }

  private writeSnapshot(): void {
    const messages = this.snapshot();
    for (const [i, text] of messages.entries()) this.write(text, i === messages.length - 1);
  }

  private write(text: string, endsSnapshot: boolean): void {
    if (!this.open) return;
    if (endsSnapshot) this.snapshotOnItsWay = true;
    this.holdWritesForThisTurn();
    // ws calls back once the frame is handed to the kernel: the moment the backlog shrinks.
    this.ws.send(text, () => {
      if (endsSnapshot) this.snapshotOnItsWay = false;
      this.resyncIfCaughtUp();
    });
    // Counted without the message just sent: a snapshot bigger than the limit on its own
    // (hundreds of tabs with long paths) must reach a client that reads.
    const buffered = this.ws.bufferedAmount;
    // Measuring the message only when the backlog is that large keeps broadcasts cheap.
    if (buffered > this.limits.closeBytes && buffered - Buffer.byteLength(text) > this.limits.closeBytes) this.close(CloseCode.TooSlow, 'too slow to keep up');
  }

  /**
   * Corks the connection until the event loop has handled what this turn brought: the hook
   * events of one turn (each a status:hook-event and a status:update, to every client) then
   * reach each client in one write instead of a system call per message, which under the hook
   * load (1,000 events a second, 8 clients) took a fifth of the agent's CPU. Nothing waits for
   * a timer: the writes leave before the loop next waits for I/O.
   */
  private holdWritesForThisTurn(): void {
    if (!this.socket || this.corked) return;
    this.corked = true;
    this.socket.cork();
    setImmediate(() => {
      this.corked = false;
      this.socket?.uncork();
    });
  }

  private fallBehind(): void {
    this.behindTimer = setTimeout(() => this.close(CloseCode.TooSlow, 'too slow to keep up'), this.limits.behindTimeoutMs);
  }

  private resyncIfCaughtUp(): void {
    if (!this.behindTimer || !this.open || this.ws.bufferedAmount > this.limits.caughtUpBytes) return;
    clearTimeout(this.behindTimer);
    this.behindTimer = null;
    this.writeSnapshot();
  }

  private dispose(): void {
    this.done = true;
    clearInterval(this.heartbeat);
    if (this.behindTimer) clearTimeout(this.behindTimer);
    this.behindTimer = null;
  }
}

/**
 * The clients of one JSON channel that sends everyone the same updates: each joins with the
 * snapshot that brings it up to date, gets it at once, and leaves when its socket closes or fails.
 */
export class JsonClients {
  private readonly clients = new Set<JsonClient>();

  constructor(private readonly options: JsonClientOptions) {}

  get size(): number {
    return this.clients.size;
  }

  /** `left` runs once the client has gone, when the set no longer holds it. */
  join(ws: WebSocket, snapshot: () => string[], left?: () => void, socket?: Duplex): JsonClient {
    const client = new JsonClient(ws, snapshot, this.options, socket);
    this.clients.add(client);
    const leave = () => {
      if (this.clients.delete(client)) left?.();
    };
    ws.on('close', leave);
    ws.on('error', leave);
    client.sendSnapshot();
    return client;
  }

  broadcast(text: string): void {
    for (const client of this.clients) client.send(text);
  }

  /** The agent stops: every client gets the goodbye. */
  closeAll(): void {
    for (const client of this.clients) client.close(1001, 'agent shutting down');
    this.clients.clear();
  }
}
