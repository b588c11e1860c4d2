import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { defaultDataDir } from './home.js';
import { BIN_FILE } from './package.js';
import { shellWord } from './shell-words.js';

function realpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * How a person runs this installation: `pocketmux` when the first `pocketmux` on PATH is
 * this same installation (a global install, `npm link`), else this installation's own bin by
 * its absolute path, quoted for a POSIX shell. Never `npx pocketmux`: outside a clone npx asks
 * the registry for that name, and would run whatever is published under it. PATH entries
 * that are a `node_modules/.bin` are skipped: npm puts them there for `npm start` and `npx`,
 * and the person's own shell does not have them.
 */
export function resolveCommandName(path: string | undefined = process.env.PATH, bin: string = BIN_FILE): string {
  const self = realpath(bin);
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir || (basename(dir) === '.bin' && basename(dirname(dir)) === 'node_modules')) continue;
    const candidate = join(dir, 'pocketmux');
    if (!isExecutable(candidate)) continue;
    // The shell runs the first one it finds: another installation there shadows this one.
    if (self !== null && realpath(candidate) === self) return 'pocketmux';
    break;
  }
  const own = self ?? resolve(bin);
  // A bin that lost its executable bit (copied without modes) still runs through node.
  return isExecutable(own) ? shellWord(own) : `node ${shellWord(own)}`;
}

let cached: string | undefined;

/** `pocketmux`, or this installation's bin by its path; see resolveCommandName. */
export function commandName(): string {
  cached ??= resolveCommandName();
  return cached;
}


export interface AdviceContext {
  /** How this installation is run; commandName() unless a test injects it. */
  command?: string;
  home?: string;
}

/**
 * The command line a person pastes to run `pocketmux <rest>` against the agent of `dataDir`:
 * this installation's command, the subcommand, then `--data-dir` when the agent's is not the
 * default (the only thing the CLI needs to find a running agent: its port and token are files
 * there). `rest` is the subcommand as written (`pair`, `tab status ID`); words in it that come
 * from elsewhere are the caller's to quote (shellWords). Every message that names a command
 * is made here, so what it advises runs.
 */
export function advisedCommand(rest: string, dataDir: string, context: AdviceContext = {}): string {
  const dir = resolve(dataDir);
  const flag = dir === defaultDataDir(context.home) ? '' : ` --data-dir ${shellWord(dir)}`;
  return `${context.command ?? commandName()}${rest ? ` ${rest}` : ''}${flag}`;
}
