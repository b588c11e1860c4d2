import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { type DeviceBinding, DevicePublicKeyBody } from '../../protocol/api.js';
import type { DevicePublicKey } from '../../protocol/device-proof.js';
import { readJsonFile, writeJsonAtomic } from '../store/atomic-file.js';
import { newId, newSecret } from '../util/ids.js';
import type { Logger } from '../util/log.js';

const DeviceRecordV1 = z.object({
  id: z.string(),
  name: z.string(),
  /** SHA-256 of the credential, hex. The credential itself is never stored. */
  credentialHash: z.string().regex(/^[0-9a-f]{64}$/),
  platform: z.string().default(''),
  pairedAt: z.string(),
  lastSeenAt: z.string().nullable(),
});

const DeviceRecord = DeviceRecordV1.extend({
  /**
   * The public key its requests are proven with, or null for a device paired where its
   * browser had no WebCrypto (see `DeviceBinding`).
   */
  publicKey: DevicePublicKeyBody.nullable(),
  /** Paired before devices had keys (a version 1 file): kept listed, refused until paired again. */
  pairAgain: z.boolean().default(false),
});
export type DeviceRecord = z.infer<typeof DeviceRecord>;

const DevicesFile = z.discriminatedUnion('version', [
  z.object({ version: z.literal(1), devices: z.array(DeviceRecordV1) }),
  z.object({ version: z.literal(2), devices: z.array(DeviceRecord) }),
]);

export function deviceBinding(device: DeviceRecord): DeviceBinding {
  if (device.pairAgain) return 'pair-again';
  return device.publicKey ? 'key' : 'cookie';
}

function hashCredential(credential: string): Buffer {
  return createHash('sha256').update(credential, 'utf8').digest();
}

/** Devices allowed in, each with its own random credential, kept only as a hash. */
export class DeviceStore {
  private devices: DeviceRecord[] = [];
  private lastSeenFlush = new Map<string, number>();

  constructor(
    private readonly path: string,
    private readonly log: Logger,
  ) {}

  load(): void {
    const result = readJsonFile(this.path, DevicesFile);
    if (result.status === 'ok') {
      const file = result.value;
      this.devices = file.version === 2 ? file.devices : file.devices.map((d) => ({ ...d, publicKey: null, pairAgain: true }));
      if (file.version === 1 && this.devices.length > 0) {
        this.log.warn('devices paired before devices had keys must pair again', { devices: this.devices.length });
      }
    }
    if (result.status === 'corrupt') {
      this.log.error('devices file is corrupt; every device must be linked again', {
        reason: result.reason,
        setAsideAs: result.setAsideAs,
      });
    }
  }

  private save(): void {
    writeJsonAtomic(this.path, { version: 2, devices: this.devices });
  }

  list(): readonly DeviceRecord[] {
    return this.devices;
  }

  /** Creates a device and returns its credential: the only time it exists in clear. */
  add(name: string, platform: string, publicKey: DevicePublicKey | null): { device: DeviceRecord; credential: string } {
    const credential = newSecret();
    const device: DeviceRecord = {
      id: newId('dv'),
      name,
      platform,
      credentialHash: hashCredential(credential).toString('hex'),
      pairedAt: new Date().toISOString(),
      lastSeenAt: null,
      publicKey: publicKey && { kty: publicKey.kty, crv: publicKey.crv, x: publicKey.x, y: publicKey.y },
      pairAgain: false,
    };
    this.devices.push(device);
    try {
      this.save();
    } catch (err) {
      // Not saved, not paired: a device the file does not hold would vanish at the next start.
      this.devices.pop();
      throw err;
    }
    return { device, credential };
  }

  /** Finds the device a credential belongs to, comparing hashes in constant time. */
  verify(credential: string): DeviceRecord | undefined {
    const presented = hashCredential(credential);
    let match: DeviceRecord | undefined;
    for (const device of this.devices) {
      // Compare against every device so timing does not reveal which one matched.
      if (timingSafeEqual(presented, Buffer.from(device.credentialHash, 'hex'))) match = device;
    }
    return match;
  }

  /** Forgets a device: its credential stops working at once. */
  remove(id: string): boolean {
    const before = this.devices.length;
    this.devices = this.devices.filter((d) => d.id !== id);
    if (this.devices.length === before) return false;
    this.lastSeenFlush.delete(id);
    this.save();
    return true;
  }

  /** Notes that a device was seen; written at most once a minute per device. */
  touch(device: DeviceRecord): void {
    const now = Date.now();
    device.lastSeenAt = new Date(now).toISOString();
    if (now - (this.lastSeenFlush.get(device.id) ?? 0) < 60_000) return;
    this.lastSeenFlush.set(device.id, now);
    // Best effort: it runs inside every request and WebSocket upgrade, which a failed write
    // (a full disk) must not fail or crash; the time stays in memory and goes with the next save.
    try {
      this.save();
    } catch (err) {
      this.log.error('could not write the devices file', { error: (err as Error).message });
    }
  }
}
