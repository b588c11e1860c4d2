import { randomInt, timingSafeEqual } from 'node:crypto';
import { PAIRING_CODE_ALPHABET, PAIRING_CODE_LENGTH } from '../../protocol/limits.js';
import { newSecret } from '../util/ids.js';
import type { IncomingMessage } from 'node:http';
import { type AttemptSource, attemptSource } from './client-address.js';

export const PAIRING_TTL_MS = 10 * 60_000;
/** Older pairings are dropped past this many live ones. */
export const MAX_LIVE = 8;
/**
 * Pairings that ended (used, expired, replaced) are remembered this long and at most this
 * many, so a person holding an old code is told what happened to it rather than "wrong".
 */
export const ENDED_KEPT_MS = 24 * 3600_000;
export const MAX_ENDED = 64;

export interface Pairing {
  /** Travels in the URL fragment (`#pair=`), so it never reaches a server log. */
  secret: string;
  /** For typing into an installed PWA; shown as XXXX-XXXX. */
  code: string;
  expiresAt: number;
}

/** How a pairing that no longer works ended. */
export type PairingEnd = 'used' | 'expired' | 'replaced';

interface EndedPairing {
  secret: string;
  code: string;
  end: PairingEnd;
  endedAt: number;
}

/** What an attempt got: the value `use` returned, or why no pairing took it. */
export type Redeemed<T> = { value: T } | { refused: 'wrong' | PairingEnd };

/** Upper-cases a typed code and drops dashes and spaces. */
export function normalizeCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '');
}

export function formatCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Live pairings: single use, short-lived, kept in memory only; and the ones that ended lately. */
export class PairingStore {
  private pairings: Pairing[] = [];
  private ended: EndedPairing[] = [];

  constructor(private readonly ttlMs = PAIRING_TTL_MS) {}

  /** How long a new pairing works. */
  get ttl(): number {
    return this.ttlMs;
  }

  create(now = Date.now()): Pairing {
    this.prune(now);
    let code = '';
    for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)];
    const pairing: Pairing = { secret: newSecret(), code, expiresAt: now + this.ttlMs };
    this.pairings.push(pairing);
    const replaced = this.pairings.length > MAX_LIVE ? this.pairings.shift() : undefined;
    if (replaced) this.end(replaced, 'replaced', now);
    return pairing;
  }

  /**
   * Spends the pairing a secret or code names, once `use` has returned: if `use` throws (the
   * device could not be saved) the pairing stays, for another try. When none matches, says
   * whether the attempt named a pairing that ended, and how. `use` runs synchronously, so no
   * other request can spend the same pairing meanwhile.
   */
  redeem<T>(attempt: { secret?: string | undefined; code?: string | undefined }, use: () => T, now = Date.now()): Redeemed<T> {
    this.prune(now);
    const code = attempt.code === undefined ? undefined : normalizeCode(attempt.code);
    const names = (p: { secret: string; code: string }) =>
      attempt.secret !== undefined ? same(attempt.secret, p.secret) : code !== undefined && same(code, p.code);
    let match: Pairing | undefined;
    // Compare with every pairing, live and ended, so timing says nothing about which one was close.
    for (const p of this.pairings) if (names(p)) match = p;
    let ended: EndedPairing | undefined;
    for (const p of this.ended) if (names(p)) ended = p;
    if (!match) return { refused: ended?.end ?? 'wrong' };
    const value = use();
    this.pairings = this.pairings.filter((p) => p !== match);
    this.end(match, 'used', now);
    return { value };
  }

  private end(pairing: Pairing, end: PairingEnd, endedAt: number): void {
    // A code can come again (31^8 of them): the newest ending is the one told.
    this.ended.push({ secret: pairing.secret, code: pairing.code, end, endedAt });
    if (this.ended.length > MAX_ENDED) this.ended.shift();
  }

  private prune(now: number): void {
    for (const p of this.pairings) if (p.expiresAt <= now) this.end(p, 'expired', p.expiresAt);
    this.pairings = this.pairings.filter((p) => p.expiresAt > now);
    this.ended = this.ended.filter((p) => now - p.endedAt < ENDED_KEPT_MS);
  }
}

/**
 * Wrong pairing attempts per source: a few per minute are forgiven, past that the source
 * waits until its minute is over. The wait never exceeds a minute, so a flood of wrong
 * codes cannot keep the owner out for long, while guessing 31^8 codes stays hopeless.
 */
