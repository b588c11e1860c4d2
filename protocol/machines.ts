/**
 * Linked machines: another pocketmux agent whose sessions this one (the home agent, the one
 * the phone is paired with) follows. The other agent prints a one-time link code; the home
 * agent claims it over TLS it verifies, and from then on holds a credential of its own there.
 *
 * The link code is `pmlink1.` and the base64url of its JSON: where the other agent is, the
 * secret of one of its pairings (single use, ten minutes, limited attempts), the SHA-256
 * fingerprint of the certificate it serves (when that is its own and not one a CA vouches
 * for) and the name it suggests for itself.
 */
import { z } from 'zod';
import { DisplayName } from './api.js';
import type { MACHINE_REACHES } from './machine-key.js';

export const LINK_CODE_PREFIX = 'pmlink1.';
/** A link code is a few hundred characters; anything much longer is not one. */
export const LINK_CODE_MAX = 4096;
/**
 * On a request the home agent forwards for one of its devices: that device's name,
 * URI-encoded. The linked machine records a decision made with it as that device's, through
 * the home agent ("Pixel 8 via Home box"), where it would otherwise name the home agent alone.
 */
export const ON_BEHALF_HEADER = 'X-Pocketmux-On-Behalf-Of';

/** Machines one agent links at most: each is a few sockets held open and a file entry. */
export const MAX_MACHINES = 32;

/** `AB:CD:…`, 32 bytes: how Node and OpenSSL print a certificate's SHA-256 fingerprint. */
export const CertificatePin = z.string().regex(/^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/, 'not a SHA-256 certificate fingerprint');

/** What a link code holds, once decoded. */
export const LinkCodeBody = z.strictObject({
  url: z
    .string()
    .max(2048)
    .refine((u) => /^https?:\/\/[^/?#\s]+\/$/.test(u), 'not an agent URL (http(s)://host:port/)'),
  secret: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'not a pairing secret'),
  pin: CertificatePin.nullable(),
  name: DisplayName,
});
export type LinkCodeBody = z.infer<typeof LinkCodeBody>;

/** `POST /api/machines`: link the machine a code names. */
export const AddMachineBody = z.strictObject({
  code: z.string().trim().min(1).max(LINK_CODE_MAX),
  /** The name to show it by; the name the other machine suggests when absent. */
  name: DisplayName.optional(),
});
export type AddMachineBody = z.infer<typeof AddMachineBody>;

export const MachineId = z.string().regex(/^mc-[a-z0-9]{1,32}$/, 'not a machine id');

/** How the home agent knows it talks to the machine it linked. */
export type MachineTrust = 'pinned' | 'ca' | 'loopback';

/** Whether the machine answered when last asked, and if not, why not. */
export type MachineReach = (typeof MACHINE_REACHES)[number];

export interface MachineView {
  id: string;
  name: string;
  url: string;
  trust: MachineTrust;
  /** The pinned certificate's fingerprint, when `trust` is `pinned`. */
  pin: string | null;
  linkedAt: string;
  /** The last time it answered. */
  lastSeenAt: string | null;
  reach: MachineReach;
  /** Why it did not answer, in words, when it did not. */
  problem: string | null;
}

export interface MachinesResponse {
  machines: MachineView[];
}

/** `POST /api/machine-links`: a code for a home agent to link this one with. */
export interface MachineLinkResponse {
  code: string;
  expiresAt: string;
  validForSeconds: number;
  trust: MachineTrust;
}
