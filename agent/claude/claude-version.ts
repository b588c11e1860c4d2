import { execFile } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import type { HookSettingsFiles } from './hook-files.js';
import { findExecutable } from '../util/shell.js';
import type { Logger } from '../util/log.js';

/** A claude release as `claude --version` reports it: major, minor, patch. */
export type ClaudeVersion = readonly [number, number, number];

/**
 * The first Claude Code seen running `"type": "http"` hooks with interpolated headers and
 * obeying a PermissionRequest decision from the response body (see the reference captures).
 * Older versions may reject the entry, which disables every hook in the file.
 */
export const FIRST_HTTP_HOOKS_VERSION: ClaudeVersion = [2, 1, 332];

/** How long `claude --version` may take before the version counts as unknown. */
export const VERSION_PROBE_TIMEOUT_MS = 4_000;

/** `2.1.332 (Claude Code)` → [2, 1, 332]; anything else → null. */
export function parseClaudeVersion(output: string): ClaudeVersion | null {
  const match = /^\s*v?(\d{1,6})\.(\d{1,6})\.(\d{1,9})(?![\d.])/.exec(output);
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Negative, zero or positive, as `a` is older than, the same as or newer than `b`. */
export function compareVersions(a: ClaudeVersion, b: ClaudeVersion): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

export function supportsHttpHooks(version: ClaudeVersion | null): boolean {
  return version !== null && compareVersions(version, FIRST_HTTP_HOOKS_VERSION) >= 0;
}

/** The `--settings` file for a claude of this version: HTTP hooks only where they are known to work. */
export function settingsFileFor(version: ClaudeVersion | null, files: HookSettingsFiles): string {
  return supportsHttpHooks(version) ? files.http : files.command;
}

/**
 * Learns the version of the claude a tab will run, once per binary: an update replaces the
 * file, so the cache is keyed by the resolved path and its modification time. A binary that
 * is missing, fails, hangs or prints something else has an unknown version (null).
 */
export class ClaudeVersions {
  private readonly cache = new Map<string, Promise<ClaudeVersion | null>>();

  constructor(
    /** The environment the tabs run claude in (the login PATH): the same binary is found. */
    private readonly env: Record<string, string>,
    private readonly log: Logger,
    private readonly timeoutMs = VERSION_PROBE_TIMEOUT_MS,
  ) {}

  versionOf(bin: string): Promise<ClaudeVersion | null> {
    const found = findExecutable(bin, this.env.PATH ?? '');
    if (!found) return Promise.resolve(null);
    let key: string;
    let path: string;
    try {
      path = realpathSync(found);
      key = `${path}\0${statSync(path).mtimeMs}`;
    } catch {
      return Promise.resolve(null);
    }
    let known = this.cache.get(key);
    if (!known) {
      known = this.probe(path);
      this.cache.set(key, known);
    }
    return known;
  }

  private probe(path: string): Promise<ClaudeVersion | null> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (version: ClaudeVersion | null, problem: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(guard);
        if (version) this.log.info('claude version', { bin: path, version: version.join('.'), httpHooks: supportsHttpHooks(version) });
        else this.log.warn('could not tell the claude version: its tabs use command hooks', { bin: path, error: problem });
        resolve(version);
      };
      // execFile reports only once the output pipe closes, which a leftover child of a
      // wrapper script can hold open past the kill: a tab never waits on that.
      const guard = setTimeout(() => settle(null, 'no answer in time'), this.timeoutMs + 500);
      execFile(path, ['--version'], { env: { ...process.env, ...this.env }, timeout: this.timeoutMs, maxBuffer: 64 * 1024 }, (error, stdout) => {
        const version = error ? null : parseClaudeVersion(stdout);
        settle(version, error?.message ?? `unexpected output: ${stdout.slice(0, 80)}`);
      });
    });
  }
}
