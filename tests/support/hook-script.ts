/** The agent's installed hook script, run exactly as Claude runs a command hook. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `sh -c '<dataDir>/hooks/hook.sh' <args>` with the payload and a newline on stdin and only
 * PATH plus `env` (the pane's TMUX/TMUX_PANE) in its environment. `started` gets the process,
 * for a test that must end a held one itself.
 */
export function runHookScript(dataDir: string, args: string, payload: unknown, env: Record<string, string>, started?: (child: ChildProcess) => void): Promise<HookRun> {
  const script = join(dataDir, 'hooks', 'hook.sh');
  const child = spawn('/bin/sh', ['-c', `'${script}' ${args}`], { env: { PATH: process.env.PATH, ...env } });
  started?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(`${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n`);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}
