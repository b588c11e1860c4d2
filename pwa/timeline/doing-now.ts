/**
 * "What Claude is doing now", above the composer while Claude works: the tool it runs, how long
 * the turn has gone on, the tokens it has written this turn, and its context use as Claude's
 * status line last reported it.
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
 * The tokens Claude wrote since the person last spoke, as Claude Code's own spinner counts
 * them (output tokens); null while the turn has no message reporting its usage. Every entry of
 * one API message repeats that message's usage, so each message id counts once, with the usage
 * of its latest line.
 */
export function turnOutputTokens(entries: readonly TimelineEntry[]): number | null {
  const perMessage = new Map<string, number>();
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (!e || e.kind === 'prompt') break;
    if ((e.kind === 'assistant-text' || e.kind === 'tool-call' || e.kind === 'thinking') && e.usage && !perMessage.has(e.messageId)) {
      perMessage.set(e.messageId, e.usage.outputTokens);
    }
  }
  if (perMessage.size === 0) return null;
  let total = 0;
  for (const n of perMessage.values()) total += n;
  return total;
}

/** 950, 1.2k, 34k, 1.5M: short enough for a phone's line. */
export function tokenCountText(n: number): string {
  const count = Math.max(0, Math.round(n));
  if (count < 1000) return String(count);
  const [value, unit] = count < 999_500 ? [count / 1000, 'k'] : [count / 1_000_000, 'M'];
  // One decimal below 10 (1.2k), none above (34k); a rounding that reaches 10 drops it too.
  const short = value < 9.95 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${short}${unit}`;
}

/** "1.2k tokens", or null when the turn has not reported any. */
export function tokensText(tokens: number | null | undefined): string | null {
  if (tokens === null || tokens === undefined || !Number.isFinite(tokens)) return null;
  return `${tokenCountText(tokens)} ${tokens === 1 ? 'token' : 'tokens'}`;
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

/** ["43% context", "$0.12"], from what the status line reported; empty when it reported neither. */
export function usageParts(usage: TabUsage | null | undefined): string[] {
  if (!usage) return [];
  const parts: string[] = [];
  if (usage.contextPercent !== null && Number.isFinite(usage.contextPercent)) parts.push(`${Math.round(usage.contextPercent)}% context`);
  if (usage.costUsd !== null && Number.isFinite(usage.costUsd)) parts.push(`$${usage.costUsd.toFixed(2)}`);
  return parts;
}

export interface DoingNow {
  /** The tool and what it runs on (`Bash: npm test`), or what Claude does without one. */
  what: string;
  /** The tool's name alone, when one runs. */
  tool: string | null;
  elapsed: string;
  /** The tokens written this turn (`1.2k tokens`), drawn after a ↓ as Claude Code does. */
  tokens: string | null;
  /** Context use and cost, each a part of its own so the line can wrap between them. */
  usage: string[];
}

/** What the line above the composer says, or null when Claude is not working (the line is hidden). */
export function doingNow(
  status: TabStatus | undefined,
  tool: ToolCallEntry | null,
  turnStart: number | null,
  now: number,
  tokens: number | null,
): DoingNow | null {
  if (status?.state !== 'busy') return null;
  const what = status.compacting ? 'Compacting the conversation' : tool ? (tool.summary ? `${tool.name}: ${tool.summary}` : tool.name) : 'Working';
  return {
    what,
    tool: status.compacting ? null : (tool?.name ?? null),
    elapsed: elapsedText(now - (turnStart ?? status.since)),
    tokens: tokensText(tokens),
    usage: usageParts(status.usage),
  };
}

/** The line as one sentence, for its accessible name and for tests. */
export function doingNowText(d: DoingNow): string {
  return [d.what, d.elapsed, d.tokens, ...d.usage].filter((p) => p !== null && p !== '').join(' · ');
}
