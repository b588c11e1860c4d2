/**
 * A device proves every request with a key that never leaves its browser. Pairing registers
 * the public half of an ECDSA P-256 key pair the app made with WebCrypto (the private half is
 * not extractable and stays in the browser's IndexedDB); every REST request, WebSocket upgrade
 * and service-worker action then carries a proof signed with it: the method, the request
 * target, the time and a nonce. The credential cookie alone, sent by the browser to any
 * server on the same host name whatever its port, gets nothing.
 *
 * Declared once here: the app and its service worker sign, the agent verifies, the tests do
 * both. No Node and no DOM: the signing itself is the caller's (WebCrypto or node:crypto).
 */

/** The proof of a REST request, in this header. */
export const PROOF_HEADER = 'X-Pocketmux-Proof';
/** A browser cannot set headers on a WebSocket: there the proof is the last query parameter. */
export const PROOF_QUERY = 'proof';
/** The agent's clock, on every API response, so a device whose own clock is off signs in the agent's time. */
export const AGENT_TIME_HEADER = 'X-Pocketmux-Time';
/** How far a proof's time may be from the agent's, either way. */
export const PROOF_WINDOW_MS = 120_000;
/** Said in a 401's body when the proof's time was out of the window: sign again with the agent's time. */
export const PROOF_TIME_ERROR = 'proof-time';

/** The curve and hash, as WebCrypto names them (node:crypto: `prime256v1`, `sha256`, P1363 signatures). */
export const PROOF_KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
export const PROOF_SIGN_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** A P-256 public key as a JWK: the only fields the agent keeps. */
export interface DevicePublicKey {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface ProofParts {
  /** Milliseconds since the epoch, in the agent's time as the device knows it. */
  time: number;
  /** 16 random bytes, base64url: the same proof is never taken twice. */
  nonce: string;
  /** The ECDSA signature (r‖s, 64 bytes), base64url. */
  signature: string;
}

/** `<time>.<nonce>.<signature>`: digits and base64url only, safe in a header and a URL. */
const PROOF_SHAPE = /^(\d{13})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{86})$/;

export function formatProof(parts: ProofParts): string {
  return `${parts.time}.${parts.nonce}.${parts.signature}`;
}

export function parseProof(value: string): ProofParts | null {
  const m = PROOF_SHAPE.exec(value);
  if (!m) return null;
  return { time: Number(m[1]), nonce: m[2] as string, signature: m[3] as string };
}

/**
 * What is signed: the method, the request target as sent (path and query, without the proof
 * parameter), the time and the nonce, one per line under a fixed label, so a signature made
 * for one request can be read as no other.
 */
export function proofMessage(method: string, target: string, time: number, nonce: string): string {
  return `pocketmux-proof-v1\n${method.toUpperCase()}\n${target}\n${time}\n${nonce}`;
}

/**
 * Splits a WebSocket's request target into what was signed and the proof: the proof is the
 * last query parameter, so the signed target is everything before it. Null when there is none.
 */
export function splitTargetProof(target: string): { signed: string; proof: string } | null {
  const m = /[?&]proof=([^&#]*)$/.exec(target);
  if (!m) return null;
  return { signed: target.slice(0, m.index), proof: m[1] as string };
}

/** Appends a proof to a target as its last query parameter (the inverse of `splitTargetProof`). */
export function withTargetProof(target: string, proof: string): string {
  return `${target}${target.includes('?') ? '&' : '?'}${PROOF_QUERY}=${proof}`;
}
