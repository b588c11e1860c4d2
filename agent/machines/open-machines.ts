import { X509Certificate } from 'node:crypto';
import { hostname } from 'node:os';
import { DisplayName } from '../../protocol/api.js';
import { safeParse } from '../../protocol/safe-parse.js';
import type { TlsMaterial } from '../store/tls.js';
import type { Logger } from '../util/log.js';
import { Machines } from './machines.js';
import { MachineStore } from './machine-store.js';

/** This machine's name as another agent shows it: its host name, when that is a fit name. */
export function ownMachineName(host = hostname()): string {
  const parsed = safeParse(DisplayName, host);
  return parsed.success ? parsed.data : 'pocketmux agent';
}

/** The SHA-256 fingerprint of the (first) certificate this agent serves, for a link code to pin. */
export function certificatePin(tls: TlsMaterial | null): string | null {
  return tls ? new X509Certificate(tls.cert).fingerprint256 : null;
}

/** The machines this agent linked, loaded, and what it says of itself in a link code. */
export function openMachines(opts: { path: string; tls: TlsMaterial | null; backoffMaxMs: number; log: Logger }) {
  const store = new MachineStore(opts.path, opts.log);
  store.load();
  const machineName = ownMachineName();
  const backoff = { first: Math.min(1_000, opts.backoffMaxMs), max: opts.backoffMaxMs };
  return { machines: new Machines(store, machineName, opts.log, backoff), certificatePin: certificatePin(opts.tls), machineName };
}
