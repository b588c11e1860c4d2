/**
 * A file of a session's directory, read for the review's file view: confined to the directory
 * (or the repository's top), symlinks resolved and held to it, git's own folder never served,
 * bounded in size, and a binary file refused with its size.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { CHANGES_LIMITS } from '../../protocol/changes.js';
import { FileRefusedError, readRegularFile } from '../util/regular-file.js';
import { ChangesUnavailable } from './git.js';

export interface SessionFile {
  path: string;
  /** The file's size on disk, in bytes. */
  size: number;
  /** Null for a binary file, which is not sent. */
  text: string | null;
  /** True when the file is larger than `CHANGES_LIMITS.fileBytes` and only its start was read. */
  truncated: boolean;
}

/** How many bytes of a file are looked at for a NUL, which makes it binary (as git decides). */
const BINARY_SNIFF_BYTES = 8000;

/**
 * `path`, relative to `root`, read. Refused (ChangesUnavailable, with the reason in words): an
 * absolute path, one that leads out of `root` (through `..` or a symlink), one inside a `.git`
 * folder, anything but a regular file.
 */
export async function readSessionFile(root: string, path: string): Promise<SessionFile> {
  if (path === '' || isAbsolute(path) || path.includes('\0')) throw new ChangesUnavailable('not a path inside the session\u2019s directory');
  if (path.split(/[\\/]/).some((part) => part === '.git')) throw new ChangesUnavailable('git\u2019s own files are not shown');
  let top: string;
  let real: string;
  try {
    top = await realpath(root);
    real = await realpath(join(top, path));
  } catch {
    throw new ChangesUnavailable(`${JSON.stringify(path)} is not there`);
  }
  const inside = relative(top, real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) throw new ChangesUnavailable(`${JSON.stringify(path)} leads out of the session\u2019s directory`);
  if (inside.split(sep).includes('.git')) throw new ChangesUnavailable('git\u2019s own files are not shown');
  let size: number;
  let bytes: Buffer;
  try {
    size = (await stat(real)).size;
    bytes = await readRegularFile(real, { maxBytes: CHANGES_LIMITS.fileBytes, beyond: 'cut' });
  } catch (err) {
    if (err instanceof FileRefusedError) throw new ChangesUnavailable(`${JSON.stringify(path)} is not a file that can be shown: ${err.reason}`);
    throw new ChangesUnavailable(`${JSON.stringify(path)} could not be read`);
  }
  const truncated = size > CHANGES_LIMITS.fileBytes;
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { path, size, text: null, truncated };
  // A cut in the middle of a character is left out, not shown as a replacement mark.
  let text = bytes.toString('utf8');
  if (truncated && text.endsWith('\ufffd')) text = text.replace(/\ufffd+$/, '');
  return { path, size, text, truncated };
}
