import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeShellCommand, findExecutable } from '../../agent/claude/launcher.js';
import { descendants, findClaude, parseStat, readProcessTable } from '../../agent/claude/process.js';
import type { TranscriptSummary } from '../../agent/claude/transcript-reader.js';
import { recoveredState } from '../../agent/status/status-monitor.js';
import { listClaudeSessions, projectSlug } from '../../agent/claude/sessions.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-claude-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('process detection', () => {
  it('reads /proc stat lines, commands with spaces and parentheses included', () => {
    expect(parseStat('1234 (claude) S 1200 1234 1200 0 -1')).toEqual({ ppid: 1200, comm: 'claude' });
    expect(parseStat('77 (my (odd) prog) R 5 77 5')).toEqual({ ppid: 5, comm: 'my (odd) prog' });
    expect(parseStat('garbage')).toBeNull();
  });

  it('reads this machine’s process table, which has us and our parent', () => {
    const table = readProcessTable();
    expect(table.get(process.pid)?.ppid).toBe(process.ppid);
  });

  const table = new Map([
    [10, { ppid: 1, comm: 'bash' }],
    [11, { ppid: 10, comm: 'sh' }],
    [12, { ppid: 11, comm: 'claude.exe' }],
    [13, { ppid: 12, comm: 'node' }],
    [20, { ppid: 1, comm: 'bash' }],
  ]);

  it('walks descendants, nearest first', () => {
    expect(descendants(table, 10)).toEqual([11, 12, 13]);
    expect(descendants(table, 20)).toEqual([]);
  });

  it('finds claude by its session file first, else by its name', () => {
    expect(findClaude(10, dir, table)).toEqual({ pid: 12, session: null });
    mkdirSync(join(dir, 'sessions'));
    writeFileSync(join(dir, 'sessions', '12.json'), JSON.stringify({ pid: 12, sessionId: 'abc', status: 'waiting', extra: 1 }));
    expect(findClaude(10, dir, table)).toMatchObject({ pid: 12, session: { sessionId: 'abc', status: 'waiting' } });
    expect(findClaude(20, dir, table)).toBeNull();
    // A damaged session file does not hide the process.
    writeFileSync(join(dir, 'sessions', '12.json'), '{"pid":');
    expect(findClaude(10, dir, table)).toEqual({ pid: 12, session: null });
  });
});

describe('launching claude', () => {
  const config = { bin: '/opt/claude code/claude', settingsPath: "/home/o'neil/.pocketmux/hooks/settings.json", extraArgs: ['--model', 'opus'], shell: '/bin/zsh' };

  it('starts claude with our settings, then the login shell when it exits', () => {
    expect(claudeShellCommand(config, {})).toBe(
      `'/opt/claude code/claude' '--settings' '/home/o'\\''neil/.pocketmux/hooks/settings.json' '--model' 'opus'; exec '/bin/zsh' -l`,
    );
  });

  it('adds --resume and --permission-mode when asked', () => {
    const cmd = claudeShellCommand(config, { resume: 'f00d-1234-beef', permissionMode: 'plan' });
    expect(cmd).toContain(`'--resume' 'f00d-1234-beef' '--permission-mode' 'plan'`);
  });

  it('finds executables on a PATH, or by path', () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(bin, 'not-exec'), 'x', { mode: 0o644 });
    expect(findExecutable('claude', `/nonexistent:${bin}`)).toBe(join(bin, 'claude'));
    expect(findExecutable('not-exec', bin)).toBeNull();
    expect(findExecutable(join(bin, 'claude'), '')).toBe(join(bin, 'claude'));
    expect(findExecutable('claude', 'relative/dir')).toBeNull();
  });
});

describe('restart recovery decision', () => {
  const summary = (s: Partial<TranscriptSummary>) => ({ interrupt: undefined, turnEndedAt: undefined, lastPromptAt: undefined, ...s }) as TranscriptSummary;
  const t = (iso: string) => Date.parse(iso);

  it('claude gone → idle', () => {
    expect(recoveredState(false, null, null)).toBe('idle');
  });
  it('transcript ended cleanly after the last prompt → ready-for-review', () => {
    expect(recoveredState(true, summary({ lastPromptAt: '2026-01-01T00:00:00Z', turnEndedAt: '2026-01-01T00:01:00Z' }), null)).toBe('ready-for-review');
  });
  it('a prompt after the last turn ended → still busy', () => {
    expect(recoveredState(true, summary({ lastPromptAt: '2026-01-01T00:02:00Z', turnEndedAt: '2026-01-01T00:01:00Z' }), null)).toBe('busy');
    expect(recoveredState(true, null, null)).toBe('busy');
  });
  it('an interrupt newer than the last hook → idle; an older one is ignored', () => {
    const s = summary({ interrupt: { at: '2026-01-01T00:05:00Z', forToolUse: false }, lastPromptAt: '2026-01-01T00:04:00Z' });
    expect(recoveredState(true, s, t('2026-01-01T00:04:30Z'))).toBe('idle');
    expect(recoveredState(true, s, t('2026-01-01T00:06:00Z'))).toBe('busy');
  });
});

describe('past Claude sessions', () => {
  it('names project folders as Claude Code does', () => {
    expect(projectSlug('/home/user/proj')).toBe('-home-user-proj');
    expect(projectSlug('/home/me/my proj.v2')).toBe('-home-me-my-proj-v2');
  });

  it('lists transcripts newest first with their first prompt, skipping other files', async () => {
    const folder = join(dir, 'projects', projectSlug('/srv/app'));
    mkdirSync(folder, { recursive: true });
    const fixture = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332', 'transcript.jsonl'));
    writeFileSync(join(folder, '11111111-aaaa-bbbb-cccc-000000000001.jsonl'), fixture);
    writeFileSync(join(folder, '22222222-aaaa-bbbb-cccc-000000000002.jsonl'), '{"garbage": ');
    writeFileSync(join(folder, 'notes.txt'), 'x');
    utimesSync(join(folder, '11111111-aaaa-bbbb-cccc-000000000001.jsonl'), new Date('2026-01-01'), new Date('2026-01-01'));
    const sessions = await listClaudeSessions(dir, '/srv/app');
    expect(sessions.map((s) => [s.id, s.firstPrompt])).toEqual([
      ['22222222-aaaa-bbbb-cccc-000000000002', null],
      ['11111111-aaaa-bbbb-cccc-000000000001', 'please run it'],
    ]);
    expect(await listClaudeSessions(dir, '/nowhere')).toEqual([]);
  });
});
