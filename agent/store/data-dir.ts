import { mkdirSync } from 'node:fs';
import { type DataPaths, dataPaths } from '../config/paths.js';
import { assertPrivate } from './permissions.js';

/**
 * The data dir, made private if new. One that others can read, or whose secrets they can
 * read, is refused before anything in it is used.
 */
export function openDataDir(dataDir: string): DataPaths {
  const paths = dataPaths(dataDir);
  assertPrivate([
    { path: paths.dataDir, kind: 'dir' },
    { path: paths.hookToken, kind: 'file' },
    { path: paths.devices, kind: 'file' },
    { path: paths.identity, kind: 'file' },
    { path: paths.status, kind: 'file' },
    { path: paths.vapid, kind: 'file' },
    { path: paths.push, kind: 'file' },
    { path: paths.outside, kind: 'file' },
  ]);
  mkdirSync(paths.dataDir, { recursive: true, mode: 0o700 });
  return paths;
}
