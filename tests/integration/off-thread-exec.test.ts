/**
 * Programs the agent starts from its worker thread (every tmux run of a poll): what they
 * print, how they fail, their timeout, and runs at once each answered with its own output.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execOffThread } from '../../agent/util/off-thread-exec.js';
import { REPO_ROOT } from '../support/agent.js';

const options = { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' }, timeoutMs: 5_000, maxBuffer: 1024 * 1024 };

describe('starting a program off the event loop', () => {
  it('gives what it printed, in the environment it was given', async () => {
    const result = await execOffThread('/bin/sh', ['-c', 'printf "%s" "$PM_WORD"; printf oops >&2'], { ...options, env: { ...options.env, PM_WORD: 'héllo' } });
    expect(result).toEqual({ stdout: 'héllo', stderr: 'oops', failure: null });
  });

  it('says how a program failed: its exit code and what it printed on stderr', async () => {
    const result = await execOffThread('/bin/sh', ['-c', 'echo no such session >&2; exit 3'], options);
    expect(result.stderr).toBe('no such session\n');
    expect(result.failure).toMatchObject({ code: 3, killed: false, started: true });
  });

  it('kills a program past its timeout', async () => {
    const result = await execOffThread('/bin/sleep', ['30'], { ...options, timeoutMs: 200 });
    expect(result.failure).toMatchObject({ killed: true, started: true });
  });

  it('starts nothing when an argument holds a NUL, and says so', async () => {
    const result = await execOffThread('/bin/echo', ['a\u0000b'], options);
    expect(result.failure).toMatchObject({ started: false, killed: false });
    expect(result.stdout).toBe('');
  });

  it('says a program is missing', async () => {
    const result = await execOffThread('/nonexistent/tmux', ['-V'], options);
    expect(result.failure).toMatchObject({ code: 'ENOENT', started: true });
  });

  it('answers runs started at once, each with its own output', async () => {
    const runs = await Promise.all(Array.from({ length: 40 }, (_, i) => execOffThread('/bin/sh', ['-c', `sleep 0.0${i % 7}; printf ${i}`], options)));
    expect(runs.map((r) => r.stdout)).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
    expect(runs.every((r) => r.failure === null)).toBe(true);
  });

  it('keeps a process alive while a run waits, and lets it end once none does', () => {
    // A fresh process with nothing else to wait for: it must print the answer, then exit.
    const script = `
      import { execOffThread } from ${JSON.stringify(join(REPO_ROOT, 'dist/agent/util/off-thread-exec.js'))};
      const options = { env: process.env, timeoutMs: 5000, maxBuffer: 65536 };
      await execOffThread('/bin/true', [], options);
      setTimeout(() => execOffThread('/bin/sh', ['-c', 'sleep 0.2; printf late'], options).then((r) => console.log(r.stdout)), 50);
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('late\n');
    expect(run.status).toBe(0);
  });
});
