/**
 * What the service worker does with a push and with a tap on its notification. Kept apart from
 * sw.ts so the decisions are plain functions a unit test can run; the worker only wires them.
 */
import { APPROVAL_OUTCOMES, type ApprovalOutcome } from '../../protocol/approvals.js';
import { type PushAction, type PushPayload, PushPayloadSchema } from '../../protocol/push.js';
import { safeParse } from '../../protocol/safe-parse.js';

/** Kept on the notification, for its click handler. */
export interface NotificationData {
  url: string;
  approvalId: string | null;
  /** The notification's title, for the outcome line ("Approved · Bash: npm test"). */
  title: string;
  decisions: Record<string, PushAction['decision']>;
}

/** A push's payload, or null for anything this app did not send. */
export function readPush(text: string | null | undefined): PushPayload | null {
  if (!text) return null;
  try {
    const parsed = safeParse(PushPayloadSchema, JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function notificationFor(payload: Extract<PushPayload, { kind: 'show' }>): { title: string; options: NotificationOptions & { actions?: { action: string; title: string }[]; renotify?: boolean } } {
  const data: NotificationData = {
    url: payload.url,
    approvalId: payload.approvalId,
    title: payload.title,
    decisions: Object.fromEntries(payload.actions.map((a) => [a.action, a.decision])),
  };
  return {
    title: payload.title,
    options: {
      body: payload.body,
      tag: payload.tag,
      data,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      actions: payload.actions.map((a) => ({ action: a.action, title: a.title })),
      // An approval stays until answered; a new push for the same tag buzzes again.
      requireInteraction: payload.approvalId !== null,
      renotify: true,
    },
  };
}

const OUTCOME_TITLES: Record<ApprovalOutcome, string> = {
  approved: 'Approved',
  'approved-always': 'Always allowed',
  denied: 'Denied',
  answered: 'Answered',
  'answered-in-terminal': 'Answered in the terminal',
  'moved-to-terminal': 'Shown in the terminal',
  expired: 'Expired',
  'claude-exited': 'Claude is no longer waiting',
  'agent-stopped': 'pocketmux stopped',
};

/**
 * The line that replaces a notification once its button was pressed: what happened, for the
 * request it was about ("Approved · Bash: npm test"), or why not ("Already answered in the
 * terminal", from the agent's own words).
 */
export function outcomeLine(status: number, body: unknown, title: string): string {
  const outcome = (body as { resolution?: { outcome?: unknown } } | null)?.resolution?.outcome;
  if (status === 200 && typeof outcome === 'string' && (APPROVAL_OUTCOMES as readonly string[]).includes(outcome)) {
    return `${OUTCOME_TITLES[outcome as ApprovalOutcome]} · ${title}`;
  }
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string' && error) return `${error.charAt(0).toUpperCase()}${error.slice(1)}`;
  if (status === 401) return 'This device is no longer paired: open pocketmux';
  return `Could not answer (${status === 0 ? 'pocketmux is unreachable' : `HTTP ${status}`}): open pocketmux`;
}
