import { type HookPayload, PERMISSION_NOTIFICATION_TYPES } from '../../protocol/hooks.js';
import { type ClaudeMode, claudeModeOf } from '../../protocol/claude-mode.js';
import type { ChangesTotal } from '../../protocol/changes-summary.js';
import { type ClaudeState, LAST_MESSAGE_MAX, type TabStatus } from '../../protocol/status.js';

/** Everything that can move a tab's status. Hooks are the source of truth; the rest fills gaps. */
export type StatusEvent =
  | { kind: 'hook'; payload: HookPayload; at: number }
  /** The transcript's last user line is `[Request interrupted by user…` (Claude fires no hook for Esc). */
  | { kind: 'interrupt'; at: number }
  /** Process detection found no claude in the pane. */
  | { kind: 'process-gone'; at: number }
  /** The person opened or dismissed a tab that was ready for review. */
  | { kind: 'dismissed'; at: number }
  /** Restart recovery decided what an `unknown` tab really is. */
  | { kind: 'recovered'; state: ClaudeState; claudeRunning: boolean; at: number }
  /**
   * An approval is still open in the tab after a hook moved it on (two permission requests at
   * once, one answered; a dialog read off the screen after a restart): Claude still waits.
   */
  | { kind: 'approval-open'; at: number }
  /**
   * A dialog read off the screen, which made the tab wait, left it with no hook saying what came
   * next (the startup offer answered, a notice dismissed): the tab is back where it was.
   */
  | { kind: 'dialog-closed'; state: ClaudeState; at: number }
  /** The permission mode Claude's footer shows (a hook says it only with the next prompt or tool). */
  | { kind: 'mode-seen'; mode: ClaudeMode; at: number }
  /** What the turn that ended changed, compared by agent/changes (a while after its Stop). */
  | { kind: 'turn-changes'; total: ChangesTotal; at: number };

export type StatusEffect =
  /** Tell the person (Web Push, desktop notification): only for these two states. */
  | { kind: 'notify'; state: 'needs-input' | 'ready-for-review' }
  /** The permission dialog was answered elsewhere (in the terminal) or became moot. */
  | { kind: 'permission-settled'; reason: 'tool-ran' | 'new-prompt' | 'turn-ended' | 'session-ended' | 'claude-gone' };

export interface Transition {
  status: TabStatus;
  effects: StatusEffect[];
}

export function initialStatus(at: number): TabStatus {
  return {
    state: 'idle',
    seq: 0,
    claudeRunning: false,
    compacting: false,
    sessionId: null,
    lastHookAt: null,
    since: at,
    transcriptPath: null,
    usage: null,
    lastMessage: null,
    permissionMode: null,
    turnChanges: null,
  };
}

/**
 * After an agent restart: a tab that was busy may have finished or died meanwhile, so it
 * becomes `unknown` until re-checked. Other states are kept: the ball is in the person's court.
 */
export function restoredStatus(persisted: TabStatus): TabStatus {
  return persisted.state === 'busy' ? { ...persisted, state: 'unknown' } : persisted;
}

function moveTo(status: TabStatus, state: ClaudeState, at: number, effects: StatusEffect[]): TabStatus {
  if (status.state === state) return status;
  if (state === 'needs-input' || state === 'ready-for-review') effects.push({ kind: 'notify', state });
  return { ...status, state, since: at };
}

/**
 * The status state machine (its table is in docs/architecture.md), as a pure function: the
 * current status and one event give the next status and what should happen because of it
 * (`notify` and `permission-settled` are for Web Push and approvals to act on).
 */
