/** What each Claude tab is doing, as `/api/status` reports it. */
import { z } from 'zod/mini';
import { type Approval, ApprovalSchema, ApprovalServerMessage } from './approvals.js';
import { safeParse } from './safe-parse.js';
import { CLAUDE_STATES, type ClaudeState } from './claude-state.js';
import { CLAUDE_MODES, type ClaudeMode } from './claude-mode.js';
import type { ChangesTotal } from './changes-summary.js';

export { CLAUDE_STATES, type ClaudeState };

/** Higher wins when one dot stands for several tabs (a workspace). */
export const STATE_PRIORITY: Record<ClaudeState, number> = {
  'needs-input': 4,
  'ready-for-review': 3,
  busy: 2,
  unknown: 1,
  idle: 0,
};

export function highestPriority(states: Iterable<ClaudeState>): ClaudeState {
  let best: ClaudeState = 'idle';
  for (const s of states) if (STATE_PRIORITY[s] > STATE_PRIORITY[best]) best = s;
  return best;
}

export interface TabStatus {
  state: ClaudeState;
  /** Bumped by every hook event; a client never applies an update older than what it shows. */
  seq: number;
  /** Whether a claude process runs in the tab's pane, as far as the agent knows. */
  claudeRunning: boolean;
  /** Between PreCompact and PostCompact. */
  compacting: boolean;
  /** Claude's session id, once a hook named it. */
  sessionId: string | null;
  /** When the last hook event arrived (ms since epoch), to order the synthetic interrupt. */
  lastHookAt: number | null;
  /** When the state last changed (ms since epoch). */
  since: number;
  /** The session's transcript, as its hooks name it. */
  transcriptPath: string | null;
  /** Model, context use and rate limits from the latest statusLine report. */
  usage: TabUsage | null;
  /** Claude's last answer of the turn (the Stop hook's), at most LAST_MESSAGE_MAX characters; cleared by the next prompt. */
  lastMessage: string | null;
  /** The session's permission mode, from its hooks and its screen's footer; null until one said it. */
  permissionMode: ClaudeMode | null;
  /** What the last turn changed (in a git repository), once the agent compared it; cleared by the next prompt. */
  turnChanges: ChangesTotal | null;
}

/** How much of Claude's last answer a status carries: enough for a review card and a notification. */
export const LAST_MESSAGE_MAX = 4_000;

export interface RateLimitWindow {
  usedPercent: number | null;
  /** When the window resets, as Claude reports it (epoch seconds or an ISO time). */
  resetsAt: number | string | null;
}

export interface TabUsage {
  model: string | null;
  contextPercent: number | null;
  costUsd: number | null;
  fiveHour: RateLimitWindow | null;
  sevenDay: RateLimitWindow | null;
  at: number;
}

/** A hook event as clients see it: what happened, in which tab, with its sequence number. */
export interface HookEventView {
  tabId: string;
  event: string;
  seq: number;
  at: number;
  /** A short human summary, e.g. the tool name or the notification text. */
  detail: string | null;
}

export type StatusServerMessage =
  /** Every tab's status and every open approval, oldest first. */
  | { type: 'status:sync'; tabs: Record<string, TabStatus>; approvals: Approval[] }
  | { type: 'status:update'; tabId: string; status: TabStatus }
  /** The agent no longer keeps a status for this key (tab closed, or an outside session let go). */
  | { type: 'status:removed'; tabId: string }
  | { type: 'status:hook-event'; hook: HookEventView }
  | { type: 'status:error'; message: string }
  | ApprovalServerMessage;

// Schemas of what the agent sends, for clients to parse it with; each is checked against the
// type above, which stays the agent's contract. They use zod/mini: the PWA's first screen
// parses every message with them, and the full zod would double its size.

export const RateLimitWindow = z.object({
  usedPercent: z.nullable(z.number()),
  resetsAt: z.nullable(z.union([z.number(), z.string()])),
}) satisfies z.ZodMiniType<RateLimitWindow>;

export const TabUsage = z.object({
  model: z.nullable(z.string()),
  contextPercent: z.nullable(z.number()),
  costUsd: z.nullable(z.number()),
  fiveHour: z.nullable(RateLimitWindow),
  sevenDay: z.nullable(RateLimitWindow),
  at: z.number(),
}) satisfies z.ZodMiniType<TabUsage>;

export const TabStatus = z.object({
  state: z.enum(CLAUDE_STATES),
  seq: z.number(),
  claudeRunning: z.boolean(),
  compacting: z.boolean(),
  sessionId: z.nullable(z.string()),
  lastHookAt: z.nullable(z.number()),
  since: z.number(),
  transcriptPath: z.nullable(z.string()),
  usage: z.nullable(TabUsage),
  lastMessage: z._default(z.nullable(z.string()), null),
  permissionMode: z._default(z.nullable(z.enum(CLAUDE_MODES)), null),
  turnChanges: z._default(z.nullable(z.object({ files: z.number(), added: z.number(), removed: z.number() })), null),
}) satisfies z.ZodMiniType<TabStatus>;

export const HookEventView = z.object({
  tabId: z.string(),
  event: z.string(),
  seq: z.number(),
  at: z.number(),
  detail: z.nullable(z.string()),
}) satisfies z.ZodMiniType<HookEventView>;

/**
 * The tabs of a sync a client can read: one whose status does not parse (a state added by a
 * newer agent) is left out rather than failing the whole sync.
 */
const SyncedTabs = z.pipe(
  z.record(z.string(), z.unknown()),
  z.transform((tabs) => {
    const readable: Record<string, TabStatus> = {};
    for (const [key, value] of Object.entries(tabs)) {
      const parsed = safeParse(TabStatus, value);
      if (parsed.success) readable[key] = parsed.data;
    }
    return readable;
  }),
);

/** Approvals of a sync a client can read; an older agent sends none. */
const SyncedApprovals = z._default(
  z.pipe(
    z.array(z.unknown()),
    z.transform((items) => items.flatMap((item) => {
      const parsed = safeParse(ApprovalSchema, item);
      return parsed.success ? [parsed.data] : [];
    })),
  ),
  [],
);

export const StatusServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status:sync'), tabs: SyncedTabs, approvals: SyncedApprovals }),
  z.object({ type: z.literal('status:update'), tabId: z.string(), status: TabStatus }),
  z.object({ type: z.literal('status:removed'), tabId: z.string() }),
  z.object({ type: z.literal('status:hook-event'), hook: HookEventView }),
  z.object({ type: z.literal('status:error'), message: z.string() }),
  ...ApprovalServerMessage.def.options,
]) satisfies z.ZodMiniType<StatusServerMessage>;
