import { z } from 'zod';
import { DisplayName } from '../../protocol/api.js';
import { CertificatePin, MachineId, MAX_MACHINES, type MachineTrust } from '../../protocol/machines.js';
import { readJsonFile, writeJsonAtomic } from '../store/atomic-file.js';
import type { Logger } from '../util/log.js';

/** One linked machine as the home agent keeps it: where it is, how it is trusted, what it signs in with. */
const MachineRecord = z.strictObject({
  id: MachineId,
  name: DisplayName,
  url: z.string().regex(/^https?:\/\/[^/?#\s]+\/$/),
  /** The fingerprint of the certificate seen at link time, when trust is pinned; else null. */
  pin: CertificatePin.nullable(),
  trust: z.enum(['pinned', 'ca', 'loopback']),
  /** The name of the credential cookie the other agent set, and the credential itself. */
  cookieName: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  credential: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** This agent's own key there (PKCS#8 PEM): it signs every request as a browser's key does. */
  privateKey: z.string().max(1024).startsWith('-----BEGIN PRIVATE KEY-----'),
  /** Who this agent is in the other agent's devices list, to remove itself from it. */
  remoteDeviceId: z.string().regex(/^dv-[a-z0-9]{1,32}$/),
  linkedAt: z.string(),
  lastSeenAt: z.string().nullable(),
});
export type MachineRecord = z.infer<typeof MachineRecord>;

const MachinesFile = z.strictObject({ version: z.literal(1), machines: z.array(MachineRecord).max(MAX_MACHINES) });

export class MachineLimitError extends Error {}

/**
 * The machines this agent linked, in a file only its user reads (0600): it holds a credential
 * and a private key for each. Every change is written before it is taken as done.
 */
export class MachineStore {
  private machines: MachineRecord[] = [];

  constructor(
    private readonly path: string,
    private readonly log: Logger,
  ) {}

  load(): void {
    const result = readJsonFile(this.path, MachinesFile);
    if (result.status === 'ok') this.machines = result.value.machines;
    if (result.status === 'corrupt') {
      this.log.error('the linked machines file is corrupt; every machine must be linked again', { reason: result.reason, setAsideAs: result.setAsideAs });
    }
  }

  list(): readonly MachineRecord[] {
    return this.machines;
  }

  get(id: string): MachineRecord | undefined {
    return this.machines.find((m) => m.id === id);
  }

  /** The machine linked at this URL already, if any: one link per agent. */
  byUrl(url: string): MachineRecord | undefined {
    return this.machines.find((m) => m.url === url);
  }

  add(record: MachineRecord): void {
    if (this.machines.length >= MAX_MACHINES) throw new MachineLimitError(`at most ${MAX_MACHINES} machines can be linked: remove one first`);
    this.change([...this.machines, record]);
  }

  rename(id: string, name: string): MachineRecord | undefined {
    const found = this.get(id);
    if (!found) return undefined;
    const renamed = { ...found, name };
    this.change(this.machines.map((m) => (m === found ? renamed : m)));
    return renamed;
  }

  remove(id: string): MachineRecord | undefined {
    const found = this.get(id);
    if (found) this.change(this.machines.filter((m) => m !== found));
    return found;
  }

  /** Notes the time a machine answered, in memory: written with the next change, not on every answer. */
  seen(id: string, at: Date): void {
    const found = this.get(id);
    if (found) found.lastSeenAt = at.toISOString();
  }

  /** Writes the new list, and only then takes it: a failed write (a full disk) changes nothing. */
  private change(next: MachineRecord[]): void {
    writeJsonAtomic(this.path, { version: 1, machines: next });
    this.machines = next;
  }
}

export function trustOf(url: string, pin: string | null): MachineTrust {
  if (pin !== null) return 'pinned';
  return url.startsWith('https:') ? 'ca' : 'loopback';
}
