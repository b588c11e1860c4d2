import { describe, expect, it } from 'vitest';
import { isPocketmuxStatusLine } from '../../../../agent/claude/hook-files.js';
import {
  formatUserSettings,
  globalHookCommand,
  mergeUserHooks,
  parseUserSettings,
  UserHooksError,
  unmergeUserHooks,
  userHooksState,
} from '../../../../agent/claude/user-hooks.js';
import { HOOK_EVENT_NAMES } from '../../../../protocol/hooks.js';

const SCRIPT = "/home/o'neil/.pocketmux/hooks/hook.sh";

type Entry = { matcher: string; hooks: { type: string; command: string; timeout?: number }[] };
const hooksOf = (s: Record<string, unknown>) => s.hooks as Record<string, Entry[]>;

const theirs = {
  model: 'opus',
  permissions: { allow: ['Bash(ls:*)'], deny: [] },
  env: { FOO: 'bar' },
  hooks: {
    Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'say done' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/guard', timeout: 5 }] }],
    SomeFutureEvent: [{ matcher: '', hooks: [{ type: 'command', command: 'x' }] }],
  },
  futureKey: { nested: [1, 2, { three: null }] },
};

describe('pocketmux hooks in Claude user settings', () => {
  it('adds one command hook per event, with the agent timeouts, and a statusLine, to an empty file', () => {
    const { settings } = parseUserSettings(null);
    const merged = mergeUserHooks(settings, SCRIPT);
    expect(merged.added).toEqual(HOOK_EVENT_NAMES);
    expect(merged.statusLine).toBe('added');
    const hooks = hooksOf(merged.settings);
    for (const event of HOOK_EVENT_NAMES) {
      expect(hooks[event]).toEqual([
        { matcher: '', hooks: [{ type: 'command', command: `'/home/o'\\''neil/.pocketmux/hooks/hook.sh' --global ${event}`, timeout: event === 'PermissionRequest' ? 1800 : 10 }] },
      ]);
    }
    expect(merged.settings.statusLine).toEqual({ type: 'command', command: `'/home/o'\\''neil/.pocketmux/hooks/hook.sh' --global statusline` });
    expect(userHooksState(merged.settings, SCRIPT)).toEqual({ installed: HOOK_EVENT_NAMES, missing: [], statusLine: 'ours' });
    expect(userHooksState({}, SCRIPT)).toMatchObject({ installed: [], statusLine: 'none' });
  });

  it("keeps the person's own hooks (ours after them) and every other key", () => {
    const input = structuredClone(theirs);
    const merged = mergeUserHooks(input, SCRIPT);
    expect(input).toEqual(theirs);
    const hooks = hooksOf(merged.settings);
    expect(hooks.Stop).toEqual([theirs.hooks.Stop[0], { matcher: '', hooks: [{ type: 'command', command: globalHookCommand(SCRIPT, 'Stop'), timeout: 10 }] }]);
    expect(hooks.PreToolUse?.[0]).toEqual(theirs.hooks.PreToolUse[0]);
    expect(hooks.SomeFutureEvent).toEqual(theirs.hooks.SomeFutureEvent);
    const { hooks: _h, statusLine: _s, ...rest } = merged.settings;
    const { hooks: _t, ...restTheirs } = theirs;
    expect(rest).toEqual(restTheirs);
    expect(Object.keys(merged.settings)).toEqual([...Object.keys(theirs), 'statusLine']);
  });

  it('installs once however often it runs, and uninstall gives back the input exactly', () => {
    for (const input of [{}, theirs, { hooks: { Stop: [] as unknown[], Notification: [{ matcher: '', hooks: [{ type: 'command', command: 'n' }] }] } }]) {
      const once = mergeUserHooks(input, SCRIPT);
      const twice = mergeUserHooks(once.settings, SCRIPT);
      expect(twice.changed).toBe(false);
      expect(twice.added).toEqual([]);
      expect(twice.settings).toEqual(once.settings);
      const removed = unmergeUserHooks(once.settings, SCRIPT);
      expect(removed.changed).toBe(true);
      expect(removed.statusLineRemoved).toBe(true);
      if (input.hooks && 'Stop' in input.hooks && (input.hooks.Stop as unknown[]).length === 0) {
        // The documented exception: an empty list of the person's own goes with ours.
        const { Stop: _stop, ...hooks } = input.hooks as Record<string, unknown>;
        expect(removed.settings).toEqual({ ...input, hooks });
      } else expect(removed.settings).toEqual(input);
      expect(unmergeUserHooks(removed.settings, SCRIPT).changed).toBe(false);
    }
  });

  it('leaves a statusLine of the person alone, on install and uninstall', () => {
    const input = { statusLine: { type: 'command', command: '~/bin/line', padding: 1 } };
    const merged = mergeUserHooks(input, SCRIPT);
    expect(merged.statusLine).toBe('theirs');
    expect(merged.settings.statusLine).toEqual(input.statusLine);
    expect(userHooksState(merged.settings, SCRIPT).statusLine).toBe('theirs');
    const removed = unmergeUserHooks(merged.settings, SCRIPT);
    expect(removed.statusLineRemoved).toBe(false);
    expect(removed.settings).toEqual(input);
  });

  it("removes only our hooks: not another data dir's, not one the person added to our entry", () => {
    const other = '/srv/other/hooks/hook.sh';
    const installed = mergeUserHooks(mergeUserHooks({}, other).settings, SCRIPT).settings;
    const stop = hooksOf(installed).Stop?.[1];
    stop?.hooks.push({ type: 'command', command: 'mine' });
    const removed = unmergeUserHooks(installed, SCRIPT).settings;
    expect(hooksOf(removed).Stop).toEqual([
      { matcher: '', hooks: [{ type: 'command', command: globalHookCommand(other, 'Stop'), timeout: 10 }] },
      { matcher: '', hooks: [{ type: 'command', command: 'mine' }] },
    ]);
    expect(hooksOf(removed).UserPromptSubmit).toHaveLength(1);
    expect((removed.statusLine as { command: string }).command).toContain(other);
  });

  it('refuses what it cannot merge into without guessing', () => {
    expect(() => parseUserSettings('{"hooks": {', '/x/settings.json')).toThrow(UserHooksError);
    expect(() => parseUserSettings('{"hooks": {', '/x/settings.json')).toThrow(/\/x\/settings.json is not valid JSON/);
    expect(() => parseUserSettings('[1]')).toThrow(/not hold a JSON object/);
    expect(() => parseUserSettings('{"hooks": []}')).toThrow(/"hooks" .* is not an object/);
    expect(() => parseUserSettings('{"hooks": "x"}')).toThrow(/"hooks" .* is not an object/);
    expect(() => parseUserSettings('{"hooks": {"Stop": {}}}')).toThrow(/"hooks.Stop" .* is not a list/);
  });

  it('writes back in the layout it read', () => {
    for (const text of ['{\n  "a": 1\n}\n', '{\n\t"a": 1\n}', '{"a":1}', '{}\n']) {
      const parsed = parseUserSettings(text);
      expect(formatUserSettings(parsed.settings, parsed.layout)).toBe(text === '{}\n' ? '{}\n' : text);
    }
    expect(parseUserSettings('').settings).toEqual({});
  });

  it('never takes a pocketmux statusLine for the person own (the tab wrapper would run itself)', () => {
    expect(isPocketmuxStatusLine(`'/home/me/.pocketmux/hooks/hook.sh' --global statusline`)).toBe(true);
    expect(isPocketmuxStatusLine('~/bin/line')).toBe(false);
  });
});
