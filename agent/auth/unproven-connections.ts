/**
 * The limits on connections that have not proven who they are. Every accepted connection
 * costs the agent a file descriptor, and anyone who can reach the port can open one: before
 * these caps, 20,000 connections that sent `GET / HTTP/1.1` and a Host line and nothing more
 * took every descriptor the process may open (its limit was 20,000), and from then on every
 * connection, Claude's hooks included, was reset. Node cuts such a connection only after its
 * `headersTimeout` (60 s, checked every 30 s), so opening them again every minute kept it so.
 */
export interface UnprovenLimits {
  /**
   * Unproven connections one source address may hold. A browser opens at most six to one
   * host; a proxy on this machine (`tailscale serve`) carries several devices' through one
   * address, and so does loopback, where hooks come from. It is also how many connections a
   * flood from a hook's own address must open after the hook's before the hook has sent its
   * headers, for the hook to be the oldest and cut: during a flood from the hook's address the
   * agent accepted at most 40 between a hook's connection and its headers.
   */
  perSource: number;
  /**
   * Unproven connections in all: four sources at their cap. At about 6 KB each (20,000 took
   * 125 MB) they cost 6 MB, and the rest of the descriptor limit (Node raises its soft limit to
   * the hard one at start; 20,000 on the machine that found the hole, 524,288 on most Linux
   * systems) stays for what has proven itself: paired devices, the CLI, hooks, and the agent's
   * own ptys, files and tmux.
   */
  total: number;
  /**
   * From being accepted to the end of its first request's headers. A phone on a slow link
   * needs a TLS handshake and one more round trip: well under this.
   */
  headersMs: number;
  /**
   * From an answer to the end of the next request's headers, unproven (a browser that loaded
   * the app keeps its connections, and opens new ones when they are gone).
   */
  idleMs: number;
}

export const UNPROVEN_LIMITS: UnprovenLimits = { perSource: 256, total: 1_024, headersMs: 10_000, idleMs: 10_000 };

/** Why a connection is cut: a cap that needed room, or a deadline it let pass. */
export type CutReason = 'source-cap' | 'total-cap' | 'headers-timeout' | 'idle-timeout';

export interface Cut<C> {
  connection: C;
  source: string;
  reason: CutReason;
}

interface Entry {
  source: string;
  /** Accept order: the smaller, the older. */
  order: number;
  /** When it is cut unless a request comes or proves it; null while a request is answered. */
  deadline: number | null;
  /** Whether a request on it has been answered: its deadline is then for idling, not for headers. */
  answered: boolean;
}

/**
 * Which unproven connections to cut, and when. Pure bookkeeping: the caller accepts, reads and
 * destroys the sockets, and passes the clock in.
 *
 * A connection is unproven from its accept until a request on it passes a credential check
 * (or it becomes an authenticated WebSocket); then it is forgotten here and never cut for
 * room. When a new connection would pass a cap, the oldest unproven connection of its own
 * source goes (at the per-source cap), or of the source that holds the most (at the total
 * cap): a flood from one address evicts itself, and a new connection always gets in.
 */
export class UnprovenConnections<C> {
  private readonly entries = new Map<C, Entry>();
  /** Each source's connections, oldest first (a Set keeps insertion order). */
  private readonly bySource = new Map<string, Set<C>>();
  private accepted = 0;

  constructor(private readonly limits: UnprovenLimits = UNPROVEN_LIMITS) {
    // Below one, no connection could ever get in, and making room would never end.
    if (!(limits.perSource >= 1 && limits.total >= 1)) throw new RangeError('unproven connection caps must be at least 1');
  }

  get size(): number {
    return this.entries.size;
  }

  /** Unproven connections held from `source`. */
  heldBy(source: string): number {
    return this.bySource.get(source)?.size ?? 0;
  }

  has(connection: C): boolean {
    return this.entries.has(connection);
  }

  /** Counts a connection just accepted; returns those to cut first to make room for it. */
  admit(connection: C, source: string, now: number): Cut<C>[] {
    if (this.entries.has(connection)) return [];
    const cuts: Cut<C>[] = [];
    while (this.heldBy(source) >= this.limits.perSource) cuts.push(this.cutOldest(source, 'source-cap'));
    while (this.entries.size >= this.limits.total) cuts.push(this.cutOldest(this.busiestSource(), 'total-cap'));
    this.entries.set(connection, { source, order: this.accepted++, deadline: now + this.limits.headersMs, answered: false });
    let own = this.bySource.get(source);
    if (!own) {
      own = new Set();
      this.bySource.set(source, own);
    }
    own.add(connection);
    return cuts;
  }

  /** A request's headers arrived: no deadline while it is answered (it can still be cut for room). */
  requestStarted(connection: C): void {
    const entry = this.entries.get(connection);
    if (entry) entry.deadline = null;
  }

  /** Its answer went out and it is still unproven: the next request must come soon. */
  requestFinished(connection: C, now: number): void {
    const entry = this.entries.get(connection);
    if (!entry) return;
    entry.deadline = now + this.limits.idleMs;
    entry.answered = true;
  }

  /** A request on it passed a credential check: it is no longer counted, nor ever cut here. */
  prove(connection: C): boolean {
    return this.forget(connection);
  }

  /** It closed, whoever closed it. */
  closed(connection: C): void {
    this.forget(connection);
  }

  /** The connections whose deadline has passed, forgotten here as they are returned. */
  expired(now: number): Cut<C>[] {
    const cuts: Cut<C>[] = [];
    for (const [connection, entry] of this.entries) {
      if (entry.deadline === null || entry.deadline > now) continue;
      this.forget(connection);
      cuts.push({ connection, source: entry.source, reason: entry.answered ? 'idle-timeout' : 'headers-timeout' });
    }
    return cuts;
  }

  private cutOldest(source: string, reason: CutReason): Cut<C> {
    const own = this.bySource.get(source);
    const oldest = own?.values().next().value as C;
    this.forget(oldest);
    return { connection: oldest, source, reason };
  }

  /** The source holding the most; on a tie, the one whose oldest connection is older. */
  private busiestSource(): string {
    let busiest = '';
    let most = 0;
    let oldest = Number.POSITIVE_INFINITY;
    for (const [source, own] of this.bySource) {
      const first = this.entries.get(own.values().next().value as C)?.order ?? Number.POSITIVE_INFINITY;
      if (own.size > most || (own.size === most && first < oldest)) {
        busiest = source;
        most = own.size;
        oldest = first;
      }
    }
    return busiest;
  }

  private forget(connection: C): boolean {
    const entry = this.entries.get(connection);
    if (!entry) return false;
    this.entries.delete(connection);
    const own = this.bySource.get(entry.source);
    own?.delete(connection);
    if (own?.size === 0) this.bySource.delete(entry.source);
    return true;
  }
}
