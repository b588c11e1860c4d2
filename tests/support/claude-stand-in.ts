/**
 * The person's own tmux server, as a test stands it in: a server of its own socket name (never
 * pocketmux's, never the developer's), with no config, started with the environment the test
 * gives its panes. What runs in its panes sees `$TMUX` and `$TMUX_PANE` as in any tmux.
 */
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { processLister, descendants } from '../../agent/claude/process.js';
import { tmux } from './agent.js';
import { testSocketName } from './temp.js';

export class OwnTmux {
  readonly socket = testSocketName('own');
  private socketPath: string | null = null;

  /**
   * A new session running `command` (through the shell) in `cwd`; its pane id. One that
   * starts the server (the first, or one after the last pane closed) gives it `env` as every
   * pane's environment.
   */
  async open(cwd: string, command: string, env: Record<string, string>): Promise<string> {
    const args = ['-f', '/dev/null', 'new-session', '-d', '-P', '-F', '#{pane_id}', '-x', '120', '-y', '40', '-c', cwd, command];
    // A server whose last pane just closed can refuse once while it exits; the retry starts a fresh one.
    const pane = (await tmuxWithEnv(this.socket, args, env).catch((err: Error) => {
      if (!/server exited unexpectedly/.test(err.message)) throw err;
      return tmuxWithEnv(this.socket, args, env);
    })).trim();
    this.socketPath ??= (await tmux(this.socket, 'display-message', '-p', '#{socket_path}')).trim();
    return pane;
  }

  /** `$TMUX` as a process in its panes sees it. */
  async tmuxEnv(): Promise<string> {
    return (await tmux(this.socket, 'display-message', '-p', '#{socket_path},#{pid},0')).trim();
  }

  /** Kills the server and whatever runs in its panes, and removes its socket. */
  async close(): Promise<void> {
    const panes = await tmux(this.socket, 'list-panes', '-a', '-F', '#{pane_pid}').catch(() => '');
    const table = await processLister().list();
    const pids = panes.split('\n').filter(Boolean).flatMap((p) => [Number(p), ...descendants(table, Number(p))]);
    await tmux(this.socket, 'kill-server').catch(() => undefined);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone with the server.
      }
    }
    if (this.socketPath) rmSync(this.socketPath, { force: true });
  }
}

/** The server takes its environment from the client that starts it. */
function tmuxWithEnv(socket: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-L', socket, ...args], { env, timeout: 5_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`tmux ${args[0]}: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/**
 * A stand-in for claude in a pane, where a test needs a claude running there but not the real
 * CLI: a copy of cat named `claude` (the agent recognises a claude by its command name). Typed
 * text comes back from it once a line is ended.
 */
export function claudeStandIn(root: string): string {
  const dir = join(root, 'fake-claude');
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, 'claude');
  copyFileSync('/bin/cat', bin);
  chmodSync(bin, 0o755);
  return bin;
}
