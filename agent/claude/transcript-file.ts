import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Logger } from '../util/log.js';

export type TranscriptFile =
  | { kind: 'open'; handle: FileHandle; stat: Stats }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string };

export type TranscriptOpener = (path: string) => Promise<TranscriptFile>;

/** Where Claude Code writes transcripts: `<config dir>/projects/<project>/<session>.jsonl`. */
export function projectsDir(claudeConfigDir: string): string {
  return join(claudeConfigDir, 'projects');
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function kindOf(stat: Stats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a directory';
  return 'not a regular file';
}

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

/**
 * Opens a transcript for reading. Its path comes from a hook payload, so it is taken only if
 * it names a regular file (not a symbolic link, FIFO, device, socket or directory) inside
 * `root` (Claude's projects folder), reached through no symbolic link leading out of it.
 * A FIFO or a device could block a read forever or never end; any other file is not a
 * transcript. The file is opened without following links and without blocking, then
 * checked again: a swap after the first look is caught.
 */
export async function openTranscript(path: string, root: string): Promise<TranscriptFile> {
  if (path.includes('\0')) return { kind: 'refused', reason: 'the path holds a NUL byte' };
  if (!isAbsolute(path)) return { kind: 'refused', reason: 'not an absolute path' };
  const file = resolve(path);
  if (!within(resolve(root), file) || file === resolve(root)) return { kind: 'refused', reason: `outside ${root}` };
  let before: Stats;
  try {
    const [realRoot, realParent] = await Promise.all([realpath(root), realpath(dirname(file))]);
    if (!within(realRoot, realParent)) return { kind: 'refused', reason: `reached through a symbolic link that leads outside ${root}` };
    before = await lstat(file);
  } catch (err) {
    if (isMissing(err)) return { kind: 'missing' };
    throw err;
  }
  if (!before.isFile()) return { kind: 'refused', reason: kindOf(before) };
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    if (isMissing(err)) return { kind: 'missing' };
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') return { kind: 'refused', reason: 'a symbolic link' };
    throw err;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return { kind: 'refused', reason: kindOf(stat) };
    }
    if (stat.dev !== before.dev || stat.ino !== before.ino) {
      await handle.close();
      return { kind: 'missing' };
    }
    return { kind: 'open', handle, stat };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/** Refused paths remembered so each is logged once; past this many the memory starts over. */
const REMEMBERED_REFUSALS = 1000;
/** A hook body may hold a path of megabytes; the log gets its start. */
const MAX_LOGGED_PATH = 1024;

/**
 * The opener the agent reads transcripts with: inside Claude's projects folder only, and a
 * refused path is logged once, not at every poll.
 */
export function transcriptOpener(claudeConfigDir: string, log: Logger): TranscriptOpener {
  return openerWithin(projectsDir(claudeConfigDir), log);
}

/** The same for any agent CLI's folder of conversation logs (Codex's `sessions`). */
export function openerWithin(root: string, log: Logger): TranscriptOpener {
  const refused = new Set<string>();
  return async (path) => {
    const result = await openTranscript(path, root);
    if (result.kind === 'refused' && !refused.has(path)) {
      if (refused.size >= REMEMBERED_REFUSALS) refused.clear();
      refused.add(path);
      const shown = path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
      log.warn('refused to read a transcript', { path: shown, reason: result.reason });
    }
    return result;
  };
}
