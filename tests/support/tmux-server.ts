/**
 * A tmux server a test starts and owns: the person's own tmux standing in, or a server a real
 * Claude Code runs in. Named by socket name (`-L`, a name that carries the run's tag so a
 * forgotten one is found: temp.ts) or by socket path (`-S`, in a temp dir of the test's), started
 * with no config and the environment the test gives it, never the machine's or this process's
 * (an outer tmux's or Claude's variables must not reach its panes). `stop` ends the server, what
 * runs in its panes, and its socket file.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { descendants, processLister } from '../../agent/claude/process.js';
import { eventually } from './eventually.js';
import { testSocketName, tmuxSocketPath } from './temp.js';
import { processAlive } from '../../agent/util/process-alive.js';

export type TmuxAddress = { name: string } | { socketPath: string };

/** An environment with nothing of the machine's shell or tmux setup in it. */
export function bareTmuxEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, SHELL: '/bin/sh', TERM: 'xterm-256color', LANG: 'C.UTF-8' };
}

export class TmuxServer {
  /** `-L name` or `-S path`, as every tmux command for this server starts. */
  readonly address: string[];
  private socketFile: string | null;

  /** `env` is what a command run here carries; the server takes it from the command that starts it. */
  constructor(
    where: TmuxAddress,
    private readonly env: Record<string, string> = { PATH: process.env.PATH ?? '' },
  ) {
    this.address = 'name' in where ? ['-L', where.name] : ['-S', where.socketPath];
    this.socketFile = 'name' in where ? null : where.socketPath;
  }

  /** A server of a socket name of its own (`prefix` and the run's tag). */
  static named(prefix: string, env?: Record<string, string>): TmuxServer {
    return new TmuxServer({ name: testSocketName(prefix) }, env);
  }

  /** The socket name of a `-L` server, for tools that take one. */
  get socket(): string {
    return this.address[0] === '-L' ? (this.address[1] as string) : '';
  }

  /** Runs one tmux command against this server, with the server's environment or `env`. */
  run(...args: string[]): Promise<string> {
    return this.runWith(this.env, args);
  }

  runWith(env: Record<string, string>, args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile('tmux', [...this.address, ...args], { env, timeout: 5_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`tmux ${args.join(' ')}: ${stderr || error.message}`));
        else resolve(stdout);
      });
    });
  }

  /**
   * A new session running `command` (through the shell) in `cwd`; its pane id. One that starts
   * the server (the first, or one after the last pane closed) gives it `env` as every pane's
   * environment.
   */
  async open(cwd: string, command: string, env: Record<string, string>): Promise<string> {
    const args = ['-f', '/dev/null', 'new-session', '-d', '-P', '-F', '#{pane_id}', '-x', '120', '-y', '40', '-c', cwd, command];
    // A server whose last pane just closed can refuse once while it exits; the retry starts a fresh one.
    const pane = (
      await this.runWith(env, args).catch((err: Error) => {
        if (!/server exited unexpectedly/.test(err.message)) throw err;
        return this.runWith(env, args);
      })
    ).trim();
    await this.rememberSocketFile();
    return pane;
  }

  /** `$TMUX` as a process in its panes sees it. */
  async tmuxEnv(): Promise<string> {
    return (await this.run('display-message', '-p', '#{socket_path},#{pid},0')).trim();
  }

  /** Notes where the socket file is, for `stop` to remove; call once the server runs. */
  async rememberSocketFile(): Promise<void> {
    this.socketFile ??= (await this.run('display-message', '-p', '#{socket_path}')).trim();
  }

  /** The pids of what runs in its panes, the panes' own processes and theirs. */
  async paneProcesses(): Promise<number[]> {
    const panes = await this.run('list-panes', '-a', '-F', '#{pane_pid}').catch(() => '');
    const table = await processLister().list();
    return panes
      .split('\n')
      .filter(Boolean)
      .flatMap((p) => [Number(p), ...descendants(table, Number(p))]);
  }

  /**
   * Kills what runs in its panes and waits until it has ended: a process still ending may write
   * into a test dir (its HOME, CODEX_HOME) after the test removed it.
   */
  async killPaneProcesses(): Promise<void> {
    await killAndWait(await this.paneProcesses());
  }

  /** Kills the server and whatever runs in its panes, and removes its socket file (kill-server leaves it). */
  async stop(): Promise<void> {
    await this.rememberSocketFile().catch(() => undefined);
    const pids = await this.paneProcesses();
    await this.run('kill-server').catch(() => undefined);
    await killAndWait(pids).catch(() => undefined);
    // A server that had already exited cannot say where its socket was: a named one's is known.
    const file = this.socketFile ?? (this.socket ? tmuxSocketPath(this.socket, this.env) : null);
    if (file) rmSync(file, { force: true });
  }
}

async function killAndWait(pids: number[]): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await eventually(() => !pids.some(processAlive), 10_000, 'the processes of the panes to end');
}
