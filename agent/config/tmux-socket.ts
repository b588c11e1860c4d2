import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { defaultDataDir } from './home.js';

/** The tmux server of the default data dir (~/.pocketmux): the name every release used. */
export const DEFAULT_TMUX_SOCKET = 'pocketmux';

/**
 * The path with every symbolic link resolved, as far as it exists: a data dir not made yet
 * gets the name it will have once made, so the same dir reached by two paths is one dir.
 */
export function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPathOf(parent), basename(path));
  }
}

/**
 * What a data dir is known by on a tmux server (16 hex digits of a hash of its real path):
 * the agent marks its server and sessions with it, and adopts no session marked otherwise.
 */
export function dataDirIdentity(dataDir: string): string {
  return createHash('sha256').update(realPathOf(dataDir)).digest('hex').slice(0, 16);
}

function isDefaultDataDir(dataDir: string, home: string): boolean {
  const standard = defaultDataDir(home);
  return dataDir === standard || realPathOf(dataDir) === realPathOf(standard);
}

/**
 * Each data dir gets its own tmux server, so two agents never see each other's sessions. The
 * default data dir keeps `pocketmux`, where an upgraded agent finds the sessions it left; any
 * other gets a stable name from its real path.
 */
export function defaultTmuxSocket(dataDir: string, home: string): string {
  if (isDefaultDataDir(dataDir, home)) return DEFAULT_TMUX_SOCKET;
  return `${DEFAULT_TMUX_SOCKET}-${dataDirIdentity(dataDir).slice(0, 8)}`;
}
