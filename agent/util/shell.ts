import { accessSync, constants } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** One argument for a POSIX shell, whatever it holds: single quotes, with `'` written `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** Finds an executable the way a shell would: as given when it has a slash, else on PATH. */
export function findExecutable(bin: string, path: string): string | null {
  const candidates = bin.includes('/') ? [bin] : path.split(':').filter(isAbsolute).map((dir) => join(dir, bin));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}
