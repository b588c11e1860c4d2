import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { isLoopback } from './access.js';

/**
 * Who sent a request, for counting its wrong pairing attempts.
 *
 * The rule: the TCP peer's address, except that `X-Forwarded-For` is believed when both
 *  - the agent is configured behind a proxy (`--tailscale` or `--public-url`), and
 *  - the TCP peer is loopback (the proxy runs on this machine, as `tailscale serve` does).
 * Then the client is the header's **last** entry: a proxy appends the address it saw (or, as
 * `tailscale serve` does, writes only that one), so the last entry is the trusted proxy's and
 * every earlier one is whatever the client sent. Exactly one proxy is trusted; behind a chain
 * the last hop is what is counted, which is no worse than counting the loopback peer.
 *
 * A peer that is not loopback is never believed: it talks to the agent directly, whatever it
 * writes. Without a proxy configured, a loopback peer is not believed either: it is a program
 * on this machine talking directly. With a proxy configured, a program on this machine can
 * still claim any address (it looks exactly like the proxy), so PairingAttempts also counts
 * every forwarded attempt against the peer itself, under a wider limit.
 */
export interface AttemptSource {
  /** The address the attempt counts against: the forwarded client, or the TCP peer. */
  client: string;
  /** The TCP peer, when the client came from X-Forwarded-For; else null. */
  via: string | null;
}

/** An address as the header carries it: bare, `[v6]`, `[v6]:port` or `v4:port`; null when it is none. */
export function headerAddress(raw: string): string | null {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1] as string;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  return isIP(value) ? value.toLowerCase() : null;
}

/** The last entry of X-Forwarded-For (repeated headers arrive joined with commas), when it is an address. */
export function lastForwarded(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const entries = (Array.isArray(header) ? header.join(',') : header).split(',');
  const last = entries[entries.length - 1] ?? '';
  return headerAddress(last);
}

export function attemptSource(req: Pick<IncomingMessage, 'headers' | 'socket'>, behindProxy: boolean): AttemptSource {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (!behindProxy || !isLoopback(peer)) return { client: peer, via: null };
  const forwarded = lastForwarded(req.headers['x-forwarded-for']);
  // No header (or no address in its last entry): a program here, or a proxy that says nothing.
  return forwarded === null ? { client: peer, via: null } : { client: forwarded, via: peer };
}
