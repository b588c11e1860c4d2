import { OUTSIDE_PREFIX } from './hook-contract.js';

/**
 * What a key in the status, the approvals and the app's paths names: one of pocketmux's tabs,
 * or a Claude session started outside them. `id` is the string the wire carries, whole: the
 * status, the approvals and every route go by it, so it is never taken apart and put back.
 */
export type SessionKey = { kind: 'tab'; id: string } | { kind: 'outside'; id: string };

/** The kind of session a key from the wire names: outside keys carry their prefix, tab ids never do. */
export function parseSessionKey(key: string): SessionKey {
  return key.startsWith(OUTSIDE_PREFIX) ? { kind: 'outside', id: key } : { kind: 'tab', id: key };
}
