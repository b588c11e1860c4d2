/**
 * Claude's user settings file as pocketmux reads it, and whether it holds pocketmux's hooks:
 * the CLI installs from it, and doctor and the app's settings page report it.
 */
import { realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dataPaths } from '../config/paths.js';
import { FileRefusedError } from '../util/regular-file.js';
import { readClaudeSettingsText } from './hook-files.js';
import { parseUserSettings, UserHooksError, userHooksState } from './user-hooks.js';

export function hookScriptPath(dataDir: string): string {
  return dataPaths(dataDir).hookScript;
}

export function userSettingsPath(claudeConfigDir: string): string {
  return join(claudeConfigDir, 'settings.json');
}

export interface SettingsFile {
  /** The path named; writes go to the file it links to, so a symlinked settings.json stays a link. */
  path: string;
  target: string;
  text: string | null;
  mode: number | null;
}

export function readSettingsFile(path: string): SettingsFile {
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    // No file (or a dangling link): written where it is named.
  }
  try {
    // Read so that a FIFO or a device there cannot hold the CLI, or the agent's settings page.
    return { path, target, text: readClaudeSettingsText(target), mode: statSync(target).mode & 0o777 };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { path, target, text: null, mode: null };
    if (err instanceof FileRefusedError) {
      throw new UserHooksError(`refusing to read ${path}${target === path ? '' : ` (a link to ${target})`}: ${err.reason}`);
    }
    throw new UserHooksError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

export interface UserHooksInstall {
  state: 'installed' | 'some' | 'none';
  path: string;
  missing: string[];
}

/**
 * Whether Claude's user settings hold pocketmux's hooks, for doctor and the app's settings.
 * Throws UserHooksError when the settings cannot be read.
 */
export function userHooksInstall(claudeConfigDir: string, dataDir: string): UserHooksInstall {
  const path = userSettingsPath(claudeConfigDir);
  const file = readSettingsFile(path);
  const state = userHooksState(parseUserSettings(file.text, path).settings, hookScriptPath(dataDir));
  return { state: state.missing.length === 0 ? 'installed' : state.installed.length === 0 ? 'none' : 'some', path, missing: state.missing };
}
