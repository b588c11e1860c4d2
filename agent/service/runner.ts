import { execFile } from 'node:child_process';

/** What a service manager command printed and how it ended. */
export interface RunResult {
  /** The exit code; null when the command could not be run at all (see `stderr`). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one command (systemctl, launchctl, journalctl): injected in tests to record and fake them. */
export type Runner = (command: string, args: readonly string[]) => Promise<RunResult>;

/** The real commands, with a timeout so a hung manager cannot hang the CLI. */
export function processRunner(env: NodeJS.ProcessEnv = process.env, timeoutMs = 30_000): Runner {
  return (command, args) =>
    new Promise((resolve) => {
      execFile(command, [...args], { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (!err) {
          resolve({ code: 0, stdout, stderr });
          return;
        }
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'number') {
          resolve({ code, stdout, stderr });
          return;
        }
        const reason = code === 'ENOENT' ? `${command}: command not found` : `${command}: ${err.message}`;
        resolve({ code: null, stdout, stderr: stderr ? `${stderr}\n${reason}` : reason });
      });
    });
}

export { shellWords } from '../config/shell-words.js';

/**
 * The line of a failed command's output that says why: the first that reads like an error
 * (systemctl writes what it did before it fails: "Removed …", then "Failed to connect to
 * bus"), else the last line of its stderr, else of its stdout.
 */
export function failureReason(result: RunResult): string {
  const lines = (text: string) =>
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  const err = lines(result.stderr);
  const out = lines(result.stdout);
  return (
    [...err, ...out].find((l) => /fail|error|denied|cannot|can't|could not|not found|no such|refused|unable/i.test(l)) ??
    err.at(-1) ??
    out.at(-1) ??
    `exit code ${result.code}`
  );
}
