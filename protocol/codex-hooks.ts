/**
 * Codex CLI hook payloads, as a command hook gets them on stdin (Codex 0.169.0, captured in
 * tests/fixtures/codex-0.169.0). They are Claude's shape (hooks.ts) with a few fields of
 * Codex's own: `model` and `permission_mode` on every event, `turn_id` on a turn's. Codex adds
 * fields in new versions, so every schema accepts unknown ones.
 */
import { z } from 'zod';
import { HookCommon, type HookReading, HookToolInput, parseEventPayload, parseHookPayload } from './hooks.js';

const Common = HookCommon.extend({
  model: z.string().max(256).optional(),
  /** The turn a turn's events belong to; absent on SessionStart and SessionEnd. */
  turn_id: z.string().max(256).optional(),
});

export const CODEX_HOOK_SCHEMAS = {
  /** Fires with the first prompt, not when Codex starts; `source` is `startup` or `resume`. */
  SessionStart: Common.extend({ source: z.string().max(64).optional() }),
  UserPromptSubmit: Common.extend({ prompt: z.string() }),
  /** `tool_name` is `Bash` for a command (`tool_input.command`). */
  PreToolUse: Common.extend({ tool_name: z.string().max(256), tool_input: HookToolInput, tool_use_id: z.string().max(256).optional() }),
  /** The same call, with `tool_input.description`: the model's reason for asking. */
  PermissionRequest: Common.extend({ tool_name: z.string().max(256), tool_input: HookToolInput }),
  PostToolUse: Common.extend({
    tool_name: z.string().max(256),
    tool_input: HookToolInput.optional(),
    tool_response: z.unknown().optional(),
    tool_use_id: z.string().max(256).optional(),
  }),
  Stop: Common.extend({ stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().nullable().optional() }),
  /** The turn was stopped (Esc, or Esc on a dialog): no Stop follows. */
  Interrupt: Common,
  SessionEnd: Common.extend({ reason: z.string().max(256).optional() }),
  PreCompact: Common.extend({ trigger: z.string().max(64).optional() }),
  PostCompact: Common.extend({ trigger: z.string().max(64).optional() }),
  SubagentStart: Common,
  SubagentStop: Common,
} as const;

export type CodexHookEventName = keyof typeof CODEX_HOOK_SCHEMAS;
export const CODEX_HOOK_EVENT_NAMES = Object.keys(CODEX_HOOK_SCHEMAS) as CodexHookEventName[];

export type CodexHookPayload = {
  [K in CodexHookEventName]: z.infer<(typeof CODEX_HOOK_SCHEMAS)[K]> & { hook_event_name: K };
}[CodexHookEventName];

export function isCodexHookEventName(name: string): name is CodexHookEventName {
  return Object.hasOwn(CODEX_HOOK_SCHEMAS, name);
}

/** Parses a Codex hook payload for the event it was sent for; the body must name the same event. */
export function parseCodexHookPayload(event: string, body: unknown): { ok: true; payload: CodexHookPayload } | { ok: false; error: string } {
  return parseEventPayload<CodexHookPayload>(CODEX_HOOK_SCHEMAS, event, body);
}

/**
 * A Codex hook as the agent acts on it. Codex's events are Claude's by name and shape, and are
 * read by Claude's schemas too once Codex's own checks passed: a `null` last message is none.
 * Interrupt (Esc, or Esc on a dialog: no Stop follows) stops the turn; SubagentStart moves
 * nothing.
 */
export function readCodexHook(event: string, body: unknown): HookReading {
  const parsed = parseCodexHookPayload(event, body);
  if (!parsed.ok) return parsed;
  const payload = parsed.payload;
  if (payload.hook_event_name === 'Interrupt') return { ok: true, kind: 'interrupt', payload };
  if (payload.hook_event_name === 'SubagentStart') return { ok: true, kind: 'noted', payload };
  // `permission_mode` names Codex's own modes, not Claude's: never read as one of Claude's.
  const { permission_mode: _codexMode, ...rest } = payload;
  const shared = rest.hook_event_name === 'Stop' && rest.last_assistant_message === null ? { ...rest, last_assistant_message: undefined } : rest;
  const read = parseHookPayload(event, shared);
  return read.ok ? { ok: true, kind: 'event', payload: read.payload } : read;
}
