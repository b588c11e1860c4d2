import type { MachineAnnouncer } from '../machines/machine-pushes.js';
import type { PushNotifier } from '../push/push-notifier.js';
import { approvalTag, tabTag } from '../push/push-payloads.js';

/** The linked machines' pushes go out as the home agent's own: one subscription on the phone tells of every machine. */
export function machineAnnouncer(notifier: PushNotifier): MachineAnnouncer {
  return {
    approval: (approval) => notifier.announceApproval(approval),
    needsInput: (key) => notifier.announceNeedsInput(key),
    review: (key, status) => notifier.announceReview(key, status.lastMessage, status.turnChanges),
    approvalSettled: (id) => notifier.close(approvalTag(id)),
    tabMovedOn: (key) => notifier.close(tabTag(key)),
  };
}
