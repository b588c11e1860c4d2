/**
 * Codex runs a command hook only once the person has trusted it: its config keeps, per hook, a
 * `trusted_hash` that must equal the hook's current hash (`hooks.state."<key>".trusted_hash`).
 * Codex reads that state from the session flags too (`-c`), so a tab pocketmux starts can
 * carry its hooks and their trust on its command line, and nothing is written to the person's
 * `config.toml`. Verified with Codex 0.169.0 (`codex app-server`'s `hooks/list`, captured in
 * tests/fixtures/codex-0.169.0/hooks-list.json).
 */
import { createHash } from 'node:crypto';
import type { CodexHookEventName } from '../../protocol/codex-hooks.js';

/** One command hook, as pocketmux gives it to Codex. */
export interface CodexCommandHook {
  command: string;
  /** Seconds, whole. SessionEnd and Interrupt hooks run 3 s at most (see `codexTimeout`). */
  timeoutSec: number;
  matcher?: string;
  statusMessage?: string;
}

/** Codex's name for an event inside hook keys and hashes: `PermissionRequest` → `permission_request`. */
export function codexEventLabel(event: CodexHookEventName): string {
  return event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Events whose hooks Codex stops after this many seconds, whatever they ask for. */
const SHORT_EVENTS: ReadonlySet<CodexHookEventName> = new Set(['SessionEnd', 'Interrupt']);
const SHORT_TIMEOUT_SEC = 3;

/**
 * The timeout Codex gives a hook, which is also the one it hashes: asked for 5 s, a SessionEnd
 * hook gets 3 and is trusted only by the hash of 3.
 */
export function codexTimeout(event: CodexHookEventName, timeoutSec: number): number {
  const whole = Math.max(1, Math.trunc(timeoutSec));
  return SHORT_EVENTS.has(event) ? Math.min(whole, SHORT_TIMEOUT_SEC) : whole;
}

/** Where Codex says session-flag hooks come from: the first part of their keys. */
const SESSION_FLAGS_SOURCE = '/<session-flags>/config.toml';

/** The key of the only hook of an event's first matcher group, given as session flags. */
export function codexHookKey(event: CodexHookEventName): string {
  return `${SESSION_FLAGS_SOURCE}:${codexEventLabel(event)}:0:0`;
}

/** JSON with every object's keys in order, as Codex serialises a hook's identity. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * The hash Codex trusts a hook by: SHA-256 over the canonical JSON of its identity (the event,
 * the matcher, and the one handler with its timeout and its defaults written out).
 */
export function codexHookHash(event: CodexHookEventName, hook: CodexCommandHook): string {
  const handler = {
    type: 'command',
    command: hook.command,
    timeout: codexTimeout(event, hook.timeoutSec),
    async: false,
    ...(hook.statusMessage === undefined ? {} : { statusMessage: hook.statusMessage }),
  };
  const identity = { event_name: codexEventLabel(event), ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }), hooks: [handler] };
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical(identity))).digest('hex')}`;
}

/** A TOML basic string; a lone surrogate (which TOML cannot hold) is refused. */
function tomlString(text: string): string {
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) throw new Error('a Codex hook setting cannot hold a lone surrogate');
  // JSON's escapes (\" \\ \n \t \uXXXX) are TOML's.
  return JSON.stringify(text);
}

/**
 * The `-c` setting (`hooks={…}`) that gives Codex these hooks, each trusted: one argument after
 * `-c`, passed to the process as it is (never through a shell).
 */
export function codexHooksSetting(hooks: Partial<Record<CodexHookEventName, CodexCommandHook>>): string {
  const events: string[] = [];
  const state: string[] = [];
  for (const [event, hook] of Object.entries(hooks) as [CodexHookEventName, CodexCommandHook][]) {
    const handler = [`type="command"`, `command=${tomlString(hook.command)}`, `timeout=${codexTimeout(event, hook.timeoutSec)}`];
    if (hook.statusMessage !== undefined) handler.push(`statusMessage=${tomlString(hook.statusMessage)}`);
    const group = [...(hook.matcher === undefined ? [] : [`matcher=${tomlString(hook.matcher)}`]), `hooks=[{${handler.join(',')}}]`];
    events.push(`${event}=[{${group.join(',')}}]`);
    state.push(`${tomlString(codexHookKey(event))}={trusted_hash=${tomlString(codexHookHash(event, hook))}}`);
  }
  return `hooks={${[...events, `state={${state.join(',')}}`].join(',')}}`;
}
