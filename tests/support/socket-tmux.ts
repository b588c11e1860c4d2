import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * A tmux server of a test's own on a socket path it chooses (`-S`): the person's own tmux,
 * standing in, with a bare environment so nothing of the machine's tmux or shell config leaks
 * in. Tests add the panes they need.
 */
export class SocketTmux {
  constructor(
    readonly socketPath: string,
    protected readonly home: string,
  ) {}

  run(...args: string[]): Promise<string> {
    return new Promise((resolve, reject) =>
      execFile('tmux', ['-S', this.socketPath, ...args], { env: { PATH: process.env.PATH, HOME: this.home, SHELL: '/bin/sh', TERM: 'xterm-256color', LANG: 'C.UTF-8' }, timeout: 5_000 }, (err, out, stderr) =>
        err ? reject(new Error(`tmux ${args.join(' ')}: ${stderr || err.message}`)) : resolve(out),
      ),
    );
  }

  async stop(): Promise<void> {
    await this.run('kill-server').catch(() => undefined);
    rmSync(this.socketPath, { force: true });
  }
}
