/**
 * Whether a pid is still the claude of a session: its session file names the session, the
 * process lives, and (Linux) the start time in the file is the process's own, so a file left
 * by a claude that was killed cannot lend its pid to whatever took that number later.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isClaudeCommand, isClaudeOfSession, isProvenClaudeOfSession, parsePsIdentity, ProcLister, PsLister, procStartTime } from '../../agent/claude/process.js';
import { processAlive } from '../../agent/util/process-alive.js';

const onLinux = existsSync('/proc/self/stat');

let dir: string;
let configDir: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-identity-'));
  configDir = join(dir, 'claude');
  mkdirSync(join(configDir, 'sessions'), { recursive: true });
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function sleeper(bin = 'sleep'): Promise<ChildProcess> {
  const child = spawn(bin, ['600'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  return child;
}

function writeSessionFile(pid: number, body: Record<string, unknown>): void {
  writeFileSync(join(configDir, 'sessions', `${pid}.json`), JSON.stringify({ pid, cwd: '/work', ...body }));
}

/** A /proc of the test's own, one stat line per pid. */
function fakeProc(stats: Record<number, string>): string {
  const proc = join(dir, 'proc');
  for (const [pid, stat] of Object.entries(stats)) {
    mkdirSync(join(proc, pid), { recursive: true });
    writeFileSync(join(proc, pid, 'stat'), stat);
  }
  mkdirSync(proc, { recursive: true });
  return proc;
}

/** Fields 3 to 21 of a stat line, then the start time (22), then a few more. */
const statTail = (start: string) => `S 1 4242 4242 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 ${start} 8192 100 18446744073709551615`;

describe('procStartTime', () => {
  it.runIf(onLinux)('gives a live process\'s start time, field 22 of its /proc stat', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    const start = procStartTime(pid);
    expect(start).toMatch(/^\d+$/);
    // The same field as another reader finds it (sleep's name holds no space).
    expect(start).toBe(execFileSync('cut', ['-d', ' ', '-f', '22', `/proc/${pid}/stat`], { encoding: 'utf8' }).trim());
    expect(procStartTime(pid)).toBe(start);
    // Started after this test's own process.
    expect(Number(start)).toBeGreaterThanOrEqual(Number(procStartTime(process.pid)));
  });

  it('counts its fields after the command name, which may hold spaces and parentheses', () => {
    const proc = fakeProc({ 101: `101 (claude) ${statTail('5550001')}`, 102: `102 (my (odd) ) name) ${statTail('5550002')}` });
    expect(procStartTime(101, proc)).toBe('5550001');
    expect(procStartTime(102, proc)).toBe('5550002');
  });

  it('is null for a process that is not there, or a stat it cannot read', () => {
    const proc = fakeProc({ 201: 'garbage without a name', 202: '202 (short) S 1 2', 203: `203 (x) ${statTail('12ab')}` });
    expect(procStartTime(200, proc)).toBeNull();
    expect(procStartTime(201, proc)).toBeNull();
    expect(procStartTime(202, proc)).toBeNull();
    expect(procStartTime(203, proc)).toBeNull();
  });
});

describe('isClaudeOfSession', () => {
  it.runIf(onLinux)('accepts a live process whose file names the session and gives its own start time', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    writeSessionFile(pid, { sessionId: 's-1', procStart: procStartTime(pid) });
    expect(isClaudeOfSession(configDir, pid, 's-1', processAlive)).toBe(true);
  });

  it.runIf(onLinux)('refuses a file whose start time is another process\'s (the pid taken since by another)', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    writeSessionFile(pid, { sessionId: 's-2', procStart: String(Number(procStartTime(pid)) + 1) });
    expect(isClaudeOfSession(configDir, pid, 's-2', processAlive)).toBe(false);
  });

  it('accepts a file without a start time while the process lives (a claude that does not write one)', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    writeSessionFile(pid, { sessionId: 's-3' });
    expect(isClaudeOfSession(configDir, pid, 's-3', processAlive)).toBe(true);
  });

  it('refuses a dead pid, with or without a start time in its file', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    const start = procStartTime(pid);
    writeSessionFile(pid, { sessionId: 's-4', ...(start ? { procStart: start } : {}) });
    expect(isClaudeOfSession(configDir, pid, 's-4', processAlive)).toBe(true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(isClaudeOfSession(configDir, pid, 's-4', processAlive)).toBe(false);
    writeSessionFile(pid, { sessionId: 's-4' });
    expect(isClaudeOfSession(configDir, pid, 's-4', processAlive)).toBe(false);
  });

  it('refuses a file that names another session, a file that is not there or not readable, and a process said dead', async () => {
    const child = await sleeper();
    const pid = child.pid as number;
    expect(isClaudeOfSession(configDir, pid, 's-5', processAlive)).toBe(false);
    writeFileSync(join(configDir, 'sessions', `${pid}.json`), 'not json');
    expect(isClaudeOfSession(configDir, pid, 's-5', processAlive)).toBe(false);
    writeSessionFile(pid, { sessionId: 'someone-else' });
    expect(isClaudeOfSession(configDir, pid, 's-5', processAlive)).toBe(false);
    writeSessionFile(pid, {});
    expect(isClaudeOfSession(configDir, pid, 's-5', processAlive)).toBe(false);
    writeSessionFile(pid, { sessionId: 's-5' });
    expect(isClaudeOfSession(configDir, pid, 's-5', () => false)).toBe(false);
    expect(isClaudeOfSession(configDir, pid, 's-5', processAlive)).toBe(true);
  });

  it('goes by the file and the process alone where the system gives no start time to compare', () => {
    const proc = fakeProc({ 301: `301 (claude) ${statTail('777')}` });
    writeSessionFile(301, { sessionId: 's-6', procStart: '777' });
    writeSessionFile(302, { sessionId: 's-6', procStart: '777' });
    const alive = (pid: number) => pid === 301 || pid === 302;
    expect(isClaudeOfSession(configDir, 301, 's-6', alive, proc)).toBe(true);
    writeSessionFile(301, { sessionId: 's-6', procStart: '778' });
    expect(isClaudeOfSession(configDir, 301, 's-6', alive, proc)).toBe(false);
    // No stat for 302 (no /proc, as on macOS): nothing to compare.
    expect(isClaudeOfSession(configDir, 302, 's-6', alive, proc)).toBe(true);
  });
});

