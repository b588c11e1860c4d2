import QRCode from 'qrcode';
import type { PairingResponse, PairingTerms } from '../../protocol/api.js';
import { formatCode, PairingStore, type Redeemed } from './pairing.js';

/**
 * Pairings as a person receives them: a link to the PWA with the secret in its fragment
 * (never sent to a server, so never in a log), the short code for an installed app, and
 * the link as a QR code.
 */
export class PairingService {
  private readonly store: PairingStore;
  private baseUrl = '';

  /** `now` is the clock expiry is judged by; tests pass their own so ten minutes need no waiting. */
  constructor(
    ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new PairingStore(ttlMs);
  }

  /** Where phones reach the PWA; known once the agent listens, as its port may be picked then. */
  publishAt(url: string): void {
    this.baseUrl = url;
  }

  /** What a browser not paired yet may know: how long a pairing works here. */
  terms(): PairingTerms {
    // Rounded down: the words never promise more time than the agent gives.
    return { validForSeconds: Math.floor(this.store.ttl / 1000) };
  }

  async create(): Promise<PairingResponse> {
    const pairing = this.store.create(this.now());
    const url = `${this.baseUrl}#pair=${pairing.secret}`;
    return {
      url,
      code: formatCode(pairing.code),
      expiresAt: new Date(pairing.expiresAt).toISOString(),
      validForSeconds: this.terms().validForSeconds,
      qrSvg: await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }),
    };
  }

  /**
   * A pairing for another agent to link this one with (`pocketmux machines link-code`): the
   * same single-use, short-lived kind as a device's, given as the raw secret and this agent's URL.
   */
  createForMachine(): { url: string; secret: string; expiresAt: string; validForSeconds: number } {
    const pairing = this.store.create(this.now());
    return { url: this.baseUrl, secret: pairing.secret, expiresAt: new Date(pairing.expiresAt).toISOString(), validForSeconds: this.terms().validForSeconds };
  }

  /**
   * Runs `use` (saving the new device) for the pairing a secret or code names, and spends the
   * pairing only once it returned; else why none took it.
   */
  redeem<T>(attempt: { secret?: string | undefined; code?: string | undefined }, use: () => T): Redeemed<T> {
    return this.store.redeem(attempt, use, this.now());
  }
}
