import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { type DevicePublicKey, parseProof, PROOF_WINDOW_MS, proofMessage } from '../../protocol/device-proof.js';

/** Proofs a device may make within one window before more are refused; a person's browser makes a few a minute. */
export const MAX_PROOFS_PER_WINDOW = 4096;

export type ProofCheck = { ok: true } | { ok: false; reason: string; clock: boolean };

/**
 * Checks the proofs devices sign their requests with (`protocol/device-proof.ts`): the shape,
 * the time against the agent's clock, the signature by the device's registered key over this
 * very method and target, and that the nonce was not used before. A proof is good once.
 */
export class DeviceProofs {
  private readonly keys = new Map<string, { jwk: DevicePublicKey; key: KeyObject }>();
  /** Per device, each nonce seen and when it stops mattering (its proof's time is then out of the window). */
  private readonly seen = new Map<string, Map<string, number>>();
  private readonly startedAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  check(deviceId: string, publicKey: DevicePublicKey, method: string, target: string, proofText: string | undefined): ProofCheck {
    if (proofText === undefined) return refuse('no proof of the device key: this browser may need to pair again', false);
    const proof = parseProof(proofText);
    if (!proof) return refuse('the proof of the device key is malformed', false);
    const now = this.now();
    // Nonces are remembered since the agent started: a proof made before is refused, as is one
    // far from the agent's clock (the app learns that clock from every answer and signs again).
    if (Math.abs(proof.time - now) > PROOF_WINDOW_MS || proof.time < this.startedAt - 1_000) {
      return refuse("the proof's time is not the agent's: sign again with the agent's time", true);
    }
    const message = Buffer.from(proofMessage(method, target, proof.time, proof.nonce), 'utf8');
    const signature = Buffer.from(proof.signature, 'base64url');
    if (!verify('sha256', message, { key: this.keyOf(deviceId, publicKey), dsaEncoding: 'ieee-p1363' }, signature)) {
      return refuse('the proof is not signed by this device for this request', false);
    }
    return this.spend(deviceId, proof.nonce, proof.time + PROOF_WINDOW_MS, now);
  }

  /** Forgets a revoked device's key and nonces. */
  forget(deviceId: string): void {
    this.keys.delete(deviceId);
    this.seen.delete(deviceId);
  }

  private keyOf(deviceId: string, jwk: DevicePublicKey): KeyObject {
    const cached = this.keys.get(deviceId);
    if (cached && cached.jwk.x === jwk.x && cached.jwk.y === jwk.y) return cached.key;
    const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' });
    this.keys.set(deviceId, { jwk, key });
    return key;
  }

  private spend(deviceId: string, nonce: string, until: number, now: number): ProofCheck {
    let nonces = this.seen.get(deviceId);
    if (!nonces) {
      nonces = new Map();
      this.seen.set(deviceId, nonces);
    }
    if (nonces.has(nonce)) return refuse('this proof was used already', false);
    if (nonces.size >= MAX_PROOFS_PER_WINDOW) {
      for (const [n, expiry] of nonces) if (expiry < now) nonces.delete(n);
      if (nonces.size >= MAX_PROOFS_PER_WINDOW) return refuse('too many requests from this device in two minutes', false);
    }
    nonces.set(nonce, until);
    return { ok: true };
  }
}

function refuse(reason: string, clock: boolean): ProofCheck {
  return { ok: false, reason, clock };
}

/** Whether a public key can be used at all: a point on the curve (checked when pairing, not at the first request). */
export function validPublicKey(jwk: DevicePublicKey): boolean {
  try {
    createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}
