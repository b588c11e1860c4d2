/**
 * "What Claude is doing now", above the composer while Claude works: the tool it runs, how long
 * the turn has gone on, and its context use as Claude's status line last reported it.
 */
import type { TabStatus, TabUsage } from '../../protocol/status.js';
import type { TimelineEntry, ToolCallEntry } from '../../protocol/timeline.js';
import { inTurn } from './composer-queue.js';

/**
 * The tool call still running: the latest one without a result since the person last spoke
 * (a prompt) or stopped Claude (an interrupt); one left without a result by an earlier turn
 * is not running any more.
 */
export function currentTool(entries: readonly TimelineEntry[]): ToolCallEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (!e || e.kind === 'prompt' || e.kind === 'interrupt') return null;
    if (e.kind === 'tool-call' && !e.result) return e;
  }
  return null;
}

/**
 * When the turn on screen started (ms since epoch, the agent's clock), from one status to the
 * next: a new turn starts when the state enters one (busy, or straight to needs-input); going
 * between busy and needs-input is the same turn. Null out of a turn.
 */
export function nextTurnStart(start: number | null, before: TabStatus | undefined, now: TabStatus | undefined): number | null {
  if (!now || !inTurn(now.state)) return null;
  if (start !== null && before && inTurn(before.state)) return start;
  return now.since;
}

/** 42s, 3m 07s, 1h 05m. */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** "43% context · $0.12", from what the status line reported; null when it reported neither. */
export function usageText(usage: TabUsage | null | undefined): string | null {
  if (!usage) return null;
  const parts: string[] = [];
  if (usage.contextPercent !== null && Number.isFinite(usage.contextPercent)) parts.push(`${Math.round(usage.contextPercent)}% context`);
  if (usage.costUsd !== null && Number.isFinite(usage.costUsd)) parts.push(`$${usage.costUsd.toFixed(2)}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

export interface DoingNow {
  /** The tool and what it runs on (`Bash: npm test`), or what Claude does without one. */
  what: string;
  /** The tool's name alone, when one runs. */
  tool: string | null;
  elapsed: string;
  usage: string | null;
}

/** What the line above the composer says, or null when Claude is not working (the line is hidden). */
export function doingNow(status: TabStatus | undefined, tool: ToolCallEntry | null, turnStart: number | null, now: number): DoingNow | null {
  if (status?.state !== 'busy') return null;
  const what = status.compacting ? 'Compacting the conversation' : tool ? (tool.summary ? `${tool.name}: ${tool.summary}` : tool.name) : 'Working';
  return {
    what,
    tool: status.compacting ? null : (tool?.name ?? null),
    elapsed: elapsedText(now - (turnStart ?? status.since)),
    usage: usageText(status.usage),
  };
}

/** The line as one sentence, for its accessible name and for tests. */
export function doingNowText(d: DoingNow): string {
  return [d.what, d.elapsed, d.usage].filter((p) => p !== null && p !== '').join(' · ');
}
