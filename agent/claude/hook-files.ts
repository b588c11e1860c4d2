import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_HOOK_TIMEOUT_S, PERMISSION_HOOK_TIMEOUT_S } from '../config/limits.js';
import { dataPaths } from '../config/paths.js';
import { writeFileAtomic, writeJsonAtomic } from '../store/atomic-file.js';
import { newSecret } from '../util/ids.js';
import { shellQuote } from '../util/shell.js';
import type { Logger } from '../util/log.js';
import { FileRefusedError, readRegularFileSync } from '../util/regular-file.js';
import { HOOK_HEADERS, hookPath, STATUSLINE_HOOK } from '../../protocol/hook-contract.js';
import { HOOK_EVENT_NAMES } from '../../protocol/hooks.js';

/**
 * Set (to 1) for the claude a Claude tab starts, whose hooks come from `--settings`: the
 * `--global` hooks of Claude's user settings (`pocketmux hooks install`) step aside there, so
 * no event is reported twice. Only that claude has it: a claude typed in a shell tab, or after
 * /exit, has no `--settings` and reports through the global hooks.
 */
export const TAB_HOOKS_ENV = 'POCKETMUX_TAB_HOOKS';

/** Any pocketmux's global statusLine (whatever its data dir): never run as the person's own. */
export function isPocketmuxStatusLine(command: string): boolean {
  return /hooks\/hook\.sh'? --global statusline\s*$/.test(command);
}

/**
 * The script Claude runs for every hook event it runs no HTTP hook for, and Codex for all of its
 * events. It is on the hot path of every event, so it
 * starts nothing but sh and one curl, and it must never slow Claude down: with the agent
 * gone, the connection is refused at once (loopback), curl gives up, and the script exits
 * 0 printing nothing. The payload goes through untouched; the pane comes from $TMUX_PANE.
 * The token is not in the script: curl reads its header from `tokenHeaderFile` (`-H @file`,
 * curl 7.55 and later), since every user on the machine can read a process's arguments.
 */
export function hookScript(opts: { port: number; tokenHeaderFile: string; userStatusLine?: string | null }): string {
  const userStatusLine = opts.userStatusLine
    ? `printf '%s' "$payload" | /bin/sh -c ${shellQuote(opts.userStatusLine)}`
    : '';
  return `#!/bin/sh
# Written by pocketmux at every start; edits are overwritten. Forwards one hook event to the
# agent and prints the agent's answer (a permission decision, or nothing). $1 names the event:
# Claude Code's as it is (Stop), another agent CLI's under its name (codex/Stop).
# --global: run from Claude's user settings (pocketmux hooks install). A claude started in a
# pocketmux Claude tab has these hooks through --settings already: step aside there.
if [ "$1" = --global ]; then
  [ -n "\${${TAB_HOOKS_ENV}:-}" ] && exit 0
  shift
fi
if [ "$1" = statusline ]; then
  # Claude's statusLine: report it in the background (so the line shows at once), then run
  # the person's own statusLine command, if any, with the same input. Only sh builtins read
  # the input: no extra process on a path Claude runs often.
  payload=
  while IFS= read -r line || [ -n "$line" ]; do payload="$payload$line
"; done
  printf '%s' "$payload" | curl -s -o /dev/null --noproxy '*' --connect-timeout 0.5 --max-time 2 \\
    -H 'Content-Type: application/json' \\
    -H @${shellQuote(opts.tokenHeaderFile)} \\
    -H "${HOOK_HEADERS.pane}: \${TMUX_PANE:-}" \\
    -H "${HOOK_HEADERS.tmux}: \${TMUX:-}" \\
    --data-binary @- "http://127.0.0.1:${opts.port}${hookPath(STATUSLINE_HOOK)}" >/dev/null 2>&1 &
  ${userStatusLine}
  exit 0
fi
case "$1" in
  PermissionRequest|*/PermissionRequest) max=${PERMISSION_HOOK_TIMEOUT_S - 5} ;;
  *) max=${EVENT_HOOK_TIMEOUT_S - 5} ;;
esac
curl -s -f --noproxy '*' --connect-timeout 0.5 --max-time "$max" \\
  -H 'Content-Type: application/json' \\
  -H @${shellQuote(opts.tokenHeaderFile)} \\
  -H "${HOOK_HEADERS.pane}: \${TMUX_PANE:-}" \\
  -H "${HOOK_HEADERS.tmux}: \${TMUX:-}" \\
  --data-binary @- "http://127.0.0.1:${opts.port}${hookPath('$1')}" 2>/dev/null
exit 0
`;
}

/**
 * Events Claude Code will not run as an HTTP hook (it skips them with "HTTP hooks are not
 * supported"): they keep the script even where every other event goes over HTTP.
 */
export const COMMAND_ONLY_EVENTS: ReadonlySet<string> = new Set(['SessionStart', 'Setup']);

function hookTimeout(event: string): number {
  return event === 'PermissionRequest' ? PERMISSION_HOOK_TIMEOUT_S : EVENT_HOOK_TIMEOUT_S;
}

function commandHook(scriptPath: string, event: string): object {
  return { type: 'command', command: `${shellQuote(scriptPath)} ${event}`, timeout: hookTimeout(event) };
}

/**
 * Claude POSTs the payload itself: no process starts. The token is a literal header (never
 * in the URL, which shows up in Claude's debug log); the pane and tmux server are read from
 * Claude's own environment, which it interpolates only for variables in allowedEnvVars.
 */
