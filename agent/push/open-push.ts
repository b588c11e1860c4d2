import type { Logger } from '../util/log.js';
import { PushSender } from './push-sender.js';
import { PushSubscriptions } from './push-subscriptions.js';
import { loadVapidKeys, type VapidKeys } from './vapid.js';

/**
 * What Web Push is sent with: the agent's keys, the devices' subscriptions (only of devices
 * still paired) and the sender, which drops a subscription its push service says is gone.
 */
export function openPush(paths: { vapid: string; push: string }, pairedDevices: readonly string[], log: Logger): { vapid: VapidKeys; subscriptions: PushSubscriptions; sender: PushSender } {
  const vapid = loadVapidKeys(paths.vapid, log);
  const subscriptions = new PushSubscriptions(paths.push, log);
  subscriptions.load();
  subscriptions.keepOnly(pairedDevices);
  const sender = new PushSender(vapid, log);
  sender.on('gone', (endpoint) => subscriptions.dropEndpoint(endpoint));
  return { vapid, subscriptions, sender };
}