/** A copy of sleep named claude: a claude by what it runs. */
function claudeLike(): string {
  const bin = join(dir, 'bin', 'claude');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  // One copy for the test: a running program's file cannot be written over.
  if (!existsSync(bin)) {
    copyFileSync('/bin/sleep', bin);
    chmodSync(bin, 0o755);
  }
  return bin;
}

/** Its start time as Claude writes it where there is no /proc: `ps -o lstart=` in the C locale and UTC. */
function psStart(pid: number): string {
  return execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' } }).trim();
}

describe('what runs claude', () => {
  it('goes by the command name, the program, or node or bun running the npm package', () => {
    expect(isClaudeCommand({ comm: 'claude', argv: ['claude', '--resume=x'] })).toBe(true);
    expect(isClaudeCommand({ comm: 'claude.exe', argv: ['/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe'] })).toBe(true);
    // A native install runs a file named by its version, through a link named claude.
    expect(isClaudeCommand({ comm: '2.1.332', argv: ['/home/me/.local/bin/claude'] })).toBe(true);
    expect(isClaudeCommand({ comm: 'node', argv: ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'] })).toBe(true);
    expect(isClaudeCommand({ comm: 'sleep', argv: ['sleep', '600'] })).toBe(false);
    expect(isClaudeCommand({ comm: 'vim', argv: ['vim', 'claude.md'] })).toBe(false);
    expect(isClaudeCommand({ comm: 'node', argv: ['node', 'server.js', '/srv/@anthropic-ai/claude-code/'] })).toBe(false);
    expect(isClaudeCommand({ comm: 'bash', argv: [] })).toBe(false);
  });

  it('reads ps\'s start time and command line, and nothing else', () => {
    expect(parsePsIdentity('Tue Dec  1 22:09:00 2026 /Users/me/.local/bin/claude --resume=x\n')).toEqual({
      start: 'Tue Dec  1 22:09:00 2026',
      comm: 'claude',
      argv: ['/Users/me/.local/bin/claude', '--resume=x'],
    });
    expect(parsePsIdentity('Mon Nov 30 08:00:59 2026 sleep 600')).toMatchObject({ start: 'Mon Nov 30 08:00:59 2026', comm: 'sleep' });
    expect(parsePsIdentity('')).toBeNull();
    expect(parsePsIdentity('  PID COMMAND')).toBeNull();
    expect(parsePsIdentity('Tue Dec  1 22:09:00 2026')).toBeNull();
  });
});

describe('isProvenClaudeOfSession', () => {
  const seams = [
    ['/proc', new ProcLister(), (pid: number) => procStartTime(pid) as string],
    ['ps', new PsLister(), psStart],
  ] as const;

  for (const [name, seam, claudeStart] of seams) {
    it.runIf(onLinux || name === 'ps')(`proves a claude by its start time, as Claude writes it, and its program (${name})`, async () => {
      const claude = (await sleeper(claudeLike())).pid as number;
      writeSessionFile(claude, { sessionId: 's-7', procStart: claudeStart(claude) });
      expect(await isProvenClaudeOfSession(configDir, claude, 's-7', seam)).toBe(true);
      expect(await isProvenClaudeOfSession(configDir, claude, 'another', seam)).toBe(false);
      // Another start time: the file was left by another process under that number.
      writeSessionFile(claude, { sessionId: 's-7', procStart: `${claudeStart(claude)}0` });
      expect(await isProvenClaudeOfSession(configDir, claude, 's-7', seam)).toBe(false);
      // No start time: nothing proves it, though the file alone would have named it.
      writeSessionFile(claude, { sessionId: 's-7' });
      expect(isClaudeOfSession(configDir, claude, 's-7', processAlive)).toBe(true);
      expect(await isProvenClaudeOfSession(configDir, claude, 's-7', seam)).toBe(false);
    });

    it.runIf(onLinux || name === 'ps')(`proves no other program, whatever its file says (${name})`, async () => {
      const sleeping = (await sleeper()).pid as number;
      writeSessionFile(sleeping, { sessionId: 's-8', procStart: claudeStart(sleeping) });
      expect(await isProvenClaudeOfSession(configDir, sleeping, 's-8', seam)).toBe(false);
    });

    it(`proves nothing of a process that is gone (${name})`, async () => {
      const child = await sleeper(claudeLike());
      const pid = child.pid as number;
      const start = name === 'ps' ? psStart(pid) : procStartTime(pid);
      writeSessionFile(pid, { sessionId: 's-9', procStart: start });
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect(await seam.identity(pid)).toBeNull();
      expect(await isProvenClaudeOfSession(configDir, pid, 's-9', seam)).toBe(false);
    });
  }
});
