/**
 * What this device keeps for the offline view, as records in IndexedDB: the last-known
 * lists (workspaces with their tabs, the sessions outside pocketmux, their statuses and the
 * open approvals, as the live channels gave them) and the timelines of the Claude tabs the
 * person looked at. Pure: every record read back goes through a parser here, so a record of
 * another version, or one damaged on disk, is dropped rather than drawn wrong.
 */
import { z } from 'zod/mini';
import type { WorkspaceView } from '../../protocol/api.js';
import { type Approval, ApprovalSchema } from '../../protocol/approvals.js';
import { type OutsideSessionView, OutsideSessionViewSchema } from '../../protocol/outside.js';
import { TabStatus } from '../../protocol/status.js';
import { WorkspaceViewSchema } from '../../protocol/sync-server.js';
import { TIMELINE_FIRST_PAGE, TimelineEntry } from '../../protocol/timeline.js';
import { safeParse } from '../../protocol/safe-parse.js';

/** The shape of every record below; a record of any other version is dropped when read. */
export const SNAPSHOT_VERSION = 1;

/** How much is kept, so the store cannot grow with use. */
export const OFFLINE_LIMITS = {
  /** Timelines kept: those of the tabs most recently seen; an older one goes when a newer one comes. */
  timelines: 20,
  /** Entries kept of each timeline: the newest, as many as the agent's first page holds. */
  entries: TIMELINE_FIRST_PAGE,
  /**
   * Characters (of the entries as JSON) kept of each timeline: the newest entries that fit.
   * Each entry is already bounded by the agent (`TIMELINE_LIMITS`); this bounds their sum.
   */
  timelineChars: 400_000,
} as const;

/** The lists as the app holds them live; what a snapshot is made from. */
export interface SessionLists {
  /** The agent's home directory, so paths read `~/…` offline as they do live. */
  home: string;
  workspaces: readonly WorkspaceView[];
  outside: readonly OutsideSessionView[];
  statuses: Readonly<Record<string, TabStatus>>;
  approvals: readonly Approval[];
}

/** The last-known lists, with when they were saved. */
export interface SessionsSnapshot {
  v: typeof SNAPSHOT_VERSION;
  /** When this device saved them (ms since epoch): the offline bar's "last updated". */
  savedAt: number;
  home: string;
  workspaces: WorkspaceView[];
  outside: OutsideSessionView[];
  statuses: Record<string, TabStatus>;
  approvals: Approval[];
}

/** A Claude session's conversation as the person last saw it, by its tab id or outside key. */
export interface SavedTimeline {
  v: typeof SNAPSHOT_VERSION;
  key: string;
  /** When it was last saved (ms since epoch); the oldest goes first past the limit. */
  savedAt: number;
  sessionId: string | null;
  entries: TimelineEntry[];
}

const SavedAt = z.number().check(z.positive());

const SessionsSnapshotSchema = z.object({
  v: z.literal(SNAPSHOT_VERSION),
  savedAt: SavedAt,
  home: z.string(),
  workspaces: z.array(WorkspaceViewSchema),
  outside: z.array(OutsideSessionViewSchema),
  statuses: z.record(z.string(), TabStatus),
  approvals: z.array(ApprovalSchema),
});

const SavedTimelineSchema = z.object({
  v: z.literal(SNAPSHOT_VERSION),
  key: z.string().check(z.minLength(1)),
  savedAt: SavedAt,
  sessionId: z.nullable(z.string()),
  entries: z.array(TimelineEntry).check(z.maxLength(OFFLINE_LIMITS.entries)),
});

/** The snapshot record to store for these lists. */
export function snapshotRecord(lists: SessionLists, now: number): SessionsSnapshot {
  const { home, workspaces, outside, statuses, approvals } = lists;
  return { v: SNAPSHOT_VERSION, savedAt: now, home, workspaces: [...workspaces], outside: [...outside], statuses: { ...statuses }, approvals: [...approvals] };
}

/** A stored snapshot, or null for anything that is not one of this version. */
export function parseSnapshot(value: unknown): SessionsSnapshot | null {
  const parsed = safeParse(SessionsSnapshotSchema, value);
  return parsed.success ? (parsed.data as SessionsSnapshot) : null;
}

/** A stored timeline for `key`, or null for anything that is not one of this version (or of another key). */
export function parseSavedTimeline(value: unknown, key: string): SavedTimeline | null {
  const parsed = safeParse(SavedTimelineSchema, value);
  return parsed.success && parsed.data.key === key ? (parsed.data as SavedTimeline) : null;
}

/**
 * The newest entries within the limits: at most `OFFLINE_LIMITS.entries`, and no more than
 * `OFFLINE_LIMITS.timelineChars` of them as JSON. An entry too large to fit alone is left
 * out with everything before it, so what is kept is always the end of the conversation.
 */
export function boundEntries(entries: readonly TimelineEntry[], limits: { entries: number; timelineChars: number } = OFFLINE_LIMITS): TimelineEntry[] {
  const kept: TimelineEntry[] = [];
  let chars = 0;
  for (let i = entries.length - 1; i >= 0 && kept.length < limits.entries; i--) {
    const entry = entries[i] as TimelineEntry;
    chars += JSON.stringify(entry).length;
    if (chars > limits.timelineChars) break;
    kept.push(entry);
  }
  return kept.reverse();
}

/** The timeline record to store for what the person saw of `key`. */
export function timelineRecord(key: string, sessionId: string | null, entries: readonly TimelineEntry[], now: number): SavedTimeline {
  return { v: SNAPSHOT_VERSION, key, savedAt: now, sessionId, entries: boundEntries(entries) };
}
