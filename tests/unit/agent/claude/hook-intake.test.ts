import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandHookSettings, hookScript, httpHookSettings, readUserStatusLine } from '../../../../agent/claude/hook-files.js';
import { isLoopback } from '../../../../agent/auth/access.js';
import { fromOurTmux, hookSender } from '../../../../agent/http/hook-routes.js';
import { HOOK_EVENT_NAMES } from '../../../../protocol/hooks.js';

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

  it('tells Claude’s own HTTP hook from the script by its User-Agent', () => {
    expect(hookSender('axios/1.13.2')).toBe('claude-http');
    expect(hookSender('curl/8.5.0')).toBe('hook-script');
    expect(hookSender('Mozilla/5.0')).toBe('other');
    expect(hookSender(undefined)).toBe('other');
  });
});

describe('hook files', () => {
  it('command-only settings send every known event to the script, with a long timeout for permissions', () => {
    const settings = commandHookSettings("/home/o'neil/.pocketmux/hooks/hook.sh") as {
      hooks: Record<string, { matcher: string; hooks: { command: string; timeout: number }[] }[]>;
    };
    expect(Object.keys(settings.hooks).sort()).toEqual([...HOOK_EVENT_NAMES].sort());
    expect((settings as { statusLine?: unknown }).statusLine).toEqual({ type: 'command', command: `'/home/o'\\''neil/.pocketmux/hooks/hook.sh' statusline` });
    expect(settings.hooks.Stop?.[0]?.hooks[0]?.command).toBe(`'/home/o'\\''neil/.pocketmux/hooks/hook.sh' Stop`);
    expect(settings.hooks.PermissionRequest?.[0]?.hooks[0]?.timeout).toBe(1800);
    expect(settings.hooks.Stop?.[0]?.hooks[0]?.timeout).toBe(10);
    expect(JSON.stringify(settings)).not.toContain('"type":"http"');
  });

  it('HTTP settings post every event but SessionStart straight to the agent, the token only in a header', () => {
    const token = 'tok_en-0123456789abcdef0123456789abcdef';
    const settings = httpHookSettings({ scriptPath: '/d/hooks/hook.sh', port: 8420, token }) as {
      hooks: Record<string, { matcher: string; hooks: Record<string, unknown>[] }[]>;
      statusLine: unknown;
    };
    expect(Object.keys(settings.hooks).sort()).toEqual([...HOOK_EVENT_NAMES].sort());
    for (const event of HOOK_EVENT_NAMES) {
      const entry = settings.hooks[event]?.[0];
      expect(entry?.matcher, event).toBe('');
      expect(entry?.hooks, event).toHaveLength(1);
      const hook = entry?.hooks[0];
      if (event === 'SessionStart') {
        // Claude runs no HTTP hook for SessionStart.
        expect(hook).toEqual({ type: 'command', command: `'/d/hooks/hook.sh' SessionStart`, timeout: 10 });
        continue;
      }
      expect(hook, event).toEqual({
        type: 'http',
        url: `http://127.0.0.1:8420/hooks/${event}`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude fills in ${TMUX} from its own environment.
        headers: { 'X-Pocketmux-Token': token, 'X-Pocketmux-Pane': '$TMUX_PANE', 'X-Pocketmux-Tmux': '${TMUX}' },
        allowedEnvVars: ['TMUX_PANE', 'TMUX'],
        timeout: event === 'PermissionRequest' ? 1800 : 10,
      });
      expect(String(hook?.url)).not.toContain(token);
    }
    expect(settings.statusLine).toEqual({ type: 'command', command: "'/d/hooks/hook.sh' statusline" });
  });

  it('the script runs only curl, bypasses proxies and always exits 0', () => {
    const script = hookScript({ port: 8420, tokenHeaderFile: "/d/it's/token-header" });
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).toContain("--noproxy '*'");
    // The token comes from the file, never on curl's command line.
    expect(script).toContain("-H @'/d/it'\\''s/token-header'");
    expect(script).not.toContain('X-Pocketmux-Token');
    expect(script).toContain('"http://127.0.0.1:8420/hooks/$1"');
    expect(script.trimEnd().endsWith('exit 0')).toBe(true);
    // Commands it starts: curl, and nothing else (no cat, tmux, node).
    const words = script.replace(/#.*$/gm, '').match(/\b(curl|cat|tmux|node|python|head|tee)\b/g);
    expect(new Set(words)).toEqual(new Set(['curl']));
  });

  it('settings carry the statusLine wrapper, keeping the person’s padding', () => {
    for (const settings of [
      commandHookSettings('/d/hook.sh', { command: 'my-line', padding: 2 }) as { statusLine: unknown },
      httpHookSettings({ scriptPath: '/d/hook.sh', port: 1, token: 't' }, { command: 'my-line', padding: 2 }) as { statusLine: unknown },
    ]) {
      expect(settings.statusLine).toEqual({ type: 'command', command: "'/d/hook.sh' statusline", padding: 2 });
    }
  });

  it('reads the person’s statusLine from Claude Code’s user settings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pocketmux-claude-settings-'));
    try {
      expect(readUserStatusLine(dir)).toBeNull();
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ statusLine: { type: 'command', command: '~/bin/line', padding: 0 } }));
      expect(readUserStatusLine(dir)).toEqual({ command: '~/bin/line', padding: 0 });
      writeFileSync(join(dir, 'settings.json'), '{ broken');
      expect(readUserStatusLine(dir)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
