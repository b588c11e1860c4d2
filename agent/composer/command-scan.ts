/**
 * A session's slash commands: the built-in ones, the project's `<dir>/.claude/commands/` and
 * the user's `<CLAUDE_CONFIG_DIR>/commands/`. The folders are read with bounds (entries, depth,
 * bytes per file), never through a symbolic link leading out of the folder, and a file is
 * opened so that a FIFO or a device cannot hold the agent.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { SlashCommandView } from '../../protocol/api.js';
import { readRegularFile } from '../util/regular-file.js';
import { BUILTIN_COMMANDS } from './builtin-commands.js';
import { COMMAND_LIMITS, type CommandFile, commandName, commandsFrom, mergeCommands } from './command-files.js';

type Limits = Pick<typeof COMMAND_LIMITS, 'entries' | 'depth' | 'fileBytes'>;

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** At most `limit` bytes from the start of a regular file; null for anything else. */
async function readHead(path: string, limit: number): Promise<string | null> {
  try {
    return (await readRegularFile(path, { maxBytes: limit, noFollow: true, beyond: 'cut' })).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * The `.md` files under a commands folder whose names make a command, with their first bytes.
 * A missing folder has none. Symbolic links are followed only to what lies inside the folder.
 */
export async function readCommandFiles(root: string, limits: Limits = COMMAND_LIMITS): Promise<CommandFile[]> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
    if (!(await stat(realRoot)).isDirectory()) return [];
  } catch {
    return [];
  }
  const files: CommandFile[] = [];
  const visited = new Set<string>([realRoot]);
  const pending: { dir: string; rel: string[] }[] = [{ dir: realRoot, rel: [] }];
  let looked = 0;
  while (pending.length > 0 && looked < limits.entries) {
    const { dir, rel } = pending.shift() as { dir: string; rel: string[] };
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (looked >= limits.entries) break;
      looked++;
      if (entry.name.startsWith('.')) continue;
      let path = join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          path = await realpath(path);
          if (!inside(realRoot, path)) continue;
          const info = await stat(path);
          isDir = info.isDirectory();
          isFile = info.isFile();
        } catch {
          continue;
        }
      }
      const relPath = [...rel, entry.name];
      if (isDir) {
        if (relPath.length <= limits.depth && !visited.has(path)) {
          visited.add(path);
          pending.push({ dir: path, rel: relPath });
        }
      } else if (isFile && commandName(relPath.join('/')) !== null) {
        const content = await readHead(path, limits.fileBytes);
        if (content !== null) files.push({ relativePath: relPath.join('/'), content });
      }
    }
  }
  return files;
}

async function sameFolder(a: string, b: string): Promise<boolean> {
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return false;
  }
}

/**
 * Every slash command a claude started in `sessionDir` offers: the project's, the user's, the
 * built-in ones. A session in the home directory has no project commands apart from the
 * user's (its `.claude/commands` is the user's folder).
 */
export async function slashCommands(opts: { sessionDir: string | null; claudeConfigDir: string }): Promise<SlashCommandView[]> {
  const userRoot = join(opts.claudeConfigDir, 'commands');
  const projectRoot = opts.sessionDir === null ? null : join(opts.sessionDir, '.claude', 'commands');
  const [project, user] = await Promise.all([
    projectRoot === null || (await sameFolder(projectRoot, userRoot)) ? [] : readCommandFiles(projectRoot),
    readCommandFiles(userRoot),
  ]);
  const builtin: SlashCommandView[] = BUILTIN_COMMANDS.map((c) => ({ name: c.name, description: c.description, source: 'builtin' }));
  return mergeCommands(commandsFrom(project, 'project'), commandsFrom(user, 'user'), builtin);
}
