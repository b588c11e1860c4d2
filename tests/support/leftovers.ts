/**
 * The run's check that tests clean up after themselves (vitest globalSetup): every test runs
 * with a temp dir of the run's own (TMPDIR), and every tmux socket a test names carries the
 * run's tag (temp.ts). After the run, what is left in either is listed, removed, and fails the
 * run through its exit code: a temp folder or a tmux socket (kill-server leaves the socket
 * file) a test forgot, on success, failure or timeout alike.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MACHINE_TMPDIR_ENV, RUN_TAG_ENV, tmuxSocketDir } from './temp.js';

interface Run {
  runDir: string;
  tag: string;
  /** The projects (vitest.config.ts) whose global setup has run and whose teardown has not. */
  projects: number;
}

// Each test project runs this setup and teardown; one run dir and tag serve them all, checked
// once the last project is done. A global, as each project may load this module anew.
const shared = globalThis as { pocketmuxTestRun?: Run };

export function setup(): void {
  if (shared.pocketmuxTestRun) {
    shared.pocketmuxTestRun.projects++;
    return;
  }
  const machineTmpdir = tmpdir();
  const runDir = mkdtempSync(join(machineTmpdir, 'pocketmux-run-'));
  const tag = randomBytes(4).toString('hex');
  shared.pocketmuxTestRun = { runDir, tag, projects: 1 };
  // The test workers start after this, with this environment.
  process.env[MACHINE_TMPDIR_ENV] = machineTmpdir;
  process.env[RUN_TAG_ENV] = tag;
  process.env.TMPDIR = runDir;
}

export function teardown(): void {
  const run = shared.pocketmuxTestRun;
  if (!run || --run.projects > 0) return;
  shared.pocketmuxTestRun = undefined;
  const { runDir, tag } = run;
  const folders = existsSync(runDir) ? readdirSync(runDir) : [];
  // Test servers start with no TMUX_TMPDIR; one started with this process's environment may have it.
  const socketDirs = [...new Set([tmuxSocketDir(), tmuxSocketDir(process.env)])];
  const sockets = socketDirs.flatMap((dir) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.includes(`-${tag}-`)).map((name) => join(dir, name)) : []));
  rmSync(runDir, { recursive: true, force: true });
  for (const socket of sockets) rmSync(socket, { force: true });
  process.stdout.write(`left behind by the tests: ${folders.length} temp entries, ${sockets.length} tmux sockets\n`);
  if (folders.length + sockets.length === 0) return;
  process.stderr.write(`the tests left behind (now removed) in the temp dir: ${folders.join(', ') || 'nothing'}; tmux sockets: ${sockets.join(', ') || 'none'}\n`);
  // vitest only logs what a global teardown throws: the run fails through its exit code.
  process.exitCode = 1;
}