function httpHook(opts: { port: number; token: string }, event: string): object {
  return {
    type: 'http',
    url: `http://127.0.0.1:${opts.port}${hookPath(event)}`,
    headers: {
      [HOOK_HEADERS.token]: opts.token,
      [HOOK_HEADERS.pane]: '$TMUX_PANE',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude fills in ${TMUX} from its own environment.
      [HOOK_HEADERS.tmux]: '${TMUX}',
    },
    allowedEnvVars: ['TMUX_PANE', 'TMUX'],
    timeout: hookTimeout(event),
  };
}

function settingsWith(scriptPath: string, userStatusLine: UserStatusLine | null, hookFor: (event: string) => object): object {
  const hooks: Record<string, unknown[]> = {};
  for (const event of HOOK_EVENT_NAMES) hooks[event] = [{ matcher: '', hooks: [hookFor(event)] }];
  // The statusLine is a command by nature: Claude prints what it prints.
  const statusLine: Record<string, unknown> = { type: 'command', command: `${shellQuote(scriptPath)} statusline` };
  if (userStatusLine?.padding !== undefined) statusLine.padding = userStatusLine.padding;
  return { hooks, statusLine };
}

/** `--settings` file for a claude too old for HTTP hooks: every event goes to the script. */
export function commandHookSettings(scriptPath: string, userStatusLine: UserStatusLine | null = null): object {
  return settingsWith(scriptPath, userStatusLine, (event) => commandHook(scriptPath, event));
}

/** `--settings` file for a claude that runs HTTP hooks: every event it allows over HTTP, the rest to the script. */
export function httpHookSettings(opts: { scriptPath: string; port: number; token: string }, userStatusLine: UserStatusLine | null = null): object {
  return settingsWith(opts.scriptPath, userStatusLine, (event) =>
    COMMAND_ONLY_EVENTS.has(event) ? commandHook(opts.scriptPath, event) : httpHook(opts, event),
  );
}

export interface UserStatusLine {
  command: string;
  padding?: number;
}

/**
 * The most of Claude Code's user settings read: a hand-kept file of a few KB, with room for a
 * long list of permission rules.
 */
export const CLAUDE_SETTINGS_MAX_BYTES = 1024 * 1024;

/** Claude Code's user settings, as the person keeps them (a symbolic link is followed). */
export function readClaudeSettingsText(path: string): string {
  return readRegularFileSync(path, { maxBytes: CLAUDE_SETTINGS_MAX_BYTES }).toString('utf8');
}

/**
 * The person's own statusLine, from Claude Code's user settings. Only one statusLine is
 * active, and ours (from --settings) wins, so ours runs theirs and prints its output. A
 * settings file that is not a regular file, or too large, is logged and taken as none.
 */
export function readUserStatusLine(claudeConfigDir: string, log?: Pick<Logger, 'warn'>): UserStatusLine | null {
  try {
    const settings = JSON.parse(readClaudeSettingsText(join(claudeConfigDir, 'settings.json'))) as {
      statusLine?: { type?: unknown; command?: unknown; padding?: unknown };
    };
    const line = settings.statusLine;
    if (line?.type !== 'command' || typeof line.command !== 'string' || line.command.trim() === '') return null;
    // Ours, from `pocketmux hooks install`: the wrapper would run itself.
    if (isPocketmuxStatusLine(line.command)) return null;
    return { command: line.command, ...(typeof line.padding === 'number' ? { padding: line.padding } : {}) };
  } catch (err) {
    if (err instanceof FileRefusedError) log?.warn('did not read your statusLine from Claude\'s settings', { error: err.message });
    return null;
  }
}

/** The token hooks present; made once, kept in the data dir readable only by the user. */
export function loadHookToken(path: string): string {
  try {
    const token = readFileSync(path, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(token)) return token;
  } catch {
    // Made below.
  }
  const token = newSecret();
  writeFileAtomic(path, `${token}\n`, 0o600);
  return token;
}

/** The two settings files: which one a claude gets depends on its version (`claude-version.ts`). */
export interface HookSettingsFiles {
  /** HTTP hooks where Claude allows them. */
  http: string;
  /** Command hooks only, for older or unknown versions. */
  command: string;
}

export interface HookPaths {
  dir: string;
  script: string;
  settings: HookSettingsFiles;
}

/** Where the settings live, known before the port is: Claude tabs are started with them. */
export function hookSettingsPaths(dataDir: string): HookSettingsFiles {
  return { http: dataPaths(dataDir).hookSettings, command: join(dataDir, 'hooks', 'settings-command.json') };
}

/** The header line curl sends the token in, as `-H @file` reads it. */
export function tokenHeaderLine(token: string): string {
  return `${HOOK_HEADERS.token}: ${token}\n`;
}

/**
 * Writes the script, the token's header file and both settings files for the port the agent
 * listens on now.
 */
export function installHooks(dataDir: string, port: number, token: string, userStatusLine: UserStatusLine | null = null): HookPaths {
  const dir = join(dataDir, 'hooks');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const script = dataPaths(dataDir).hookScript;
  const settings = hookSettingsPaths(dataDir);
  const tokenHeaderFile = dataPaths(dataDir).hookTokenHeader;
  // Before the script that names it: a hook run in between finds the header it reads.
  writeFileAtomic(tokenHeaderFile, tokenHeaderLine(token), 0o600);
  writeFileAtomic(script, hookScript({ port, tokenHeaderFile, userStatusLine: userStatusLine?.command ?? null }), 0o700);
  // The HTTP settings carry the token in a header: like the script, readable by the user only.
  writeJsonAtomic(settings.http, httpHookSettings({ scriptPath: script, port, token }, userStatusLine), 0o600);
  writeJsonAtomic(settings.command, commandHookSettings(script, userStatusLine), 0o600);
  return { dir, script, settings };
}
