import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeShellCommand } from '../../agent/claude/launcher.js';
import { findExecutable } from '../../agent/util/shell.js';
import {
  commandName,
  descendants,
  findClaude,
  type ProcessEntry,
  type ProcessLister,
  type ProcessTable,
  ProcLister,
  PsLister,
  parsePs,
  parseStat,
  platformProcessLister,
  processLister,
} from '../../agent/claude/process.js';
import type { TranscriptSummary } from '../../agent/claude/transcript-reader.js';
import { recoveredState } from '../../agent/status/status-monitor.js';
import { listClaudeSessions, projectSlug } from '../../agent/claude/sessions.js';
import { eventually } from '../support/eventually.js';

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

  it('reads ps lines from procps (Linux) as /proc names them', () => {
    const table = parsePs(['    1     0 systemd', '   12     2 kworker/0:1-events', '13535     1 tmux: server', ' 1234  1200 claude', '', 'junk'].join('\n'));
    expect([...table]).toEqual([
      [1, { ppid: 0, comm: 'systemd' }],
      [12, { ppid: 2, comm: 'kworker/0:1-events' }],
      [13535, { ppid: 1, comm: 'tmux: server' }],
      [1234, { ppid: 1200, comm: 'claude' }],
    ]);
  });

  it('reads ps lines from macOS, where comm is argv[0]: a full path, or -zsh for a login shell', () => {
    const table = parsePs(
      [
        '    1     0 /sbin/launchd',
        '  900   880 -zsh',
        '  901   900 /Users/me/.local/bin/claude',
        '  902   901 /Applications/Visual Studio Code.app/Contents/MacOS/Electron',
        '  903   900 ./node_modules/.bin/claude',
        '  904   900 claude',
        '  905   900 -',
      ].join('\n'),
    );
    expect(Object.fromEntries([...table].map(([pid, e]) => [pid, e.comm]))).toEqual({
      1: 'launchd',
      900: 'zsh',
      901: 'claude',
      902: 'Electron',
      903: 'claude',
      904: 'claude',
      905: '-',
    });
    expect(commandName('/')).toBe('/');
  });

  it('chooses /proc when this system has /proc/self, else ps', () => {
    expect(platformProcessLister().kind).toBe(existsSync('/proc/self') ? 'proc' : 'ps');
    expect(platformProcessLister(join(dir, 'no-proc'))).toBeInstanceOf(PsLister);
    expect(processLister()).toBe(processLister());
  });

  it('rejects when ps cannot run, rather than saying no process runs', async () => {
    await expect(new PsLister(join(dir, 'no-ps')).list()).rejects.toThrow(/could not list processes/);
  });

  const listers: [string, () => ProcessLister][] = [
    ['/proc', () => new ProcLister()],
    ['ps', () => new PsLister()],
  ];
  describe.each(listers)('through %s', (_name, make) => {
    it('reads this machine’s process table, which has us and our parent', async () => {
      const table = await make().list();
      expect(table.get(process.pid)?.ppid).toBe(process.ppid);
      expect(table.get(process.pid)?.comm).toMatch(/\S/);
    });
  });

  /** The same processes as each path reads them: /proc stat lines, and macOS ps. */
  const fixtures: [string, ProcessTable][] = [
    [
      '/proc',
      new Map(
        ['10 (bash) S 1 10', '11 (sh) S 10 11', '12 (claude.exe) S 11 12', '13 (node) S 12 13', '20 (bash) S 1 20'].map((line) => [
          Number(line.split(' ')[0]),
          parseStat(line) as ProcessEntry,
        ]),
      ),
    ],
    [
      'ps',
      parsePs(['   10     1 -bash', '   11    10 /bin/sh', '   12    11 /Users/me/.local/share/claude/claude.exe', '   13    12 node', '   20     1 -bash'].join('\n')),
    ],
  ];
  describe.each(fixtures)('with a table read through %s', (_name, table) => {
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

  describe('a real process tree', () => {
    let tree: ChildProcess | null = null;
    afterEach(() => {
      // The whole group: the shells, the sleeps and the claude.
      if (tree?.pid) {
        try {
          process.kill(-tree.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      tree = null;
    });

    it('gives the same tree, names and answer through /proc and through ps', async () => {
      // A pane's shell with a sleep, and a nested shell running a node that calls itself
      // claude, as Claude Code does (process.title sets the kernel's name on Linux, argv[0] on macOS).
      const claude = `${JSON.stringify(process.execPath)} -e 'process.title = "claude"; setInterval(() => {}, 1000)'`;
      tree = spawn('/bin/sh', ['-c', `sleep 300 & sh -c ${JSON.stringify(`${claude}; exit 0`)} & wait`], { detached: true, stdio: 'ignore' });
      const root = tree.pid as number;
      const proc = new ProcLister();
      const ps = new PsLister();

      // Up when the claude has renamed itself.
      let claudePid: number | undefined;
      await eventually(
        async () => {
          const table = await proc.list();
          claudePid = descendants(table, root).find((pid) => table.get(pid)?.comm === 'claude');
          return claudePid !== undefined && descendants(table, root).length === 3;
        },
        10_000,
        'the claude to rename itself',
      ).catch(() => undefined);
      expect(claudePid).toBeDefined();

      const [fromProc, fromPs] = [await proc.list(), await ps.list()];
      const subtree = (table: ProcessTable) =>
        [root, ...descendants(table, root)].sort((a, b) => a - b).map((pid) => [pid, table.get(pid)?.ppid, table.get(pid)?.comm]);
      expect(subtree(fromPs)).toEqual(subtree(fromProc));
      expect(subtree(fromProc).map(([, , comm]) => comm).sort()).toEqual(['claude', 'sh', 'sh', 'sleep']);
      expect(findClaude(root, dir, fromProc)).toEqual({ pid: claudePid, session: null });
      expect(findClaude(root, dir, fromPs)).toEqual({ pid: claudePid, session: null });

      // With its session file, both find it by the file.
      mkdirSync(join(dir, 'sessions'));
      writeFileSync(join(dir, 'sessions', `${claudePid}.json`), JSON.stringify({ pid: claudePid, sessionId: 'real' }));
      expect(findClaude(root, dir, await ps.list())).toMatchObject({ pid: claudePid, session: { sessionId: 'real' } });
      expect(findClaude(root, dir, await proc.list())).toMatchObject({ pid: claudePid, session: { sessionId: 'real' } });

      // Gone: neither finds a claude in the tree any more.
      process.kill(-root, 'SIGKILL');
      await once(tree, 'exit');
      rmSync(join(dir, 'sessions'), { recursive: true });
      await eventually(async () => !(await proc.list()).has(claudePid as number), 5_000, 'the claude to be gone').catch(() => undefined);
      expect(findClaude(root, dir, await proc.list())).toBeNull();
      expect(findClaude(root, dir, await ps.list())).toBeNull();
    });
  });
});

describe('launching claude', () => {
  const config = { bin: '/opt/claude code/claude', settingsPath: "/home/o'neil/.pocketmux/hooks/settings.json", extraArgs: ['--model', 'opus'], shell: '/bin/zsh' };

  it('starts claude with our settings, then the login shell when it exits', () => {
    expect(claudeShellCommand(config, {})).toBe(
      `env POCKETMUX_TAB_HOOKS=1 '/opt/claude code/claude' '--settings' '/home/o'\\''neil/.pocketmux/hooks/settings.json' '--model' 'opus'; exec '/bin/zsh' -l`,
    );
  });

  it('adds --resume and --permission-mode when asked, the session id in the same argument as its option', () => {
    const cmd = claudeShellCommand(config, { resume: '9cc33040-84d7-4e14-8db7-8fcffd47527d', permissionMode: 'plan' });
    expect(cmd).toContain(`'--resume=9cc33040-84d7-4e14-8db7-8fcffd47527d' '--permission-mode' 'plan'`);
  });

  it('puts no session id but a UUID on the command line: one that reads as an option is refused', () => {
    for (const resume of ['--dangerously-skip-permissions', '-p', 'f00d-1234-beef', '9cc33040-84d7-4e14-8db7-8fcffd47527d --x', '9cc33040-84d7-4e14-8db7-8fcffd47527']) {
      expect(() => claudeShellCommand(config, { resume }), resume).toThrow(RangeError);
    }
    expect(claudeShellCommand(config, { resume: null })).not.toContain('--resume');
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
    // Named like an option: no session claude would resume, so none to offer.
    writeFileSync(join(folder, '--dangerously-skip-permissions.jsonl'), fixture);
    utimesSync(join(folder, '11111111-aaaa-bbbb-cccc-000000000001.jsonl'), new Date('2026-01-01'), new Date('2026-01-01'));
    const sessions = await listClaudeSessions(dir, '/srv/app');
    expect(sessions.map((s) => [s.id, s.firstPrompt])).toEqual([
      ['22222222-aaaa-bbbb-cccc-000000000002', null],
      ['11111111-aaaa-bbbb-cccc-000000000001', 'please run it'],
    ]);
    expect(await listClaudeSessions(dir, '/nowhere')).toEqual([]);
  });
});
