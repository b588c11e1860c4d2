import { mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/config.js';
import { dataDirProblem } from '../config/data-dir-check.js';
import { type DataPaths, dataPaths } from '../config/paths.js';
import { assertPrivate } from './permissions.js';
import { processAlive } from '../util/process-alive.js';

/**
 * The data dir, made private if new. One that others can read, or whose secrets they can
 * read, is refused before anything in it is used.
 */
export function openDataDir(dataDir: string): DataPaths {
  const paths = dataPaths(dataDir);
  // A file there would otherwise be met as a mode to fix, then as mkdir's EEXIST.
  const refused = dataDirProblem(dataDir);
  if (refused) throw new ConfigError(refused);
  assertPrivate([
    { path: paths.dataDir, kind: 'dir' },
    { path: paths.hookToken, kind: 'file' },
    { path: paths.hookTokenHeader, kind: 'file' },
    { path: paths.hookSettings, kind: 'file' },
    { path: paths.devices, kind: 'file' },
    { path: paths.machines, kind: 'file' },
    { path: paths.identity, kind: 'file' },
    { path: paths.status, kind: 'file' },
    { path: paths.vapid, kind: 'file' },
    { path: paths.push, kind: 'file' },
    { path: paths.outside, kind: 'file' },
  ]);
  mkdirSync(paths.dataDir, { recursive: true, mode: 0o700 });
  for (const dir of [paths.dataDir, join(paths.dataDir, 'hooks')]) removeDeadTempFiles(dir);
  return paths;
}

/** writeFileAtomic's temp file: `<name>.<pid>.<8 hex>.tmp`. */
const TEMP_FILE = /\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * A write cut short (the agent killed, the machine off) leaves its temp file, half written;
 * the file it was for is intact. Those of processes no longer running are removed, so they
 * do not pile up; a live one's (another agent about to find the lock held) is left alone.
 */
function removeDeadTempFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(TEMP_FILE.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Gone already.
    }
  }
}
