import webpush from 'web-push';
import { z } from 'zod';
import { readJsonFile, writeJsonAtomic } from '../store/atomic-file.js';
import type { Logger } from '../util/log.js';

const VapidFile = z.object({
  version: z.literal(1),
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/),
  privateKey: z.string().regex(/^[A-Za-z0-9_-]{40,50}$/),
  /** Who push services may contact about this sender; a mailto: or https: URL. */
  subject: z.string().regex(/^(mailto:|https:)/),
});
export type VapidKeys = z.infer<typeof VapidFile>;

/** Push services may write to the subject about a misbehaving sender; a local agent has no address to offer. */
const DEFAULT_SUBJECT = 'mailto:pocketmux@localhost';

/**
 * The agent's VAPID key pair, made once and kept (0600): every subscription is bound to the
 * public key, so a new pair would silently stop every device's notifications.
 */
export function loadVapidKeys(path: string, log: Logger): VapidKeys {
  const result = readJsonFile(path, VapidFile);
  if (result.status === 'ok') return result.value;
  if (result.status === 'corrupt') {
    log.error('the VAPID key file is corrupt; made a new key pair, so every device must enable notifications again', {
      reason: result.reason,
      setAsideAs: result.setAsideAs,
    });
  }
  const keys = webpush.generateVAPIDKeys();
  const made: VapidKeys = { version: 1, publicKey: keys.publicKey, privateKey: keys.privateKey, subject: DEFAULT_SUBJECT };
  writeJsonAtomic(path, made, 0o600);
  return made;
}
