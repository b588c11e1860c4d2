import type { Logger } from '../util/log.js';
import { AccessControl } from './access.js';
import { DeviceProofs } from './device-proof.js';
import { DeviceSockets } from './device-sockets.js';
import { DeviceStore } from './device-store.js';
import { credentialCookieName, loadIdentity } from './identity.js';
import { PairingAttempts } from './pairing.js';
import { PairingService } from './pairing-service.js';

export interface OpenAccessOptions {
  paths: { devices: string; identity: string };
  /** The hook token: with it, this machine's tools (hook.sh, the CLI) use the API. */
  hookToken: string;
  pairingTtlMs: number;
  /** Behind a proxy on loopback, pairing attempts count per forwarded client. */
  behindProxy: boolean;
  log: Logger;
}

/** Who may use the agent: the paired devices, what proves each request is theirs, and pairing the next one. */
export function openAccess(opts: OpenAccessOptions) {
  const devices = new DeviceStore(opts.paths.devices, opts.log);
  devices.load();
  const proofs = new DeviceProofs();
  const access = new AccessControl(devices, credentialCookieName(loadIdentity(opts.paths.identity, opts.log)), opts.hookToken, proofs);
  return { devices, proofs, access, sockets: new DeviceSockets(), pairing: new PairingService(opts.pairingTtlMs), attempts: new PairingAttempts({ behindProxy: opts.behindProxy }) };
}
