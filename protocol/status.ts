/** What each Claude tab is doing, as `/api/status` reports it. */

export const CLAUDE_STATES = ['idle', 'busy', 'needs-input', 'ready-for-review', 'unknown'] as const;
export type ClaudeState = (typeof CLAUDE_STATES)[number];

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
}

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
  | { type: 'status:sync'; tabs: Record<string, TabStatus> }
  | { type: 'status:update'; tabId: string; status: TabStatus }
  /** The agent no longer keeps a status for this key (tab closed, or an outside session let go). */
  | { type: 'status:removed'; tabId: string }
  | { type: 'status:hook-event'; hook: HookEventView }
  | { type: 'status:error'; message: string };
