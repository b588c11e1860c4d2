import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { readJsonFile, writeJsonAtomic } from '../store/atomic-file.js';
import { newId, newSecret } from '../util/ids.js';
import type { Logger } from '../util/log.js';

const DeviceRecord = z.object({
  id: z.string(),
  name: z.string(),
  /** SHA-256 of the credential, hex. The credential itself is never stored. */
  credentialHash: z.string().regex(/^[0-9a-f]{64}$/),
  platform: z.string().default(''),
  pairedAt: z.string(),
  lastSeenAt: z.string().nullable(),
});
export type DeviceRecord = z.infer<typeof DeviceRecord>;

const DevicesFile = z.object({ version: z.literal(1), devices: z.array(DeviceRecord) });

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
    if (result.status === 'ok') this.devices = result.value.devices;
    if (result.status === 'corrupt') {
      this.log.error('devices file is corrupt; every device must be linked again', {
        reason: result.reason,
        setAsideAs: result.setAsideAs,
      });
    }
  }

  private save(): void {
    writeJsonAtomic(this.path, { version: 1, devices: this.devices });
  }

  list(): readonly DeviceRecord[] {
    return this.devices;
  }

  /** Creates a device and returns its credential: the only time it exists in clear. */
  add(name: string, platform = ''): { device: DeviceRecord; credential: string } {
    const credential = newSecret();
    const device: DeviceRecord = {
      id: newId('dv'),
      name,
      platform,
      credentialHash: hashCredential(credential).toString('hex'),
      pairedAt: new Date().toISOString(),
      lastSeenAt: null,
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
