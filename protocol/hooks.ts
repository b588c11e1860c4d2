/**
 * Claude Code hook payloads, as the hook script forwards them to `POST /hooks/<event>`.
 * Claude adds fields in new versions, so every schema accepts unknown fields; what the
 * agent reads is required only where an event means nothing without it.
 */
import { z } from 'zod';
import { safeParse } from './safe-parse.js';

/** What every agent CLI's hook payload holds (Claude's, Codex's): its session, where, and which event. */
export const HookCommon = z.looseObject({
  session_id: z.string().min(1).max(256),
  /** Kept in the status and sent to every client: bounded like any path. */
  transcript_path: z.string().max(4096).optional(),
  cwd: z.string().max(4096).optional(),
  hook_event_name: z.string().min(1),
  permission_mode: z.string().optional(),
});
const Common = HookCommon;

/** A tool call's arguments, as the CLI gives them. */
export const HookToolInput = z.record(z.string(), z.unknown());
const ToolInput = HookToolInput;

export const HOOK_SCHEMAS = {
  SessionStart: Common.extend({ source: z.string().optional(), model: z.string().optional() }),
  UserPromptSubmit: Common.extend({ prompt: z.string() }),
  PreToolUse: Common.extend({ tool_name: z.string(), tool_input: ToolInput, tool_use_id: z.string().optional() }),
  PermissionRequest: Common.extend({
    tool_name: z.string(),
    tool_input: ToolInput,
    permission_suggestions: z.array(z.unknown()).optional(),
  }),
  /** Auto mode's classifier (or a rule) blocked a tool call; `reason` is what Claude shows: "[Code from External]". */
  PermissionDenied: Common.extend({
    tool_name: z.string(),
    tool_input: ToolInput.optional(),
    tool_use_id: z.string().optional(),
    reason: z.string().optional(),
  }),
  Notification: Common.extend({ message: z.string().optional(), notification_type: z.string().optional() }),
  PostToolUse: Common.extend({
    tool_name: z.string(),
    tool_input: ToolInput.optional(),
    tool_response: z.unknown().optional(),
    tool_use_id: z.string().optional(),
  }),
  PostToolUseFailure: Common.extend({ tool_name: z.string(), tool_input: ToolInput.optional(), tool_use_id: z.string().optional(), error: z.unknown().optional() }),
  Stop: Common.extend({ stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().optional() }),
  StopFailure: Common.extend({ error: z.unknown().optional() }),
  SessionEnd: Common.extend({ reason: z.string().optional() }),
  PreCompact: Common.extend({ trigger: z.string().optional() }),
  PostCompact: Common.extend({ trigger: z.string().optional(), compact_summary: z.string().optional() }),
  SubagentStop: Common,
} as const;

export type HookEventName = keyof typeof HOOK_SCHEMAS;
export const HOOK_EVENT_NAMES = Object.keys(HOOK_SCHEMAS) as HookEventName[];

export type HookPayload = {
  [K in HookEventName]: z.infer<(typeof HOOK_SCHEMAS)[K]> & { hook_event_name: K };
}[HookEventName];

export type HookParseResult = { ok: true; payload: HookPayload } | { ok: false; error: string };

/**
 * A hook of any agent CLI, as the agent acts on it: an event in Claude's terms (Codex's
 * payloads are Claude-shaped), the turn stopped by the person (Codex's Interrupt; Claude fires
 * no hook for it), or a sign of life that moves nothing (Codex's SubagentStart).
 */
export type HookReading =
  | { ok: true; kind: 'event'; payload: HookPayload }
  | { ok: true; kind: 'interrupt' | 'noted'; payload: z.infer<typeof HookCommon> }
  | { ok: false; error: string };

/** Claude's hooks as readings: every event is one of HOOK_SCHEMAS. */
export function readClaudeHook(event: string, body: unknown): HookReading {
  const parsed = parseHookPayload(event, body);
  return parsed.ok ? { ok: true, kind: 'event', payload: parsed.payload } : parsed;
}

export function isHookEventName(name: string): name is HookEventName {
  return Object.hasOwn(HOOK_SCHEMAS, name);
}

/**
 * Parses a payload for the event named in the URL. The body must name the same event:
 * a mismatch means a misconfigured hook, refused rather than guessed at.
 */
export function parseHookPayload(event: string, body: unknown): HookParseResult {
  return parseEventPayload<HookPayload>(HOOK_SCHEMAS, event, body);
}

/** The same for any agent CLI's table of hook schemas (hooks.ts for Claude, codex-hooks.ts for Codex). */
export function parseEventPayload<P>(
  schemas: Readonly<Record<string, z.ZodType<{ hook_event_name: string }>>>,
  event: string,
  body: unknown,
): { ok: true; payload: P } | { ok: false; error: string } {
  const schema = Object.hasOwn(schemas, event) ? schemas[event] : undefined;
  if (!schema) return { ok: false, error: `unknown hook event "${event}"` };
  const parsed = safeParse(schema, body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    return { ok: false, error: `invalid ${event} payload: ${issues}` };
  }
  if (parsed.data.hook_event_name !== event) {
    return { ok: false, error: `payload says hook_event_name "${parsed.data.hook_event_name}" but was posted to ${event}` };
  }
  return { ok: true, payload: parsed.data as P };
}

/** Notification types that mean Claude waits for a permission answer. */
export const PERMISSION_NOTIFICATION_TYPES: ReadonlySet<string> = new Set(['permission_prompt', 'worker_permission_prompt']);

const Percent = z.number().min(0).max(100);
const RateWindow = z.looseObject({
  used_percentage: Percent.optional(),
  resets_at: z.union([z.number(), z.string()]).optional(),
});

/** The JSON Claude Code pipes to a statusLine command (reported by hook.sh as `statusline`). */
export const StatusLineReport = z.looseObject({
  session_id: z.string().min(1),
  cwd: z.string().max(4096).optional(),
  model: z.looseObject({ id: z.string().optional(), display_name: z.string().optional() }).optional(),
  cost: z.looseObject({ total_cost_usd: z.number().nonnegative().optional() }).optional(),
  context_window: z.looseObject({ used_percentage: Percent.optional(), context_window_size: z.number().optional() }).optional(),
  rate_limits: z
    .looseObject({ five_hour: RateWindow.optional(), seven_day: RateWindow.optional() })
    .optional(),
});
export type StatusLineReport = z.infer<typeof StatusLineReport>;
