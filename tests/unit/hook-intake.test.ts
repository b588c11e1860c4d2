import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hookScript, hookSettings, readUserStatusLine } from '../../agent/claude/hook-files.js';
import { isLoopback } from '../../agent/auth/access.js';
import { fromOurTmux } from '../../agent/http/hook-routes.js';
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
    expect((settings as { statusLine?: unknown }).statusLine).toEqual({ type: 'command', command: `'/home/o'\\''neil/.pocketmux/hooks/hook.sh' statusline` });
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
    // Commands it starts: curl, and nothing else (no cat, tmux, node).
    const words = script.replace(/#.*$/gm, '').match(/\b(curl|cat|tmux|node|python|head|tee)\b/g);
    expect(new Set(words)).toEqual(new Set(['curl']));
  });

  it('the statusline wrapper reports in the background and runs the person’s own command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pocketmux-statusline-'));
    try {
      const path = join(dir, 'hook.sh');
      // Port 9 is refused at once: the report fails quietly, the person's line still prints.
      writeFileSync(path, hookScript({ port: 9, token: 't'.repeat(40), userStatusLine: `read -r x; printf 'mine:%s' "$x"` }), { mode: 0o700 });
      const result = spawnSync('/bin/sh', [path, 'statusline'], { input: '{"session_id":"s-1"}\n', encoding: 'utf8', timeout: 5000 });
      expect(result.status).toBe(0);
      expect(result.stdout).toBe('mine:{"session_id":"s-1"}');
      writeFileSync(join(dir, 'plain.sh'), hookScript({ port: 9, token: 't'.repeat(40) }), { mode: 0o700 });
      const plain = spawnSync('/bin/sh', [join(dir, 'plain.sh'), 'statusline'], { input: '{"a":1}', encoding: 'utf8', timeout: 5000 });
      expect(plain.status).toBe(0);
      expect(plain.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('settings carry the statusLine wrapper, keeping the person’s padding', () => {
    const settings = hookSettings('/d/hook.sh', { command: 'my-line', padding: 2 }) as { statusLine: unknown };
    expect(settings.statusLine).toEqual({ type: 'command', command: "'/d/hook.sh' statusline", padding: 2 });
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
