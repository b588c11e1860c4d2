import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** What a path that exists but is not a directory is, in words. */
function kindOf(path: string): string {
  try {
    const st = statSync(path);
    if (st.isFile()) return 'a file';
    if (st.isFIFO()) return 'a FIFO';
    if (st.isSocket()) return 'a socket';
    if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  } catch {
    // Gone meanwhile: said plainly below.
  }
  return 'not a directory';
}

function usable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK | constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The nearest ancestor of `path` that exists (the root at worst), with what it is. */
function nearestExisting(path: string): { path: string; isDirectory: boolean } {
  let at = dirname(path);
  for (;;) {
    try {
      return { path: at, isDirectory: statSync(at).isDirectory() };
    } catch (err) {
      const parent = dirname(at);
      if (errnoOf(err) === 'EACCES' || parent === at) return { path: at, isDirectory: true };
      at = parent;
    }
  }
}

/**
 * Why `dataDir` (an absolute path) cannot be pocketmux's data dir, in a sentence a person can
 * act on; null when it can: a directory of theirs, or a path where one can be made. Checked
 * before anything reads or writes there, so a file at that path is named as one rather than
 * failing later as a mode to fix or a stack trace.
 */
export function dataDirProblem(dataDir: string): string | null {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dataDir).isDirectory();
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      let link = false;
      try {
        link = lstatSync(dataDir).isSymbolicLink();
      } catch {
        // Not even a link: nothing is there.
      }
      if (link) return `the data dir ${dataDir} is a symbolic link to nothing: remove it, or pass --data-dir a directory`;
      const ancestor = nearestExisting(dataDir);
      if (!ancestor.isDirectory) {
        return `the data dir ${dataDir} cannot be made: ${ancestor.path} is ${kindOf(ancestor.path)}, not a directory; pass --data-dir a directory`;
      }
      if (!usable(ancestor.path)) return `the data dir ${dataDir} cannot be made: you may not write in ${ancestor.path}`;
      return null;
    }
    if (code === 'EACCES') return `the data dir ${dataDir} cannot be reached: permission denied on a directory above it`;
    if (code === 'ELOOP') return `the data dir ${dataDir} is a loop of symbolic links: pass --data-dir a directory`;
    return `the data dir ${dataDir} cannot be used: ${(err as Error).message}`;
  }
  if (!isDirectory) {
    const link = lstatSync(dataDir).isSymbolicLink() ? ' (a symbolic link to one)' : '';
    return `the data dir ${dataDir} is ${kindOf(dataDir)}${link}, not a directory: pass --data-dir a directory, or move it away`;
  }
  if (!usable(dataDir)) return `the data dir ${dataDir} is a directory you may not read and write: fix its owner or permissions, or pass --data-dir another`;
  return null;
}
