/**
 * What a client may send on `/api/status`. Kept apart from status.ts so the PWA's first
 * screen, which imports the state helpers there, does not pull in the schema library.
 */
import { z } from 'zod';
import { ID_MAX } from './limits.js';

export const StatusClientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('status:request-sync') }),
  z.strictObject({ type: z.literal('status:tab-dismissed'), tabId: z.string().min(1).max(ID_MAX) }),
  z.strictObject({ type: z.literal('status:ack-notification'), tabId: z.string().min(1).max(ID_MAX) }),
  /**
   * What the person is looking at: the tab on screen (null for none) while the app is visible
   * and focused. A device looking at a tab is not pushed about it.
   */
  z.strictObject({ type: z.literal('status:presence'), tabId: z.string().min(1).max(ID_MAX).nullable(), visible: z.boolean() }),
]);
export type StatusClientMessage = z.infer<typeof StatusClientMessage>;
