import { statSync } from 'node:fs';

export class InsecurePermissionsError extends Error {}

/**
 * Secrets (hook token, credential hashes, keys) must be readable by the user alone. A file
 * or directory that others can read is refused with the command that fixes it, rather
 * than silently tightened: someone may already have read it.
 */
export function assertPrivate(paths: { path: string; kind: 'dir' | 'file' }[]): void {
  const problems: string[] = [];
  for (const { path, kind } of paths) {
    let mode: number;
    try {
      mode = statSync(path).mode & 0o777;
    } catch {
      continue;
    }
    if ((mode & 0o077) !== 0) {
      problems.push(`${path} is ${mode.toString(8).padStart(3, '0')}; run: chmod ${kind === 'dir' ? '700' : '600'} '${path}'`);
    }
  }
  if (problems.length > 0) {
    throw new InsecurePermissionsError(
      `refusing to start: pocketmux's secrets must be readable by you alone, and other users can read:\n  ${problems.join('\n  ')}\n` +
        'If someone else may have read them, also remove hook-token and devices.json (every device pairs again).',
    );
  }
}
