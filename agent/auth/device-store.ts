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
  /** A browser, or another pocketmux agent that linked this one (`pocketmux machines add`). */
  kind: z.enum(['browser', 'machine']).default('browser'),
});
export type DeviceRecord = z.infer<typeof DeviceRecord>;

/**
 * Whether what this agent answers a device holds its linked machines' sessions beside its own
 * (lists, channels, relayed terminals and timelines): not for a linked agent, which sees only
 * this agent's own, one level deep.
 */
export function seesLinkedMachines(device: Pick<DeviceRecord, 'kind'>): boolean {
  return device.kind !== 'machine';
}

/** A removed device's credential hash, kept so its holder is told it was removed, not "unknown". */
const RevokedCredential = z.object({ credentialHash: z.string().regex(/^[0-9a-f]{64}$/), revokedAt: z.string() });
type RevokedCredential = z.infer<typeof RevokedCredential>;

/** Removed devices remembered at most; the oldest is forgotten first, and then reads as unknown. */
export const MAX_REVOKED = 256;

const DevicesFile = z.discriminatedUnion('version', [
  z.object({ version: z.literal(1), devices: z.array(DeviceRecordV1) }),
  z.object({ version: z.literal(2), devices: z.array(DeviceRecord), revoked: z.array(RevokedCredential).default([]) }),
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
  private revoked: RevokedCredential[] = [];
  private lastSeenFlush = new Map<string, number>();

  constructor(
    private readonly path: string,
    private readonly log: Logger,
  ) {}

  load(): void {
    const result = readJsonFile(this.path, DevicesFile);
    if (result.status === 'ok') {
      const file = result.value;
      this.devices = file.version === 2 ? file.devices : file.devices.map((d) => ({ ...d, publicKey: null, pairAgain: true, kind: 'browser' as const }));
      this.revoked = file.version === 2 ? file.revoked.slice(-MAX_REVOKED) : [];
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
    writeJsonAtomic(this.path, { version: 2, devices: this.devices, revoked: this.revoked });
  }

  list(): readonly DeviceRecord[] {
    return this.devices;
  }

  /** Creates a device and returns its credential: the only time it exists in clear. */
  add(name: string, platform: string, publicKey: DevicePublicKey | null, kind: DeviceRecord['kind'] = 'browser'): { device: DeviceRecord; credential: string } {
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
      kind,
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

  /**
   * Whether a credential belonged to a device that was removed: only its hash is kept, and only
   * the holder of the credential itself can ask, so the answer tells no one else anything.
   */
  wasRevoked(credential: string): boolean {
    const presented = hashCredential(credential);
    let found = false;
    for (const r of this.revoked) if (timingSafeEqual(presented, Buffer.from(r.credentialHash, 'hex'))) found = true;
    return found;
  }

  /** Forgets a device: its credential stops working at once, and is remembered as revoked. */
  remove(id: string): boolean {
    const device = this.devices.find((d) => d.id === id);
    if (!device) return false;
    const before = { devices: this.devices, revoked: this.revoked };
    this.devices = this.devices.filter((d) => d !== device);
    this.revoked = [...this.revoked, { credentialHash: device.credentialHash, revokedAt: new Date().toISOString() }].slice(-MAX_REVOKED);
    try {
      this.save();
    } catch (err) {
      // Not saved, not removed: the file would bring the device back at the next start.
      this.devices = before.devices;
      this.revoked = before.revoked;
      throw err;
    }
    this.lastSeenFlush.delete(id);
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
