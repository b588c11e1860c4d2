import { currentSessionKey } from '../../protocol/hook-contract.js';
import { parseSessionKey } from '../../protocol/session-key.js';
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import type { HookPayload, StatusLineReport } from '../../protocol/hooks.js';
import { CLAUDE_STATES, type HookEventView, type StatusServerMessage, type TabStatus, type TabUsage } from '../../protocol/status.js';
import { DEFAULTS } from '../config/config.js';
import { readJsonFile } from '../store/atomic-file.js';
import { GatheredWriter } from '../store/gathered-writer.js';
import { CLAUDE_MODES } from '../../protocol/claude-mode.js';
import type { Logger } from '../util/log.js';
import { initialStatus, nextStatus, restoredStatus, type StatusEffect, type StatusEvent } from './reducer.js';
import type { Disposable } from '../util/disposable.js';

const PersistedStatus = z.object({
  state: z.enum(CLAUDE_STATES),
  seq: z.number().int().nonnegative(),
  claudeRunning: z.boolean(),
  compacting: z.boolean(),
  sessionId: z.string().nullable(),
  lastHookAt: z.number().nullable(),
  since: z.number(),
  transcriptPath: z.string().nullable().default(null),
  lastMessage: z.string().nullable().default(null),
  permissionMode: z.enum(CLAUDE_MODES).nullable().default(null),
  turnChanges: z.object({ files: z.number().int().nonnegative(), added: z.number().int().nonnegative(), removed: z.number().int().nonnegative() }).nullable().default(null),
  // Usage is refreshed by the next statusLine report; it is not worth keeping across restarts.
  usage: z.unknown().transform(() => null),
});
const StatusFile = z.object({ version: z.literal(1), tabs: z.record(z.string(), PersistedStatus) });




/** The last time anything was heard of a session: a hook, a statusLine report or a state change. */
function lastActivity(status: TabStatus): number {
  return Math.max(status.lastHookAt ?? 0, status.since, status.usage?.at ?? 0);
}

function hookDetail(payload: HookPayload): string | null {
  switch (payload.hook_event_name) {
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return payload.tool_name;
    case 'Notification':
      return payload.message ?? payload.notification_type ?? null;
    case 'SessionStart':
      return payload.source ?? null;
    case 'SessionEnd':
      return payload.reason ?? null;
    default:
      return null;
  }
}

/**
 * Owns every tab's status: feeds events through the pure reducer, persists the result, and
 * tells listeners (the /api/status channel, later push and approvals) what changed.
 */
/**
 * Whether a client should hear of this change: any field but `usage`, which statusLine reports
 * bring on their own path (`usage` below) and which a hook event never changes.
 */
function changedBesidesUsage(before: TabStatus, after: TabStatus): boolean {
  return (Object.keys(after) as (keyof TabStatus)[]).some((field) => field !== 'usage' && after[field] !== before[field]);
}

export class StatusManager extends EventEmitter<{ message: [StatusServerMessage]; effect: [string, StatusEffect] }> implements Disposable {
  private readonly tabs = new Map<string, TabStatus>();
  private readonly file: GatheredWriter;

  constructor(
    private readonly path: string,
    private readonly log: Logger,
    /** Outside sessions kept at most: any claude on the machine can report, and each would stay forever. */
    private readonly maxOutside: number = DEFAULTS.maxOutsideSessions,
  ) {
    super();
    this.file = new GatheredWriter(path, () => ({ version: 1, tabs: Object.fromEntries(this.tabs) }), log, 'the status file');
  }

  /** Loads persisted statuses; a tab that was busy comes back unknown until re-checked. */
  load(): void {
    const result = readJsonFile(this.path, StatusFile);
    if (result.status === 'corrupt') {
      this.log.error('status file is corrupt; starting with no status', { reason: result.reason, setAsideAs: result.setAsideAs });
      return;
    }
    if (result.status !== 'ok') return;
    for (const [key, status] of Object.entries(result.value.tabs)) this.tabs.set(currentSessionKey(key), restoredStatus(status));
    this.forgetLeastActiveOutside();
  }

