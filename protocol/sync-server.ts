/**
 * What the agent sends on `/api/sync`, as schemas clients parse it with; each is checked
 * against its type in sync.ts or api.ts, which stays the agent's contract. Kept apart from
 * those files, whose request schemas use the full zod, and written with zod/mini: the PWA's
 * first screen parses every snapshot, and the full library would double its size.
 */
import { z } from 'zod/mini';
import { TAB_KINDS } from './agents.js';
import type { PaneTitle, TabView, WorkspaceView } from './api.js';
import { SyncedOutsideSessions } from './outside.js';
import { MACHINE_REACHES, type MachineSummary } from './machine-key.js';
import type { SyncServerMessage } from './sync.js';

export const PaneTitleSchema = z.object({ command: z.string(), path: z.string() }) satisfies z.ZodMiniType<PaneTitle>;

export const TabViewSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  name: z.nullable(z.string()),
  kind: z.enum(TAB_KINDS),
  claudeSessionId: z.nullable(z.string()),
  createdAt: z.string(),
  cwd: z.string(),
  title: z.nullable(PaneTitleSchema),
  alive: z.boolean(),
}) satisfies z.ZodMiniType<TabView>;

export const WorkspaceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  dir: z.string(),
  createdAt: z.string(),
  guardrail: z._default(z.nullable(z.object({ afterMinutes: z.number() })), null),
  tabs: z.array(TabViewSchema),
  machine: z.optional(z.string()),
}) satisfies z.ZodMiniType<WorkspaceView>;

/** A linked machine as the app reads it: its name and whether it answers (the words of why not stay in Settings). */
export const MachineSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  reach: z.enum(MACHINE_REACHES),
  since: z.number(),
  problem: z.nullable(z.string()),
}) satisfies z.ZodMiniType<MachineSummary>;

export const SyncServerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('sync:snapshot'),
    version: z.number(),
    workspaces: z.array(WorkspaceViewSchema),
    outside: SyncedOutsideSessions,
    machines: z._default(z.array(MachineSummarySchema), []),
  }),
]) satisfies z.ZodMiniType<SyncServerMessage>;
