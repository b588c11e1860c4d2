import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CodexCommandHook, codexEventLabel, codexHookHash, codexHookKey, codexHooksSetting, codexTimeout } from '../../../../agent/codex/hook-trust.js';
import { CODEX_HOOK_EVENT_NAMES, type CodexHookEventName } from '../../../../protocol/codex-hooks.js';

const CAPTURED = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'codex-0.169.0');

interface Listed {
  key: string;
  command: string;
  timeoutSec: number;
  matcher: string | null;
  statusMessage?: string | null;
  currentHash: string;
  trustStatus: string;
}

const read = <T>(file: string): T => JSON.parse(readFileSync(join(CAPTURED, file), 'utf8')) as T;

/** The event a key of Codex names (`…:permission_request:0:0`). */
function eventOf(key: string): CodexHookEventName {
  const label = key.split(':').at(-3);
  const event = CODEX_HOOK_EVENT_NAMES.find((e) => codexEventLabel(e) === label);
  if (!event) throw new Error(`no event for ${key}`);
  return event;
}

function hookOf(listed: Listed): CodexCommandHook {
  return {
    command: listed.command,
    timeoutSec: listed.timeoutSec,
    ...(listed.matcher === null ? {} : { matcher: listed.matcher }),
    ...(listed.statusMessage ? { statusMessage: listed.statusMessage } : {}),
  };
}

describe('trusting the hooks pocketmux gives Codex, as Codex 0.169.0 trusts them', () => {
  const list = read<{ hooks: Listed[]; untrusted: Listed[] }>('hooks-list.json');

  it('names each event’s hook with the key Codex gives a session-flag hook', () => {
    expect(list.hooks).toHaveLength(CODEX_HOOK_EVENT_NAMES.length);
    for (const listed of list.hooks) expect(codexHookKey(eventOf(listed.key))).toBe(listed.key);
  });

  it('hashes every event’s hook as Codex did, matcher and status message included', () => {
    for (const listed of [...list.hooks, ...list.untrusted]) expect(codexHookHash(eventOf(listed.key), hookOf(listed)), listed.key).toBe(listed.currentHash);
  });

  it('makes the setting Codex read and trusted every hook of, quotes, a tab and a curly apostrophe in the command', () => {
    const made = read<{ inputs: Partial<Record<CodexHookEventName, CodexCommandHook>>; setting: string; listed: Listed[] }>('hooks-setting.json');
    expect(codexHooksSetting(made.inputs)).toBe(made.setting);
    expect(made.listed).toHaveLength(Object.keys(made.inputs).length);
    for (const listed of made.listed) {
      expect(listed.trustStatus).toBe('trusted');
      const event = eventOf(listed.key);
      const input = made.inputs[event];
      if (!input) throw new Error(`no input for ${event}`);
      expect(codexHookHash(event, input)).toBe(listed.currentHash);
      expect(codexTimeout(event, input.timeoutSec)).toBe(listed.timeoutSec);
    }
  });

  it('gives SessionEnd and Interrupt hooks the 3 s at most Codex runs them, and whole seconds', () => {
    expect(codexTimeout('SessionEnd', 10)).toBe(3);
    expect(codexTimeout('Interrupt', 2)).toBe(2);
    expect(codexTimeout('PermissionRequest', 600)).toBe(600);
    expect(codexTimeout('Stop', 2.9)).toBe(2);
    expect(codexTimeout('Stop', 0)).toBe(1);
  });

  it('refuses a command TOML cannot hold', () => {
    expect(() => codexHooksSetting({ Stop: { command: 'echo \ud800', timeoutSec: 5 } })).toThrow(/lone surrogate/);
  });
});
