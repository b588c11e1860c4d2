/**
 * An isolated environment for running the real Claude Code CLI in a test: its own HOME with a
 * seeded `~/.claude.json` (so the interactive CLI skips onboarding, the API key question and the
 * folder trust dialog), the variables that point it at a stand-in API and keep it off the
 * network, and helpers for hook settings.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { StartOptions } from './agent.js';

export const CLAUDE_VERSION = '2.1.332';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** The platform binary of the pinned `@anthropic-ai/claude-code` dev dependency. */
export const CLAUDE_BIN = join(REPO_ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');

/** The hook events the status engine listens to; 2.1.332 accepts each in a settings file. */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'Notification',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'StopFailure',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

export interface ClaudeEnvOptions {
  /** ANTHROPIC_BASE_URL: the stand-in API's `url`. */
  baseUrl: string;
  /** Directories the CLI will be started in; each is marked trusted. */
  projectDirs?: string[];
  /** Reuse this HOME (its `.claude.json` is updated, not replaced) instead of a new temp dir. */
  home?: string;
  /** Any string of 20 characters or more. */
  apiKey?: string;
  /** Added to (and overriding) the returned environment. */
  env?: Record<string, string>;
}

export interface ClaudeEnv {
  home: string;
  apiKey: string;
  /**
   * The complete environment for the CLI: give it as is, not merged into `process.env`, so
   * nothing of the test process (an outer Claude's variables, say) reaches the CLI.
   */
  env: Record<string, string>;
  bin: string;
  /** Marks one more directory trusted, for a CLI started there later. */
  trust(dir: string): void;
  /** Removes HOME if this helper created it; call it once the CLI has exited. */
  cleanup(): void;
}

export function prepareClaudeEnv(options: ClaudeEnvOptions): ClaudeEnv {
  const ownHome = options.home === undefined;
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'pmx-claude-home-'));
  mkdirSync(home, { recursive: true });
  const apiKey = options.apiKey ?? 'sk-ant-api03-pocketmux-test-key-0123456789abcdef';
  if (apiKey.length < 20) throw new Error('the CLI only accepts an API key of 20 characters or more');
  seedClaudeJson(home, apiKey, options.projectDirs ?? []);
  const env: Record<string, string> = {
    HOME: home,
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: apiKey,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...options.env,
  };
  return {
    home,
    apiKey,
    env,
    bin: CLAUDE_BIN,
    trust: (dir) => seedClaudeJson(home, apiKey, [dir]),
    cleanup: () => {
      if (ownHome) rmSync(home, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/**
 * Writes the answers the interactive CLI would otherwise stop to ask for. Keys are real paths:
 * the CLI looks projects up by the resolved cwd (macOS's /tmp is a symlink).
 */
function seedClaudeJson(home: string, apiKey: string, projectDirs: string[]): void {
  const file = join(home, '.claude.json');
  const config = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const keyTail = apiKey.slice(-20);
  const responses = (config.customApiKeyResponses ?? { approved: [], rejected: [] }) as { approved: string[]; rejected: string[] };
  if (!responses.approved.includes(keyTail)) responses.approved.push(keyTail);
  const projects = (config.projects ?? {}) as Record<string, Record<string, unknown>>;
  for (const dir of projectDirs) {
    const key = realpathSync(dir);
    projects[key] = { allowedTools: [], ...projects[key], hasTrustDialogAccepted: true };
  }
  Object.assign(config, {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: CLAUDE_VERSION,
    customApiKeyResponses: responses,
    projects,
  });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
}

export interface HookSettingsOptions {
  events: readonly string[];
  /** The shell command each hook runs; a function gets the event name. */
  command: string | ((event: string) => string);
  /** Seconds. */
  timeout?: number;
  /** Other settings to write beside `hooks` (statusLine, permissions...). */
  extra?: Record<string, unknown>;
}

/** Writes a settings file for `claude --settings <file>` with one command hook per event. */
export function writeHookSettings(file: string, options: HookSettingsOptions): string {
  const hooks: Record<string, unknown[]> = {};
  for (const event of options.events) {
    const command = typeof options.command === 'function' ? options.command(event) : options.command;
    hooks[event] = [{ matcher: '', hooks: [{ type: 'command', command, timeout: options.timeout ?? 30 }] }];
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...options.extra, hooks }, null, 2)}\n`);
  return file;
}

/** Quotes a string for `/bin/sh`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * A hook command that appends `{"pane":"<$TMUX_PANE>","payload":<stdin>}` as one line to
 * `logFile`. The line is built first and written by a single printf, so hooks that run at the
 * same time (PermissionRequest beside Notification) cannot interleave their lines.
 */
export function appendPayloadHook(logFile: string): string {
  return `p=$(cat); printf '{"pane":"%s","payload":%s}\\n' "$TMUX_PANE" "$p" >> ${shellQuote(logFile)}`;
}

export interface HookLogEntry {
  /** `$TMUX_PANE` as the hook saw it (`%0`), empty outside tmux. */
  pane: string;
  payload: { hook_event_name: string; session_id: string; [key: string]: unknown };
}

/**
 * Reads a log written by `appendPayloadHook`; a missing file is an empty log. A last line still
 * being written (no newline yet) is left for the next read.
 */
export function readHookLog(logFile: string): HookLogEntry[] {
  if (!existsSync(logFile)) return [];
  const lines = readFileSync(logFile, 'utf8').split('\n');
  lines.pop();
  return lines.filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as HookLogEntry);
}

/** Creates an empty hook log, so a reader can tell "no hook yet" from a wrong path. */
export function createHookLog(logFile: string): string {
  mkdirSync(dirname(logFile), { recursive: true });
  appendFileSync(logFile, '');
  return logFile;
}

/**
 * `-e NAME=value` flags for tmux `new-session` or `new-window`. They add to the tmux server's
 * global environment, which comes from whatever started the server: start it with a bare one.
 */
export function tmuxEnvArgs(env: Record<string, string>): string[] {
  return Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
}

/**
 * startAgent's options for an agent that runs the pinned CLI with `claude`'s environment, its
 * transcript and safety polls short (200 ms, 500 ms) so the gaps hooks leave are filled within
 * a test. `extra` adds arguments and environment.
 */
export function quickClaudeAgent(
  reuse: NonNullable<StartOptions['reuse']>,
  claude: ClaudeEnv,
  extra: { args?: string[]; env?: Record<string, string> } = {},
): StartOptions {
  return {
    reuse,
    args: ['--claude-bin', CLAUDE_BIN, ...(extra.args ?? [])],
    env: { ...claude.env, POCKETMUX_TRANSCRIPT_POLL_MS: '200', POCKETMUX_SAFETY_POLL_MS: '500', ...extra.env },
  };
}