export function nextStatus(status: TabStatus, event: StatusEvent): Transition {
  const effects: StatusEffect[] = [];
  switch (event.kind) {
    case 'hook':
      return { status: applyHook(status, event.payload, event.at, effects), effects };
    case 'interrupt': {
      // Only an interrupt newer than the last hook counts: a hook after it supersedes it.
      if (status.lastHookAt !== null && event.at <= status.lastHookAt) return { status, effects };
      if (status.state !== 'busy' && status.state !== 'needs-input') return { status, effects };
      if (status.state === 'needs-input') effects.push({ kind: 'permission-settled', reason: 'turn-ended' });
      return { status: moveTo(status, 'idle', event.at, effects), effects };
    }
    case 'process-gone': {
      if (!status.claudeRunning && status.state === 'idle') return { status, effects };
      if (status.state === 'needs-input') effects.push({ kind: 'permission-settled', reason: 'claude-gone' });
      const next = moveTo(status, 'idle', event.at, effects);
      return { status: { ...next, claudeRunning: false, compacting: false }, effects };
    }
    case 'dismissed':
      if (status.state !== 'ready-for-review') return { status, effects };
      return { status: moveTo(status, 'idle', event.at, effects), effects };
    case 'approval-open':
      // The approval itself is what the person is told of; the state only follows it.
      if (!status.claudeRunning || status.state === 'needs-input') return { status, effects };
      return { status: { ...status, state: 'needs-input', since: event.at }, effects };
    case 'dialog-closed':
      // Only a wait the dialog made is undone; a hook since has said what Claude does.
      if (status.state !== 'needs-input' || event.state === 'needs-input') return { status, effects };
      return { status: { ...status, state: event.state, since: event.at }, effects };
    case 'mode-seen':
      return { status: status.permissionMode === event.mode ? status : { ...status, permissionMode: event.mode }, effects };
    case 'turn-changes': {
      // A turn's changes, and only while no new prompt has started another.
      const known = status.turnChanges;
      const same = known !== null && known.files === event.total.files && known.added === event.total.added && known.removed === event.total.removed;
      return { status: status.state === 'busy' || same ? status : { ...status, turnChanges: { ...event.total } }, effects };
    }
    case 'recovered': {
      // Recovery never notifies: the person was not waiting on a change they did not see.
      const next = status.state === event.state ? status : { ...status, state: event.state, since: event.at };
      return { status: { ...next, claudeRunning: event.claudeRunning }, effects: [] };
    }
  }
}

/** Claude's answer as a card shows it: bounded, and with nothing that is only whitespace. */
function lastMessage(text: string | undefined): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  return trimmed.length > LAST_MESSAGE_MAX ? `${trimmed.slice(0, LAST_MESSAGE_MAX - 1)}…` : trimmed;
}

function applyHook(before: TabStatus, payload: HookPayload, at: number, effects: StatusEffect[]): TabStatus {
  const status: TabStatus = {
    ...before,
    seq: before.seq + 1,
    lastHookAt: at,
    sessionId: payload.session_id,
    transcriptPath: payload.transcript_path ?? before.transcriptPath,
    claudeRunning: payload.hook_event_name !== 'SessionEnd',
    permissionMode: claudeModeOf(payload.permission_mode) ?? before.permissionMode,
  };
  const settle = (reason: Extract<StatusEffect, { kind: 'permission-settled' }>['reason']) => {
    if (status.state === 'needs-input') effects.push({ kind: 'permission-settled', reason });
  };
  switch (payload.hook_event_name) {
    case 'SessionStart':
      return moveTo({ ...status, compacting: false }, 'idle', at, effects);
    case 'UserPromptSubmit':
      settle('new-prompt');
      return moveTo({ ...status, lastMessage: null, turnChanges: null }, 'busy', at, effects);
    case 'PermissionRequest':
      return moveTo(status, 'needs-input', at, effects);
    case 'Notification':
      if (payload.notification_type && PERMISSION_NOTIFICATION_TYPES.has(payload.notification_type)) {
        return moveTo(status, 'needs-input', at, effects);
      }
      return status;
    case 'PostToolUse':
    case 'PostToolUseFailure':
      if (status.state !== 'needs-input') return status;
      settle('tool-ran');
      return moveTo(status, 'busy', at, effects);
    case 'Stop':
      settle('turn-ended');
      return moveTo({ ...status, lastMessage: lastMessage(payload.last_assistant_message) }, 'ready-for-review', at, effects);
    case 'StopFailure':
      settle('turn-ended');
      return moveTo(status, 'ready-for-review', at, effects);
    case 'PreCompact':
      return { ...status, compacting: true };
    case 'PostCompact':
      return { ...status, compacting: false };
    case 'SessionEnd':
      settle('session-ended');
      return moveTo({ ...status, compacting: false }, 'idle', at, effects);
    case 'PreToolUse':
    case 'SubagentStop':
    // A blocked call: Claude goes on (its card is offered as a block; the state does not move).
    case 'PermissionDenied':
      return status;
  }
}
