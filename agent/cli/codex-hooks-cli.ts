/**
 * `pocketmux hooks install | uninstall | status --codex`: pocketmux's hooks in Codex's user hooks
 * file (`$CODEX_HOME/hooks.json`), trusted, so a codex started anywhere on this machine reports
 * to the agent. The merge is Claude's (`claude/user-hooks.ts`) with Codex's hook set
 * (`codex/user-hooks.ts`); Codex itself writes the trust into its config.toml
 * (`codex/app-server.ts`), for exactly the hooks added here.
 */
import { accessSync, constants, rmSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { visibleJson, visibleText } from '../../protocol/safe-text.js';
import { formatUserSettings, mergeUserHooks, unmergeUserHooks, userHooksState } from '../claude/user-hooks.js';
import { hookScriptPath, } from '../claude/user-hooks-file.js';
import { type CodexAppServer, CodexAppServerError, codexHookTrust, openCodexAppServer, trustCodexHooks, untrustCodexHooks } from '../codex/app-server.js';
import { CODEX_USER_HOOKS, type CodexTrust, codexTrustOf } from '../codex/user-hooks.js';
import { advisedCommand } from '../config/command-name.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { createdRecordPath, installCreated, installedWords, startHooksCommand, writeSettings } from './hooks-cli.js';
import { EXIT } from './remote.js';

export interface CodexHooksCliOptions {
  dataDir: string;
  /** Codex's home (`CODEX_HOME`, else ~/.codex). */
  codexHome: string;
  /** The codex command, which writes its own config. */
  codexBin: string;
  /** What codex runs with: its CODEX_HOME set to `codexHome`. */
  env: NodeJS.ProcessEnv;
  json: boolean;
  out?: (text: string) => void;
  err?: (text: string) => void;
  now?: () => Date;
}

const CREATED_RECORD = 'codex-hooks-created';

export function codexHooksPath(codexHome: string): string {
  return join(codexHome, 'hooks.json');
}

/** One conversation with the codex of `opts`, closed after `talk`. */
async function withCodex<T>(opts: CodexHooksCliOptions, talk: (server: CodexAppServer) => Promise<T>): Promise<T> {
  const server = await openCodexAppServer(opts.codexBin, { ...opts.env, CODEX_HOME: opts.codexHome }, dirname(opts.codexHome));
  try {
    return await talk(server);
  } finally {
    await server.close();
  }
}

/** Of `trust`, the hooks Codex does not trust now. */
async function untrustedOf(server: CodexAppServer, trust: CodexTrust[]): Promise<CodexTrust[]> {
  const known = await codexHookTrust(server);
  return trust.filter((t) => known.get(t.key)?.trusted !== true);
}

/** Asks codex to trust `trust`, then whether it does: the keys it still does not trust. */
function trustAndCheck(opts: CodexHooksCliOptions, trust: CodexTrust[]): Promise<string[]> {
  return withCodex(opts, async (server) => {
    await trustCodexHooks(server, await untrustedOf(server, trust));
    return (await untrustedOf(server, trust)).map((t) => t.key);
  });
}

export async function runCodexHooks(args: string[], opts: CodexHooksCliOptions): Promise<number> {
  const advise = (rest: string) => advisedCommand(rest, opts.dataDir);
  const path = codexHooksPath(opts.codexHome);
  const started = startHooksCommand(args, opts, `${advise('hooks install --codex')} | ${advise('hooks uninstall --codex')} | ${advise('hooks status --codex [--json]')}`, path);
  if (typeof started === 'number') return started;
  const { sub, out, fail, file, parsed } = started;
  const script = hookScriptPath(opts.dataDir);
  const record = createdRecordPath(opts.dataDir, CREATED_RECORD);
  const cannotAsk = (e: unknown) => e instanceof CodexAppServerError;

  if (sub === 'status') {
    const state = userHooksState(parsed.settings, script, CODEX_USER_HOOKS);
    const installed = state.missing.length === 0 ? 'all' : state.installed.length === 0 ? 'none' : 'some';
    const trust = codexTrustOf(parsed.settings, path, script);
    let untrusted: string[] | null = null;
    let trustError: string | null = null;
    if (trust.length > 0) {
      try {
        untrusted = (await withCodex(opts, (server) => untrustedOf(server, trust))).map((t) => t.event);
      } catch (e) {
        if (!cannotAsk(e)) throw e;
        trustError = (e as Error).message;
      }
    }
    if (opts.json) {
      out(`${visibleJson({ installed, hooksFile: path, script, events: state.installed, missing: state.missing, untrusted, trustError }, 2)}\n`);
      return EXIT.ok;
    }
    const what = installedWords(state, advise('hooks install --codex'));
    const trusted =
      trust.length === 0
        ? ''
        : trustError !== null
          ? `  trusted:    could not ask codex (${visibleText(trustError)})\n`
          : untrusted && untrusted.length > 0
            ? `  trusted:    not for ${untrusted.join(', ')}: Codex will not run those (run ${advise('hooks install --codex')})\n`
            : '  trusted:    yes, by Codex\n';
    out(`pocketmux hooks in Codex's hooks file: ${what}\n  hooks file: ${visibleText(path)}\n  script:     ${visibleText(script)}\n${trusted}`);
    return EXIT.ok;
  }

  if (sub === 'install') {
    try {
      accessSync(script, constants.X_OK);
    } catch {
      return fail(`no hook script at ${script}: start the agent first (${advise('start')}), which writes it; nothing was changed`, EXIT.usage);
    }
    const merged = mergeUserHooks(parsed.settings, script, CODEX_USER_HOOKS);
    let backup: string | null = null;
    if (merged.changed) {
      backup = writeSettings(file, formatUserSettings(merged.settings, parsed.layout), (opts.now ?? (() => new Date()))());
      if (file.text === null) writeFileAtomic(record, file.target, 0o600);
    }
    // Trusted whether or not the file changed: an entry moved (the person's own added above
    // ours) has a new key, and needs its trust again.
    const trust = codexTrustOf(merged.settings, path, script);
    let untrusted: string[];
    try {
      untrusted = await trustAndCheck(opts, trust);
    } catch (e) {
      if (!cannotAsk(e)) throw e;
      return fail(
        `${merged.changed ? `added pocketmux's hooks to ${path}, but` : 'the hooks are in place, but'} Codex could not be asked to trust them (${(e as Error).message}); until it does, codex will not run them. Run ${advise('hooks install --codex')} again once \`${opts.codexBin}\` runs here (or --codex-bin)`,
        EXIT.failed,
      );
    }
    if (untrusted.length > 0) return fail(`Codex still does not trust ${untrusted.length} of pocketmux's hooks (${untrusted.join(', ')}); it will not run them`, EXIT.failed);
    if (opts.json) {
      out(`${visibleJson({ changed: merged.changed, hooksFile: path, backup, added: merged.added, trusted: trust.map((t) => t.event) })}\n`);
      return EXIT.ok;
    }
    if (!merged.changed) {
      out(`pocketmux hooks are already installed in ${visibleText(path)}, trusted by Codex: nothing to do.\n`);
      return EXIT.ok;
    }
    out(
      `Added pocketmux's hooks for ${merged.added.length} Codex events to ${visibleText(path)}, and Codex trusts them.\n` +
        (backup ? `  backup: ${visibleText(backup)}\n` : '  (the file was new)\n') +
        'Every codex started from now on reports to the agent, in or out of pocketmux (inside a Codex tab, the\n' +
        "tab's own hooks report and these step aside). Codex sessions already running pick them up when restarted.\n" +
        `Remove them with: ${advise('hooks uninstall --codex')}\n`,
    );
    return EXIT.ok;
  }

  const before = codexTrustOf(parsed.settings, path, script);
  const unmerged = unmergeUserHooks(parsed.settings, script);
  if (!unmerged.changed) {
    if (opts.json) out(`${visibleJson({ changed: false, hooksFile: path, backup: null, removed: [] })}\n`);
    else out(`pocketmux hooks are not installed in ${visibleText(path)}: nothing to do.\n`);
    return EXIT.ok;
  }
  const removeFile = installCreated(record, file.target) && Object.keys(unmerged.settings).length === 0;
  let backup: string | null = null;
  if (removeFile) unlinkSync(file.target);
  else backup = writeSettings(file, formatUserSettings(unmerged.settings, parsed.layout), (opts.now ?? (() => new Date()))());
  rmSync(record, { force: true });
  // Their trust goes too; a hook that is gone runs nothing, so a codex that cannot be asked only leaves notes in its config.
  let trustLeft = before.map((t) => t.key);
  try {
    trustLeft = await withCodex(opts, (server) => untrustCodexHooks(server, trustLeft));
  } catch (e) {
    if (!cannotAsk(e)) throw e;
  }
  if (opts.json) {
    out(`${visibleJson({ changed: true, hooksFile: path, backup, removed: unmerged.removed, fileRemoved: removeFile, trustLeft })}\n`);
    return EXIT.ok;
  }
  out(
    `Removed pocketmux's hooks (${unmerged.removed.length} Codex events) from ${visibleText(path)}.\n` +
      (removeFile ? '  The file held nothing else, and hooks install had made it: removed too.\n' : `  backup: ${visibleText(backup ?? '')}\n`) +
      (trustLeft.length > 0 ? `  Their trust entries stay in Codex's config.toml (${trustLeft.length}); they run nothing.\n` : ''),
  );
  return EXIT.ok;
}
