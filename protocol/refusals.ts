/**
 * Why the agent refused a device or a pairing, as the `code` of its `ApiError`: the app words
 * each one itself. Kept apart from the schemas, so the first screen loads them without zod.
 */

/**
 * A credential the agent does not let in, told apart where that tells its holder nothing new
 * (docs/security.md, who is who): `revoked`, its device was removed from the list;
 * `pair-again`, paired by an agent from before devices had keys; `unknown`, a credential the
 * agent never made or no longer remembers. A request with no credential has no code.
 */
export const ACCESS_REFUSALS = { revoked: 'device-revoked', pairAgain: 'device-pair-again', unknown: 'device-unknown' } as const;
export type AccessRefusal = (typeof ACCESS_REFUSALS)[keyof typeof ACCESS_REFUSALS];

/**
 * Why `POST /api/pair` refused a secret or code, told apart because none of it helps a guess
 * (docs/security.md, pairing): `wrong`, no pairing had it; `used`, it paired a device already;
 * `expired`, its time ran out; `replaced`, newer pairings pushed it out.
 */
export const PAIRING_REFUSALS = { wrong: 'pairing-wrong', used: 'pairing-used', expired: 'pairing-expired', replaced: 'pairing-replaced' } as const;
export type PairingRefusal = keyof typeof PAIRING_REFUSALS;

export function isAccessRefusal(code: unknown): code is AccessRefusal {
  return Object.values(ACCESS_REFUSALS).includes(code as AccessRefusal);
}
