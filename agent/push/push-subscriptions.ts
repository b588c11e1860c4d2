import { z } from 'zod';
import type { PushSubscriptionBody } from '../../protocol/api.js';
import { DEFAULT_PUSH_SETTINGS, type PushSettings } from '../../protocol/push.js';
import { readJsonFile, writeJsonAtomic } from '../store/atomic-file.js';
import type { Logger } from '../util/log.js';

const Settings = z.object({ approvals: z.boolean(), needsInput: z.boolean(), review: z.boolean() });

const Entry = z.object({
  subscription: z
    .object({
      endpoint: z.string(),
      keys: z.object({ p256dh: z.string(), auth: z.string() }),
    })
    .nullable(),
  settings: Settings,
  subscribedAt: z.string().nullable(),
});
export type PushEntry = z.infer<typeof Entry>;

const PushFile = z.object({ version: z.literal(1), devices: z.record(z.string(), Entry) });

/**
 * Each device's push subscription (at most one: a browser has one per service worker) and what
 * it wants pushed. Settings outlive an unsubscribe, so turning notifications back on keeps them.
 */
export class PushSubscriptions {
  private devices = new Map<string, PushEntry>();

  constructor(
    private readonly path: string,
    private readonly log: Logger,
  ) {}

  load(): void {
    const result = readJsonFile(this.path, PushFile);
    if (result.status === 'ok') this.devices = new Map(Object.entries(result.value.devices));
    if (result.status === 'corrupt') {
      this.log.error('the push subscriptions file is corrupt; every device must enable notifications again', { reason: result.reason, setAsideAs: result.setAsideAs });
    }
  }

  /** Only devices still paired are kept: one revoked while the agent was down loses its subscription here. */
  keepOnly(deviceIds: Iterable<string>): void {
    const paired = new Set(deviceIds);
    let changed = false;
    for (const id of this.devices.keys()) {
      if (!paired.has(id)) {
        this.devices.delete(id);
        changed = true;
      }
    }
    if (changed) this.save();
  }

  private save(): void {
    writeJsonAtomic(this.path, { version: 1, devices: Object.fromEntries(this.devices) }, 0o600);
  }

  get(deviceId: string): PushEntry {
    return this.devices.get(deviceId) ?? { subscription: null, settings: { ...DEFAULT_PUSH_SETTINGS }, subscribedAt: null };
  }

  /** Devices that have a subscription, with what they chose. */
  subscribed(): [string, PushEntry & { subscription: NonNullable<PushEntry['subscription']> }][] {
    return [...this.devices].filter((e): e is [string, PushEntry & { subscription: NonNullable<PushEntry['subscription']> }] => e[1].subscription !== null);
  }

  subscribe(deviceId: string, body: PushSubscriptionBody): void {
    const entry = this.get(deviceId);
    this.devices.set(deviceId, { ...entry, subscription: { endpoint: body.endpoint, keys: body.keys }, subscribedAt: new Date().toISOString() });
    this.save();
  }

  unsubscribe(deviceId: string): boolean {
    const entry = this.devices.get(deviceId);
    if (!entry?.subscription) return false;
    this.devices.set(deviceId, { ...entry, subscription: null, subscribedAt: null });
    this.save();
    return true;
  }

  /** The push service said the subscription is gone (404/410): whichever device had it loses it. */
  dropEndpoint(endpoint: string): string | null {
    for (const [id, entry] of this.devices) {
      if (entry.subscription?.endpoint === endpoint) {
        this.unsubscribe(id);
        return id;
      }
    }
    return null;
  }

  setSettings(deviceId: string, change: Partial<PushSettings>): PushSettings {
    const entry = this.get(deviceId);
    const settings = { ...entry.settings, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
    this.devices.set(deviceId, { ...entry, settings });
    this.save();
    return settings;
  }

  /** A revoked device: its subscription and settings go. */
  forget(deviceId: string): void {
    if (this.devices.delete(deviceId)) this.save();
  }
}
