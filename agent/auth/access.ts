import { HOOK_HEADERS, receivedHeader } from '../../protocol/hook-contract.js';
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { type DevicePublicKey, PROOF_HEADER, splitTargetProof } from '../../protocol/device-proof.js';
import type { DeviceProofs } from './device-proof.js';
import type { DeviceRecord, DeviceStore } from './device-store.js';
import { ACCESS_REFUSALS, type AccessRefusal } from '../../protocol/refusals.js';

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(address);
}

export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type AccessDecision =
  | { ok: true; device: DeviceRecord }
  | {
      ok: false;
      status: 401 | 403;
      reason: string;
      /** The proof's time was off: the client signs again with the agent's. */
      clock?: boolean;
      /** Why a credential was refused, for the app to say (see ACCESS_REFUSALS). */
      refusal?: AccessRefusal;
    };

const PROOF_HEADER_RECEIVED = PROOF_HEADER.toLowerCase();

/** Reads one cookie from a Cookie header without a dependency; values are base64url. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * A browser always sends `Origin` on WebSocket upgrades and cross-origin requests. When it
 * is present it must name this very host, or a page elsewhere could drive the terminal.
 */
export function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const host = req.headers.host;
  if (!host) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host;
  } catch {
    return false;
  }
}

/** Who the `pocketmux` CLI is when it talks to the agent: it holds no device credential. */
export const CLI_DEVICE: DeviceRecord = {
  id: 'cli',
  name: 'pocketmux CLI',
  platform: 'this machine',
  credentialHash: '0'.repeat(64),
  pairedAt: new Date(0).toISOString(),
  lastSeenAt: null,
  publicKey: null,
  pairAgain: false,
  kind: 'browser',
};

/** The CLI authenticates with the hook token, in the hooks' own header. */
export const CLI_TOKEN_HEADER = receivedHeader(HOOK_HEADERS.token);

export class AccessControl {
  constructor(
    private readonly devices: DeviceStore,
    readonly cookieName: string,
    /** The hook token; with it, scripts on this machine (the CLI) may use the API. */
    private readonly localToken: string,
    private readonly proofs: DeviceProofs,
  ) {}

  /**
   * The single check every REST route and WebSocket upgrade goes through. `target` is the
   * request target as the client sent it (Express rewrites `req.url` under a mount).
   */
  check(req: IncomingMessage, target: string): AccessDecision {
    if (!originAllowed(req)) return { ok: false, status: 403, reason: 'foreign origin' };
    const token = req.headers[CLI_TOKEN_HEADER];
    if (typeof token === 'string' && req.headers.origin === undefined) {
      // Only from this machine, never from a page: the token lives in a file only the user reads.
      if (isLoopback(req.socket.remoteAddress) && tokenMatches(token, this.localToken)) return { ok: true, device: CLI_DEVICE };
      return { ok: false, status: 401, reason: 'wrong local token, or not from this machine' };
    }
    const credential = readCookie(req.headers.cookie, this.cookieName);
    if (!credential) return { ok: false, status: 401, reason: 'no device credential' };
    const device = this.devices.verify(credential);
    // Which of these a credential gets tells only its holder what became of its own device:
    // a removed device's name, time and remover are not said, and a stranger has no credential
    // to ask with (a guessed one is unknown).
    if (!device && this.devices.wasRevoked(credential)) {
      return { ok: false, status: 401, reason: 'this device was removed from the devices list: pair it again', refusal: ACCESS_REFUSALS.revoked };
    }
    if (!device) return { ok: false, status: 401, reason: 'unknown device credential', refusal: ACCESS_REFUSALS.unknown };
    if (device.pairAgain) {
      return { ok: false, status: 401, reason: 'this device was paired before devices had keys: pair it again', refusal: ACCESS_REFUSALS.pairAgain };
    }
    if (device.publicKey) {
      const proven = this.proveRequest(req, target, device, device.publicKey);
      if (!proven.ok) return proven;
    }
    this.devices.touch(device);
    return { ok: true, device };
  }

  /** The cookie only names the device: the request must also carry a proof signed by its key. */
  private proveRequest(req: IncomingMessage, target: string, device: DeviceRecord, publicKey: DevicePublicKey): AccessDecision {
    const header = req.headers[PROOF_HEADER_RECEIVED];
    const inQuery = typeof header === 'string' ? null : splitTargetProof(target);
    const signed = inQuery ? inQuery.signed : target;
    const proof = typeof header === 'string' ? header : inQuery?.proof;
    const checked = this.proofs.check(device.id, publicKey, req.method ?? 'GET', signed, proof);
    return checked.ok ? { ok: true, device } : { ok: false, status: 401, reason: checked.reason, clock: checked.clock };
  }
}
