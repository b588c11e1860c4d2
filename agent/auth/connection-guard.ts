import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Disposable } from '../util/disposable.js';
import type { RefusalLog } from './refusal-log.js';
import { type Cut, type CutReason, UNPROVEN_LIMITS, type UnprovenLimits, UnprovenConnections } from './unproven-connections.js';

/** What a credential check tells the guard: the connection this request came on proved itself. */
export interface ConnectionProof {
  proven(req: IncomingMessage): void;
}

/** How often deadlines are looked at, while any unproven connection is open. */
const SWEEP_MS = 1_000;

/** What the log says of a cut. */
function cutReasons(limits: UnprovenLimits): Record<CutReason, string> {
  return {
    'source-cap': `more than ${limits.perSource} connections without a credential from this address`,
    'total-cap': `more than ${limits.total} connections without a credential in all, this address holding the most`,
    'headers-timeout': `no complete request headers within ${limits.headersMs / 1000} s of connecting`,
    'idle-timeout': `no further request within ${limits.idleMs / 1000} s of an answer, and no credential`,
  };
}

/**
 * Holds the agent's servers to the caps on unproven connections (`unproven-connections.ts`):
 * counts every TCP connection they accept, forgets one once a request on it passes a
 * credential check, and destroys the ones the caps or deadlines cut, logging them once per
 * source as other refusals are. One guard serves both servers: the descriptors are the
 * process's.
 */
export class ConnectionGuard implements ConnectionProof, Disposable {
  private readonly unproven: UnprovenConnections<Socket>;
  /**
   * Unproven TCP connections by their two ends: behind TLS a request's socket is the TLS one
   * wrapped around the TCP connection that was counted, with the same addresses and ports.
   */
  private readonly byPeer = new Map<string, Socket>();
  private sweeper: NodeJS.Timeout | null = null;
  private readonly reasons: Record<CutReason, string>;

  constructor(
    private readonly refusals: RefusalLog,
    limits: UnprovenLimits = UNPROVEN_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.unproven = new UnprovenConnections(limits);
    this.reasons = cutReasons(limits);
  }

  /** Unproven connections open now. */
  get unprovenCount(): number {
    return this.unproven.size;
  }

  /** Counts what `server` accepts: for TLS the TCP connection, before any handshake. */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => this.accepted(socket));
  }

  /** Every request, before it is routed: its headers came, so no header deadline while it is answered. */
  requestStarted(req: IncomingMessage, res: ServerResponse): void {
    const connection = this.connectionOf(req);
    if (!connection) return;
    this.unproven.requestStarted(connection);
    res.once('finish', () => this.unproven.requestFinished(connection, this.now()));
  }

  proven(req: IncomingMessage): void {
    const connection = this.connectionOf(req);
    if (connection && this.unproven.prove(connection)) this.byPeer.delete(peerKey(connection));
  }

  dispose(): void {
    this.stopSweeping();
  }

  private accepted(socket: Socket): void {
    const source = socket.remoteAddress;
    // Already gone (reset before it was accepted): nothing to count.
    if (source === undefined) return;
    const key = peerKey(socket);
    for (const cut of this.unproven.admit(socket, source, this.now())) this.cut(cut);
    this.byPeer.set(key, socket);
    socket.once('close', () => {
      this.unproven.closed(socket);
      if (this.byPeer.get(key) === socket) this.byPeer.delete(key);
    });
    if (!this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
      this.sweeper.unref();
    }
  }

  private sweep(): void {
    for (const cut of this.unproven.expired(this.now())) this.cut(cut);
    if (this.unproven.size === 0) this.stopSweeping();
  }

  private stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  private cut(cut: Cut<Socket>): void {
    const key = peerKey(cut.connection);
    if (this.byPeer.get(key) === cut.connection) this.byPeer.delete(key);
    cut.connection.destroy();
    this.refusals.refused(cut.source, 'cut a connection that sent no credential', { reason: this.reasons[cut.reason] });
  }

  /** The counted TCP connection a request came on, while it is unproven. */
  private connectionOf(req: IncomingMessage): Socket | undefined {
    const socket = req.socket;
    if (this.unproven.has(socket)) return socket;
    // Only a TLS socket is another object than the connection counted.
    if (!(socket as TLSSocket).encrypted) return undefined;
    const counted = this.byPeer.get(peerKey(socket));
    return counted && this.unproven.has(counted) ? counted : undefined;
  }
}

function peerKey(socket: Socket): string {
  return `${socket.localPort} ${socket.remoteAddress} ${socket.remotePort}`;
}
