import { execFile, execFileSync } from 'node:child_process';

/**
 * git for tests and benches, as a person's repository would be made: no system or global config
 * of the machine's, a fixed identity, and no optional locks, so the test's own `git status`
 * never refreshes the index a test compares byte for byte.
 */
export const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_OPTIONAL_LOCKS: '0',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

/** `git -C dir args…`, its output; throws on a non-zero exit. */
export function git(dir: string, ...args: string[]): string {
  // A bound, so a git that waits on something fails the test instead of blocking its worker.
  return execFileSync('git', ['-C', dir, ...args], { env: GIT_ENV, encoding: 'utf8', timeout: 30_000 });
}

/** `git`, without blocking the event loop (a bench's agent runs in the same process). */
export function gitAsync(dir: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => execFile('git', ['-C', dir, ...args], { env: GIT_ENV, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout) => (err ? reject(err) : resolve(stdout))));
}
