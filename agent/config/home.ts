import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `~` and `~/…` as the shell would expand them; any other path as it is. */
export function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return path;
}

/** Where the agent keeps its state when neither --data-dir nor POCKETMUX_DIR says otherwise. */
export function defaultDataDir(home: string = homedir()): string {
  return join(home, '.pocketmux');
}
