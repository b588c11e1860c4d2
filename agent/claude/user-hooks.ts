/**
 * pocketmux's hooks in Claude Code's *user* settings (`~/.claude/settings.json`), so that every
 * claude on this machine reports to the agent, not only the ones started in a Claude tab. Pure:
 * text in, text out; `user-hooks-file.ts` reads the file and `agent/cli/hooks-cli.ts` writes it.
 *
 * Each event gets one more entry running `'<dataDir>/hooks/hook.sh' --global <Event>`; the
 * person's own entries and every other key stay as they were. A claude started in a Claude tab
 * already has the same hooks through `--settings`: there the script steps aside (see
 * TAB_HOOKS_ENV), so no event is reported twice. Our entries are recognised by their command
 * (the script path and `--global`), so installing twice adds nothing and uninstalling removes
 * exactly what install added.
 */
import { HOOK_EVENT_NAMES } from '../../protocol/hooks.js';
import { EVENT_HOOK_TIMEOUT_S, PERMISSION_HOOK_TIMEOUT_S } from '../config/limits.js';
import { shellQuote } from '../util/shell.js';
import { isPocketmuxStatusLine, TAB_HOOKS_ENV } from './hook-files.js';

export { TAB_HOOKS_ENV };

export const GLOBAL_FLAG = '--global';

export class UserHooksError extends Error {}

type Json = Record<string, unknown>;

export function globalHookCommand(scriptPath: string, event: string): string {
  return `${shellQuote(scriptPath)} ${GLOBAL_FLAG} ${event}`;
}

/**
 * What one CLI's user hooks file gets: Claude's settings.json, Codex's hooks.json (the same
 * JSON shape). The merge below is the same for both.
 */
export interface UserHookSet {
  /** Every event an entry is added for. */
  events: readonly string[];
  /** What hook.sh is told after `--global`: `Stop` for Claude, `codex/Stop` for Codex. */
  argument(event: string): string;
  /** Seconds; written into the entry. */
  timeout(event: string): number;
  /** Each entry's matcher; none for Codex, whose trust hash counts a matcher. */
  matcher: string | undefined;
  /** Whether pocketmux's statusLine goes in too (Claude only). */
  statusLine: boolean;
}

export const CLAUDE_USER_HOOKS: UserHookSet = {
  events: HOOK_EVENT_NAMES,
  argument: (event) => event,
  timeout: (event) => (event === 'PermissionRequest' ? PERMISSION_HOOK_TIMEOUT_S : EVENT_HOOK_TIMEOUT_S),
  matcher: '',
  statusLine: true,
};

