import type { ChildProcess } from 'node:child_process';

/** What a child process has printed so far on stdout and stderr, decoded as UTF-8. */
export interface ChildOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** Collects a piped child's stdout and stderr as they come. */
export function collectOutput(child: ChildProcess): ChildOutput {
  const output = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    output.stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    output.stderr += d;
  });
  return output;
}
