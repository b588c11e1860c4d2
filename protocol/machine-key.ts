/**
 * A session, workspace or approval of a linked machine, as the home agent serves it: the
 * machine's id, a `~`, and the key that machine gives it (`mc-k3j9x2ab~tab-0a1b2c3d`). The
 * separator is in no id or key of ours, and unreserved in a URL, so such a key goes into a
 * path as it is. Imports nothing: the app's first screen reads it.
 */

export const MACHINE_KEY_SEPARATOR = '~';

const MACHINE_KEY = /^(mc-[a-z0-9]{1,32})~(.+)$/s;

export function machineKey(machineId: string, key: string): string {
  return `${machineId}${MACHINE_KEY_SEPARATOR}${key}`;
}

/** The machine and its own key, or null for a key of the home agent itself. */
export function splitMachineKey(key: string): { machineId: string; key: string } | null {
  const m = MACHINE_KEY.exec(key);
  return m ? { machineId: m[1] as string, key: m[2] as string } : null;
}

/** Whether a linked machine answers: as `pocketmux machines` says it (see machines.ts). */
export const MACHINE_REACHES = ['ok', 'unreachable', 'certificate', 'revoked', 'refused', 'unknown'] as const;

/** A linked machine as the app names it on its sessions and cards (the sync snapshot's `machines`). */
export interface MachineSummary {
  id: string;
  name: string;
  reach: (typeof MACHINE_REACHES)[number];
  /** Since when it is as `reach` says (ms since epoch). */
  since: number;
  problem: string | null;
}