export function globalStatusLineCommand(scriptPath: string): string {
  return globalHookCommand(scriptPath, 'statusline');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOurHook(hook: unknown, scriptPath: string): boolean {
  return isObject(hook) && hook.type === 'command' && typeof hook.command === 'string' && hook.command.startsWith(`${shellQuote(scriptPath)} ${GLOBAL_FLAG} `);
}

function isOurStatusLine(value: unknown, scriptPath: string): boolean {
  return isObject(value) && value.type === 'command' && value.command === globalStatusLineCommand(scriptPath);
}

/** How the file was written, kept when it is written back. */
export interface Layout {
  indent: string;
  finalNewline: boolean;
}

export interface ParsedSettings {
  /** null: there was no file. */
  settings: Json;
  layout: Layout;
}

/**
 * Reads settings.json text (null: no file). What cannot be merged into without guessing is
 * refused: text that is not JSON, a top level or `hooks` that is not an object, an event whose
 * value is not an array.
 */
export function parseUserSettings(text: string | null, path = 'settings.json'): ParsedSettings {
  if (text === null || text.trim() === '') return { settings: {}, layout: { indent: '  ', finalNewline: true } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UserHooksError(`${path} is not valid JSON (${(err as Error).message}): fix it first; nothing was changed`);
  }
  if (!isObject(value)) throw new UserHooksError(`${path} does not hold a JSON object: fix it first; nothing was changed`);
  if (value.hooks !== undefined) {
    if (!isObject(value.hooks)) throw new UserHooksError(`"hooks" in ${path} is not an object: fix it first; nothing was changed`);
    for (const [event, entries] of Object.entries(value.hooks)) {
      if (!Array.isArray(entries)) throw new UserHooksError(`"hooks.${event}" in ${path} is not a list: fix it first; nothing was changed`);
    }
  }
  const indent = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? (/^\{\s*\}/.test(text.trim()) ? '  ' : '');
  return { settings: value, layout: { indent, finalNewline: text.endsWith('\n') } };
}

export function formatUserSettings(settings: Json, layout: Layout): string {
  return `${JSON.stringify(settings, null, layout.indent)}${layout.finalNewline ? '\n' : ''}`;
}

/** Ours (this data dir's), another data dir's pocketmux's, the person's own, or none. */
export type StatusLineState = 'ours' | 'other-pocketmux' | 'theirs' | 'none';

export interface UserHooksState {
  /** Events whose hooks hold our entry. */
  installed: string[];
  /** Events that should and do not. */
  missing: string[];
  statusLine: StatusLineState;
}

function statusLineState(settings: Json, scriptPath: string): StatusLineState {
  if (settings.statusLine === undefined) return 'none';
  if (isOurStatusLine(settings.statusLine, scriptPath)) return 'ours';
  const line = settings.statusLine;
  return isObject(line) && line.type === 'command' && typeof line.command === 'string' && isPocketmuxStatusLine(line.command) ? 'other-pocketmux' : 'theirs';
}

/** Where our entry for `event` stands in its list (-1: none). */
export function ourEntryIndex(entries: unknown, scriptPath: string, event: string, set: UserHookSet = CLAUDE_USER_HOOKS): number {
  if (!Array.isArray(entries)) return -1;
  const command = globalHookCommand(scriptPath, set.argument(event));
  return entries.findIndex((e) => isObject(e) && Array.isArray(e.hooks) && e.hooks.some((h) => isObject(h) && h.type === 'command' && h.command === command));
}

function hasOurEntry(entries: unknown, scriptPath: string, event: string, set: UserHookSet): boolean {
  return ourEntryIndex(entries, scriptPath, event, set) >= 0;
}

export function userHooksState(settings: Json, scriptPath: string, set: UserHookSet = CLAUDE_USER_HOOKS): UserHooksState {
  const hooks = isObject(settings.hooks) ? settings.hooks : {};
  const installed = set.events.filter((e) => hasOurEntry(hooks[e], scriptPath, e, set));
  return { installed, missing: set.events.filter((e) => !installed.includes(e)), statusLine: set.statusLine ? statusLineState(settings, scriptPath) : 'none' };
}

export interface MergeResult {
  settings: Json;
  /** Events that got our entry now. */
  added: string[];
  /** What became of the statusLine: set now, ours already, another's (a person's, a data dir's) left alone, or none in this set. */
  statusLine: 'added' | 'ours' | 'theirs' | 'other-pocketmux' | 'none';
  changed: boolean;
}

/** The settings with our entry appended to every event that lacks it. The input is not changed. */
export function mergeUserHooks(settings: Json, scriptPath: string, set: UserHookSet = CLAUDE_USER_HOOKS): MergeResult {
  const out: Json = structuredClone(settings);
  const hooks: Json = isObject(out.hooks) ? out.hooks : {};
  const added: string[] = [];
  for (const event of set.events) {
    if (hasOurEntry(hooks[event], scriptPath, event, set)) continue;
    const entries = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const hook = { type: 'command', command: globalHookCommand(scriptPath, set.argument(event)), timeout: set.timeout(event) };
    entries.push(set.matcher === undefined ? { hooks: [hook] } : { matcher: set.matcher, hooks: [hook] });
    hooks[event] = entries;
    added.push(event);
  }
  if (added.length > 0) out.hooks = hooks;
  if (!set.statusLine) return { settings: out, added, statusLine: 'none', changed: added.length > 0 };
  const before = statusLineState(settings, scriptPath);
  if (before === 'none') out.statusLine = { type: 'command', command: globalStatusLineCommand(scriptPath) };
  const statusLine = before === 'none' ? 'added' : before;
  return { settings: out, added, statusLine, changed: added.length > 0 || statusLine === 'added' };
}

export interface UnmergeResult {
  settings: Json;
  /** Events one of our entries was removed from. */
  removed: string[];
  statusLineRemoved: boolean;
  changed: boolean;
}

/**
 * The settings without anything install added: our hooks (an entry left with no hooks goes
 * with them), an event left with no entries, `hooks` left empty, and our statusLine. Every
 * other entry, key and order stays.
 */
export function unmergeUserHooks(settings: Json, scriptPath: string): UnmergeResult {
  const out: Json = structuredClone(settings);
  const removed: string[] = [];
  if (isObject(out.hooks)) {
    const hooks = out.hooks;
    for (const [event, entries] of Object.entries(hooks)) {
      if (!Array.isArray(entries)) continue;
      let touched = false;
      const kept = entries.flatMap((entry) => {
        if (!isObject(entry) || !Array.isArray(entry.hooks) || !entry.hooks.some((h) => isOurHook(h, scriptPath))) return [entry];
        touched = true;
        const rest = entry.hooks.filter((h) => !isOurHook(h, scriptPath));
        return rest.length > 0 ? [{ ...entry, hooks: rest }] : [];
      });
      if (!touched) continue;
      removed.push(event);
      if (kept.length > 0) hooks[event] = kept;
      else delete hooks[event];
    }
    if (removed.length > 0 && Object.keys(hooks).length === 0) delete out.hooks;
  }
  const statusLineRemoved = isOurStatusLine(out.statusLine, scriptPath);
  if (statusLineRemoved) delete out.statusLine;
  return { settings: out, removed, statusLineRemoved, changed: removed.length > 0 || statusLineRemoved };
}
