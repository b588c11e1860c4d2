/**
 * `/api/sync`: the agent pushes the workspace list to every client whenever it changes
 * (a tab created, renamed or closed, a pane's title moving), so all devices agree.
 */
import { z } from 'zod';
import type { WorkspaceView } from './api.js';
import type { MachineSummary } from './machine-key.js';
import type { OutsideSessionView } from './outside.js';

export interface SyncSnapshot {
  type: 'sync:snapshot';
  /** Grows with every change; a client ignores a snapshot older than the one it shows. */
  version: number;
  workspaces: WorkspaceView[];
  /** Claude sessions reporting from outside the tabs, first heard of first. */
  outside: OutsideSessionView[];
  /** The machines this agent links, whose workspaces and sessions are among the above (`machine`). */
  machines: MachineSummary[];
}

export type SyncServerMessage = SyncSnapshot;

export const SyncClientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('sync:request') }),
]);
export type SyncClientMessage = z.infer<typeof SyncClientMessage>;
