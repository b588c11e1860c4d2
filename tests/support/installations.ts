/**
 * Installations of pocketmux as the command-name tests find them: under one folder (its real
 * path, removed once the file's tests are done), each a `bin/pocketmux.js` with a PATH
 * directory linking `pocketmux` to it; one installed globally, also reached from an npx cache;
 * and a PATH directory with no pocketmux at all.
 */
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolders } from './temp-folders.js';

export interface Installation {
  bin: string;
  pathDir: string;
}

export interface Installations {
  root: string;
  /** Another installation, named `name` under the root. */
  install(name: string): Installation;
  global: Installation;
  /** An npx cache's `.bin`, linking `pocketmux` to the global installation. */
  npxCache: string;
  /** A PATH directory with nothing in it. */
  empty: string;
}

/** Called at a test file's top level. */
export function installations(): Installations {
  const root = realpathSync(tempFolders('pocketmux-command-name-')());
  const install = (name: string): Installation => {
    const bin = join(root, name, 'lib', 'pocketmux', 'bin', 'pocketmux.js');
    mkdirSync(join(bin, '..'), { recursive: true });
    writeFileSync(bin, '#!/usr/bin/env node\n');
    chmodSync(bin, 0o755);
    const pathDir = join(root, name, 'bin');
    mkdirSync(pathDir, { recursive: true });
    symlinkSync(bin, join(pathDir, 'pocketmux'));
    return { bin, pathDir };
  };
  const global = install('global');
  const npxCache = join(root, 'npx', 'node_modules', '.bin');
  mkdirSync(npxCache, { recursive: true });
  symlinkSync(global.bin, join(npxCache, 'pocketmux'));
  const empty = join(root, 'empty');
  mkdirSync(empty);
  return { root, install, global, npxCache, empty };
}