/** Sources whose wrong attempts are remembered at most. */
export const MAX_TRACKED_SOURCES = 10_000;

export class AttemptLimiter {
  private readonly failures = new Map<string, { windowStart: number; count: number }>();

  constructor(
    private readonly maxFailures = 5,
    private readonly windowMs = 60_000,
  ) {}

  /** Seconds the source must wait, or 0 when it may try. */
  retryAfter(source: string, now = Date.now()): number {
    const entry = this.failures.get(source);
    if (!entry || now - entry.windowStart >= this.windowMs) return 0;
    if (entry.count < this.maxFailures) return 0;
    return Math.ceil((entry.windowStart + this.windowMs - now) / 1000);
  }

  fail(source: string, now = Date.now()): void {
    const entry = this.failures.get(source);
    if (!entry || now - entry.windowStart >= this.windowMs) this.failures.set(source, { windowStart: now, count: 1 });
    else entry.count++;
    if (this.failures.size > MAX_TRACKED_SOURCES) {
      for (const [key, e] of this.failures) if (now - e.windowStart >= this.windowMs) this.failures.delete(key);
      // Still full within one minute (many addresses): the oldest go, so memory stays bounded.
      for (const key of this.failures.keys()) {
        if (this.failures.size <= MAX_TRACKED_SOURCES) break;
        this.failures.delete(key);
      }
    }
  }

  succeed(source: string): void {
    this.failures.delete(source);
  }
}

/**
 * Wrong attempts one proxy peer may pass on in a minute, all forwarded clients together,
 * before no code it passes on is checked until its minute is over. A client through the proxy
 * is stopped at five on its own, so it takes 200 client addresses failing at once (or a
 * program on this machine writing X-Forwarded-For) to get here: a share of six clients' worth
 * let anyone who reached the proxy keep the right code out for everyone. What the bound gives
 * such an attacker: 1,000 guesses a minute, 10,000 over a code's ten minutes, against at most
 * 8 live codes of 31^8: under one chance in ten million.
 */
export const MAX_PROXIED_FAILURES = 1_000;

/** What an attempt gives: a code a person types, or the secret of a pairing link. */
export type AttemptKind = 'code' | 'secret';

/**
 * Wrong pairing attempts per client (see attemptSource for who that is): five a minute.
 * Behind a proxy each forwarded client has its own five, so one person's typos do not hold
 * up everyone else; and all forwarded wrong attempts also count against the proxy's own
 * address, up to MAX_PROXIED_FAILURES, past which it passes on no code, so a forged
 * X-Forwarded-For never buys unlimited guesses. A link's secret (32 random bytes) is still
 * checked past that: no number of wrong ones brings a guess closer, so the link pairs while
 * codes wait.
 */
export class PairingAttempts {
  private readonly perClient: AttemptLimiter;
  private readonly perProxy: AttemptLimiter;

  private readonly behindProxy: boolean;
  /** The clock the minute is measured by; tests pass their own so a minute needs no waiting. */
  private readonly now: () => number;

  constructor(opts: { behindProxy: boolean; maxFailures?: number; maxProxiedFailures?: number; windowMs?: number; now?: () => number }) {
    this.behindProxy = opts.behindProxy;
    this.now = opts.now ?? Date.now;
    const windowMs = opts.windowMs ?? 60_000;
    this.perClient = new AttemptLimiter(opts.maxFailures ?? 5, windowMs);
    this.perProxy = new AttemptLimiter(opts.maxProxiedFailures ?? MAX_PROXIED_FAILURES, windowMs);
  }

  /** Who a request's attempt counts against. */
  sourceOf(req: Pick<IncomingMessage, 'headers' | 'socket'>): AttemptSource {
    return attemptSource(req, this.behindProxy);
  }

  /** Seconds the source must wait before an attempt of this kind is checked, or 0 when it may try. */
  retryAfter(source: AttemptSource, kind: AttemptKind, now = this.now()): number {
    const own = this.perClient.retryAfter(source.client, now);
    return source.via === null || kind === 'secret' ? own : Math.max(own, this.perProxy.retryAfter(source.via, now));
  }

  fail(source: AttemptSource, now = this.now()): void {
    this.perClient.fail(source.client, now);
    if (source.via !== null) this.perProxy.fail(source.via, now);
  }

  /** Clears the client's count; the proxy's runs out with its minute (no one resets it by pairing). */
  succeed(source: AttemptSource): void {
    this.perClient.succeed(source.client);
  }
}
