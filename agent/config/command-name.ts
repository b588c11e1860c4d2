import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { BIN_FILE } from './package.js';

function realpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * How a person runs this installation: `pocketmux` when the first `pocketmux` on PATH is
 * this same installation (a global install, `npm link`), else `npx pocketmux` (which also
 * works in a clone, through package.json's `bin`). PATH entries that are a
 * `node_modules/.bin` are skipped: npm puts them there for `npm start` and `npx`, and the
 * person's own shell does not have them.
 */
export function resolveCommandName(path: string | undefined = process.env.PATH, bin: string = BIN_FILE): string {
  const self = realpath(bin);
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir || (basename(dir) === '.bin' && basename(dirname(dir)) === 'node_modules')) continue;
    const candidate = join(dir, 'pocketmux');
    if (!isExecutable(candidate)) continue;
    // The shell runs the first one it finds: another installation there shadows this one.
    return self !== null && realpath(candidate) === self ? 'pocketmux' : 'npx pocketmux';
  }
  return 'npx pocketmux';
}

let cached: string | undefined;

/** `pocketmux` or `npx pocketmux`, for every message that names a command; see resolveCommandName. */
export function commandName(): string {
  cached ??= resolveCommandName();
  return cached;
}
