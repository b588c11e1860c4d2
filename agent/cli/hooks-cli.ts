/**
 * `pocketmux hooks install | uninstall | status [--json]`: pocketmux's hooks in Claude Code's
 * user settings, so a claude started anywhere on this machine (not only in a Claude tab)
 * reports to the agent. The merge itself is `agent/claude/user-hooks.ts`.
 */
import { accessSync, chmodSync, constants, mkdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { visibleJson, visibleLines, visibleText } from '../../protocol/safe-text.js';
import {
  formatUserSettings,
  mergeUserHooks,
  type ParsedSettings,
  parseUserSettings,
  UserHooksError,
  unmergeUserHooks,
  userHooksState,
} from '../claude/user-hooks.js';
import { hookScriptPath, readSettingsFile, type SettingsFile, userSettingsPath } from '../claude/user-hooks-file.js';
import { advisedCommand } from '../config/command-name.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { EXIT } from './remote.js';

export interface HooksCliOptions {
  dataDir: string;
  claudeConfigDir: string;
  json: boolean;
  out?: (text: string) => void;
  err?: (text: string) => void;
  /** For the backup's name. */
  now?: () => Date;
}

/**
 * Where `hooks install` notes the settings file it made (there was none): uninstall removes
 * that file again when nothing but our hooks was ever added to it.
 */
export function createdRecordPath(dataDir: string, name = 'user-settings-created'): string {
  return join(dataDir, 'hooks', name);
}

export function installCreated(record: string, target: string): boolean {
  try {
    return readFileSync(record, 'utf8') === target;
  } catch {
    return false;
  }
}

/** Backs the old file up (0600, beside it), then writes the new one atomically in the old one's mode. */
export function writeSettings(file: SettingsFile, text: string, now: Date): string | null {
  let backup: string | null = null;
  if (file.text !== null) {
    backup = `${file.target}.pocketmux-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
    writeFileAtomic(backup, file.text, 0o600);
    chmodSync(backup, 0o600);
  } else {
    mkdirSync(dirname(file.target), { recursive: true, mode: 0o700 });
  }
  const mode = file.mode ?? 0o600;
  writeFileAtomic(file.target, text, mode);
  // The umask may have narrowed it on creation.
  chmodSync(file.target, mode);
  return backup;
}

/** A `hooks` command under way: what it was asked, where it writes, and the hooks file as read. */
export interface HooksCommand {
  sub: 'install' | 'uninstall' | 'status';
  out: (text: string) => void;
  /** Says why it stops (as JSON too, with --json) and gives the exit code. */
  fail: (message: string, code: number) => number;
  file: SettingsFile;
  parsed: ParsedSettings;
}

/**
 * The start every `hooks` command shares, Claude's and Codex's: the subcommand checked (else
 * `usage` is printed), and the hooks file at `path` read and parsed; a number is the exit code
 * when it cannot go on, having said why.
 */
export function startHooksCommand(
  args: string[],
  opts: { json: boolean; out?: (text: string) => void; err?: (text: string) => void },
  usage: string,
  path: string,
): HooksCommand | number {
  const out = opts.out ?? ((t: string) => process.stdout.write(t));
  const err = opts.err ?? ((t: string) => process.stderr.write(t));
  const sub = args[0];
  if (args.length !== 1 || (sub !== 'install' && sub !== 'uninstall' && sub !== 'status')) {
    err(`usage: ${usage}\n`);
    return EXIT.usage;
  }
  const fail = (message: string, code: number) => {
    if (opts.json) out(`${visibleJson({ error: message })}\n`);
    err(`pocketmux: ${visibleLines(message)}\n`);
    return code;
  };
  try {
    const file = readSettingsFile(path);
    return { sub, out, fail, file, parsed: parseUserSettings(file.text, path) };
  } catch (e) {
    if (e instanceof UserHooksError) return fail(e.message, sub === 'status' ? EXIT.failed : EXIT.usage);
    throw e;
  }
}

/** How far a hooks file holds pocketmux's hooks, in words, with the command that adds what is missing. */
export function installedWords(state: { installed: readonly string[]; missing: readonly string[] }, install: string): string {
  if (state.missing.length === 0) return `installed for every event (${state.installed.length})`;
  if (state.installed.length === 0) return 'not installed';
  return `installed for ${state.installed.length} of ${state.installed.length + state.missing.length} events; missing: ${state.missing.join(', ')} (run ${install})`;
}

export async function runHooks(args: string[], opts: HooksCliOptions): Promise<number> {
  const advise = (rest: string) => advisedCommand(rest, opts.dataDir);
  const path = userSettingsPath(opts.claudeConfigDir);
  const started = startHooksCommand(args, opts, `${advise('hooks install')} | ${advise('hooks uninstall')} | ${advise('hooks status [--json]')}`, path);
  if (typeof started === 'number') return started;
  const { sub, out, fail, file, parsed } = started;
  const script = hookScriptPath(opts.dataDir);

  if (sub === 'status') {
    const state = userHooksState(parsed.settings, script);
    const installed = state.missing.length === 0 ? 'all' : state.installed.length === 0 ? 'none' : 'some';
    if (opts.json) {
      out(`${visibleJson({ installed, settings: path, script, events: state.installed, missing: state.missing, statusLine: state.statusLine }, 2)}\n`);
      return EXIT.ok;
    }
    const what = installedWords(state, advise('hooks install'));
    const statusLine = {
      ours: 'pocketmux reports it',
      'other-pocketmux': "another pocketmux data dir's (left alone)",
      theirs: 'your own (left alone; pocketmux tabs still run it)',
      none: 'none',
    }[state.statusLine];
    out(`pocketmux hooks in Claude's user settings: ${what}\n  settings:   ${visibleText(path)}\n  script:     ${visibleText(script)}\n  statusLine: ${statusLine}\n`);
    return EXIT.ok;
  }

  if (sub === 'install') {
    try {
      accessSync(script, constants.X_OK);
    } catch {
      return fail(`no hook script at ${script}: start the agent first (${advise('start')}), which writes it; nothing was changed`, EXIT.usage);
    }
    const merged = mergeUserHooks(parsed.settings, script);
    const theirs =
      merged.statusLine === 'theirs'
        ? 'Your own statusLine is left as it is; Claude tabs of pocketmux run it as they always have.\n'
        : merged.statusLine === 'other-pocketmux'
          ? "The statusLine is another pocketmux data dir's: left as it is.\n"
          : '';
    if (!merged.changed) {
      if (opts.json) out(`${visibleJson({ changed: false, settings: path, backup: null, added: [], statusLine: merged.statusLine })}\n`);
      else out(`pocketmux hooks are already installed in ${visibleText(path)}: nothing to do.\n${theirs}`);
      return EXIT.ok;
    }
    const backup = writeSettings(file, formatUserSettings(merged.settings, parsed.layout), (opts.now ?? (() => new Date()))());
    if (file.text === null) writeFileAtomic(createdRecordPath(opts.dataDir), file.target, 0o600);
    if (opts.json) {
      out(`${visibleJson({ changed: true, settings: path, backup, added: merged.added, statusLine: merged.statusLine })}\n`);
      return EXIT.ok;
    }
    out(
      `Added pocketmux's hooks for ${merged.added.length} events to ${visibleText(path)}${merged.statusLine === 'added' ? ', and a statusLine' : ''}.\n` +
        (backup ? `  backup: ${visibleText(backup)}\n` : '  (the file was new)\n') +
        theirs +
        'Every claude started from now on reports to the agent, in or out of pocketmux (inside a Claude tab,\n' +
        'the tab\'s own hooks report and these step aside). Claude sessions already running pick them up when restarted.\n' +
        `Remove them with: ${advise('hooks uninstall')}\n`,
    );
    return EXIT.ok;
  }

  const unmerged = unmergeUserHooks(parsed.settings, script);
  if (!unmerged.changed) {
    if (opts.json) out(`${visibleJson({ changed: false, settings: path, backup: null, removed: [], statusLineRemoved: false })}\n`);
    else out(`pocketmux hooks are not installed in ${visibleText(path)}: nothing to do.\n`);
    return EXIT.ok;
  }
  // A file install made, holding nothing else: removed, as if install had never run.
  const removeFile = installCreated(createdRecordPath(opts.dataDir), file.target) && Object.keys(unmerged.settings).length === 0;
  let backup: string | null = null;
  if (removeFile) unlinkSync(file.target);
  else backup = writeSettings(file, formatUserSettings(unmerged.settings, parsed.layout), (opts.now ?? (() => new Date()))());
  // Kept or removed, the file is no longer one install made and nothing else touched.
  rmSync(createdRecordPath(opts.dataDir), { force: true });
  if (opts.json) {
    out(
      `${visibleJson({ changed: true, settings: path, backup, removed: unmerged.removed, statusLineRemoved: unmerged.statusLineRemoved, fileRemoved: removeFile })}\n`,
    );
    return EXIT.ok;
  }
  out(
    `Removed pocketmux's hooks (${unmerged.removed.length} events${unmerged.statusLineRemoved ? ' and the statusLine' : ''}) from ${visibleText(path)}.\n` +
      (removeFile ? '  The file held nothing else, and hooks install had made it: removed too.\n' : `  backup: ${visibleText(backup ?? '')}\n`),
  );
  return EXIT.ok;
}
