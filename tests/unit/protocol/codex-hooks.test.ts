import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCodexHookEventName, parseCodexHookPayload, readCodexHook } from '../../../protocol/codex-hooks.js';

const CAPTURED = join(import.meta.dirname, '..', '..', 'fixtures', 'codex-0.169.0');

function captured(file: string): Record<string, unknown>[] {
  return readFileSync(join(CAPTURED, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('Codex hook payloads', () => {
  it('reads every payload Codex 0.169.0 sent, for the event it names', () => {
    const all = ['hooks.jsonl', 'deny-hooks.jsonl', 'escape-hooks.jsonl', 'short-turn-hooks.jsonl'].flatMap(captured);
    const events = new Set<string>();
    for (const payload of all) {
      const event = String(payload.hook_event_name);
      events.add(event);
      const parsed = parseCodexHookPayload(event, payload);
      expect(parsed.ok, `${event}: ${parsed.ok ? '' : parsed.error}`).toBe(true);
    }
    expect([...events].sort()).toEqual(['Interrupt', 'PermissionRequest', 'PostToolUse', 'PreToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
  });

  it('reads what pocketmux needs of a turn: the command asked for, its reason, the last message', () => {
    const byEvent = new Map(captured('hooks.jsonl').map((p) => [String(p.hook_event_name), p]));
    const request = parseCodexHookPayload('PermissionRequest', byEvent.get('PermissionRequest'));
    expect(request.ok && request.payload).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'echo marker > marker.txt', description: 'Write the marker file' }, model: 'gpt-5.1-codex' });
    const stop = parseCodexHookPayload('Stop', byEvent.get('Stop'));
    expect(stop.ok && stop.payload).toMatchObject({ last_assistant_message: 'Done, from the stand-in.' });
    const start = parseCodexHookPayload('SessionStart', byEvent.get('SessionStart'));
    expect(start.ok && start.payload).toMatchObject({ source: 'startup' });
  });

  it('refuses a payload sent for another event, an event Codex does not have, and one missing what it means nothing without', () => {
    const [start] = captured('hooks.jsonl');
    const wrong = parseCodexHookPayload('Stop', start);
    expect(wrong).toEqual({ ok: false, error: 'payload says hook_event_name "SessionStart" but was posted to Stop' });
    expect(parseCodexHookPayload('Notification', { session_id: 's', hook_event_name: 'Notification' })).toEqual({ ok: false, error: 'unknown hook event "Notification"' });
    expect(isCodexHookEventName('__proto__')).toBe(false);
    const noCommand = parseCodexHookPayload('PermissionRequest', { session_id: 's', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: 'ls' });
    expect(noCommand.ok).toBe(false);
    expect(!noCommand.ok && noCommand.error).toMatch(/^invalid PermissionRequest payload: tool_input: /);
    expect(parseCodexHookPayload('Stop', { hook_event_name: 'Stop' }).ok).toBe(false);
  });

  it('reads each event as the agent acts on it: Claude\'s events by Claude\'s schemas, Interrupt as the turn stopped', () => {
    const readings = ['hooks.jsonl', 'escape-hooks.jsonl', 'short-turn-hooks.jsonl'].flatMap(captured).map((p) => {
      const read = readCodexHook(String(p.hook_event_name), p);
      if (!read.ok) throw new Error(read.error);
      return [read.kind, read.kind === 'event' ? read.payload.hook_event_name : String(read.payload.hook_event_name)];
    });
    expect(readings.filter(([kind]) => kind !== 'event')).toEqual([['interrupt', 'Interrupt']]);
    expect(new Set(readings.map(([, event]) => event))).toEqual(new Set(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'SessionEnd', 'Interrupt']));
    expect(readCodexHook('SubagentStart', { session_id: 's', hook_event_name: 'SubagentStart' })).toMatchObject({ ok: true, kind: 'noted' });
    // Codex says `null` for a turn that ended with no message: none, to Claude's schema too.
    const quiet = readCodexHook('Stop', { session_id: 's', hook_event_name: 'Stop', last_assistant_message: null });
    expect(quiet.ok && quiet.kind === 'event' && quiet.payload).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: undefined });
    expect(readCodexHook('Stop', { session_id: 's', hook_event_name: 'Stop', last_assistant_message: 7 }).ok).toBe(false);
    // Codex's permission_mode names its own modes: never taken for one of Claude's.
    const start = readCodexHook('SessionStart', { session_id: 's', hook_event_name: 'SessionStart', permission_mode: 'bypassPermissions' });
    expect(start.ok && start.payload.permission_mode).toBeUndefined();
  });
});
