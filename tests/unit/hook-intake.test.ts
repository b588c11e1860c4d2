import { describe, expect, it } from 'vitest';
import { hookScript, hookSettings } from '../../agent/claude/hook-files.js';
import { isLoopback } from '../../agent/auth/access.js';
import { fromOurTmux } from '../../agent/claude/hook-intake.js';
import { HOOK_EVENT_NAMES } from '../../protocol/hooks.js';

describe('hook intake guards', () => {
  it('accepts only loopback sources', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['10.0.0.2', '192.168.1.4', '::ffff:10.0.0.2', 'fe80::1', '1.127.0.0', '', undefined]) expect(isLoopback(a), String(a)).toBe(false);
  });

  it('trusts pane ids only from our own tmux server', () => {
    expect(fromOurTmux('/tmp/tmux-1000/pocketmux,4242,0', 'pocketmux')).toBe(true);
    expect(fromOurTmux('/tmp/tmux-1000/default,4242,0', 'pocketmux')).toBe(false);
    expect(fromOurTmux('', 'pocketmux')).toBe(false);
    expect(fromOurTmux(undefined, 'pocketmux')).toBe(false);
  });
});

describe('hook files', () => {
  it('settings send every known event to the script, with a long timeout for permissions', () => {
    const settings = hookSettings("/home/o'neil/.pocketmux/hooks/hook.sh") as {
      hooks: Record<string, { matcher: string; hooks: { command: string; timeout: number }[] }[]>;
    };
    expect(Object.keys(settings.hooks).sort()).toEqual([...HOOK_EVENT_NAMES].sort());
    expect(settings.hooks.Stop?.[0]?.hooks[0]?.command).toBe(`'/home/o'\\''neil/.pocketmux/hooks/hook.sh' Stop`);
    expect(settings.hooks.PermissionRequest?.[0]?.hooks[0]?.timeout).toBe(600);
    expect(settings.hooks.Stop?.[0]?.hooks[0]?.timeout).toBe(10);
  });

  it('the script runs only curl, bypasses proxies and always exits 0', () => {
    const script = hookScript({ port: 8420, token: 'tok_en-123' });
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).toContain("--noproxy '*'");
    expect(script).toContain("'X-Pocketmux-Token: tok_en-123'");
    expect(script).toContain('"http://127.0.0.1:8420/hooks/$1"');
    expect(script.trimEnd().endsWith('exit 0')).toBe(true);
    const commands = script
      .split('\n')
      .filter((l) => l && !l.startsWith('#') && !l.startsWith(' ') && !/^(case|esac|exit)/.test(l));
    expect(commands).toEqual([commands.find((l) => l.startsWith('curl '))]);
  });
});