  /** Writes are gathered (GatheredWriter): a burst of hooks costs one write, keeping the hook path fast. */
  private persist(): void {
    this.file.schedule();
  }

  /** On shutdown: lets a write in flight land, then writes the latest state. */
  flush(): Promise<void> {
    return this.file.flush();
  }

  /** The agent stops: what is not yet on disk is written. */
  dispose(): Promise<void> {
    return this.flush();
  }

  get(key: string): TabStatus | undefined {
    return this.tabs.get(key);
  }

  snapshot(): Record<string, TabStatus> {
    return Object.fromEntries(this.tabs);
  }

  apply(key: string, event: StatusEvent): TabStatus {
    const before = this.tabs.get(key) ?? initialStatus(event.at);
    const { status, effects } = nextStatus(before, event);
    const isNew = !this.tabs.has(key);
    if (status !== before || isNew) {
      this.tabs.set(key, status);
      if (isNew) this.forgetLeastActiveOutside(key);
      this.persist();
      if (changedBesidesUsage(before, status)) {
        this.emit('message', { type: 'status:update', tabId: key, status });
      }
    }
    for (const effect of effects) this.emit('effect', key, effect);
    return status;
  }

  /** A statusLine report: usage figures only, no state change and no sequence bump. */
  applyUsage(key: string, report: StatusLineReport, at = Date.now()): void {
    const before = this.tabs.get(key) ?? initialStatus(at);
    const window = (w: { used_percentage?: number | undefined; resets_at?: number | string | undefined } | undefined) =>
      w ? { usedPercent: w.used_percentage ?? null, resetsAt: w.resets_at ?? null } : null;
    const usage: TabUsage = {
      model: report.model?.display_name ?? report.model?.id ?? null,
      contextPercent: report.context_window?.used_percentage ?? null,
      costUsd: report.cost?.total_cost_usd ?? null,
      fiveHour: window(report.rate_limits?.five_hour),
      sevenDay: window(report.rate_limits?.seven_day),
      at,
    };
    const same = before.usage && JSON.stringify({ ...before.usage, at: 0 }) === JSON.stringify({ ...usage, at: 0 });
    const status = { ...before, usage };
    const isNew = !this.tabs.has(key);
    this.tabs.set(key, status);
    if (isNew) this.forgetLeastActiveOutside(key);
    if (same) return;
    this.persist();
    this.emit('message', { type: 'status:update', tabId: key, status });
  }

  applyHook(key: string, payload: HookPayload, at = Date.now()): TabStatus {
    const status = this.apply(key, { kind: 'hook', payload, at });
    const hook: HookEventView = { tabId: key, event: payload.hook_event_name, seq: status.seq, at, detail: hookDetail(payload) };
    this.emit('message', { type: 'status:hook-event', hook });
    return status;
  }

  /** A tab closed, or an outside session was let go: its status goes with it, on clients too. */
  forget(key: string): void {
    if (!this.tabs.delete(key)) return;
    this.persist();
    this.emit('message', { type: 'status:removed', tabId: key });
  }

  /** Past the cap, the outside sessions heard of least recently are forgotten; `keep` just arrived. */
  private forgetLeastActiveOutside(keep?: string): void {
    const outside = [...this.tabs].filter(([key]) => parseSessionKey(key).kind === 'outside' && key !== keep);
    const excess = outside.length + (keep !== undefined && parseSessionKey(keep).kind === 'outside' ? 1 : 0) - this.maxOutside;
    if (excess <= 0) return;
    // A stable sort keeps map order (first heard of first) among equal times.
    outside.sort(([, a], [, b]) => lastActivity(a) - lastActivity(b));
    for (const [key] of outside.slice(0, excess)) {
      this.forget(key);
      this.log.debug('forgot the least active Claude session outside the tabs: too many to keep', { key, max: this.maxOutside });
    }
  }
}
