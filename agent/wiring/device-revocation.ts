import type { DeviceProofs } from '../auth/device-proof.js';
import type { PushSubscriptions } from '../push/push-subscriptions.js';

export interface DeviceRevocationDeps {
  proofs: Pick<DeviceProofs, 'forget'>;
  subscriptions: Pick<PushSubscriptions, 'forget'>;
  /** Closes the device's open sockets; how many is not asked here. */
  sockets: { revoke(deviceId: string): unknown };
}

/** A device unpaired keeps nothing: its proofs are forgotten, its pushes stop and its open sockets close. */
export function revokeDevice({ proofs, subscriptions, sockets }: DeviceRevocationDeps): (deviceId: string) => void {
  return (deviceId) => {
    proofs.forget(deviceId);
    subscriptions.forget(deviceId);
    sockets.revoke(deviceId);
  };
}
