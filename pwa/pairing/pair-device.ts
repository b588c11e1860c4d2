/**
 * Pairing this browser: a key pair made here for it (WebCrypto, the private half not
 * extractable), its public half sent with the secret or code, the pair kept once the agent has
 * taken it. Only the pair screen needs this, so it loads with that screen.
 */
import type { PairBody } from '../../protocol/api.js';
import { type DevicePublicKey, PROOF_KEY_ALGORITHM } from '../../protocol/device-proof.js';
import { type Access, granted } from '../core/access.js';
import * as api from '../core/api.js';
import { errorText } from '../core/api-request.js';
import { canMakeDeviceKey, keepDeviceKey } from '../core/device-key.js';

/** A new key pair, not yet kept; null where the browser gives no WebCrypto (not a secure context). */
async function makeDeviceKey(): Promise<{ pair: CryptoKeyPair; publicKey: DevicePublicKey } | null> {
  if (!canMakeDeviceKey()) return null;
  const pair = (await crypto.subtle.generateKey(PROOF_KEY_ALGORITHM, false, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') throw new Error('this browser made a key without coordinates');
  return { pair, publicKey: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } };
}

/**
 * Trades a pairing secret or a typed short code for a device credential (an HttpOnly cookie)
 * bound to a key made here. The code goes as typed; the agent ignores case and the dash. The key
 * is kept only once the agent has taken its public half, so a wrong code leaves the key of a
 * device this browser already is untouched.
 */
export async function pair(body: PairBody): Promise<Access> {
  const key = await makeDeviceKey();
  const session = await api.pair(key ? { ...body, publicKey: key.publicKey } : body, { unauthorizedMeansLost: false });
  if (key) {
    try {
      await keepDeviceKey(key.pair);
    } catch (err) {
      throw new Error(`Paired, but this browser would not keep the device key (${errorText(err)}). Allow site storage and pair again.`);
    }
  }
  return granted(session);
}
