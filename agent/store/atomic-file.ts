import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { open, rename, unlink } from 'node:fs/promises';
import type { z } from 'zod';
import { safeParse } from '../../protocol/safe-parse.js';

/**
 * Writes `data` to `path` so that a reader (or a crash) sees either the old file or the new
 * one, never a half-written mix: write a temp file beside it, fsync, rename over.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // Already gone.
    }
    throw err;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Closed above on the error path.
    }
  }
  renameSync(tmp, path);
}

/** `<file>.<pid>.<8 hex>.tmp`: a temp file the writers above make beside the file they replace. */
const TEMP_FILE = /\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Deletes the temp files an earlier agent left in `dir` when it was killed between writing one
 * and renaming it over its file; the file itself is whole (old or new). Run once the instance
 * lock is held, so no other agent writes there; this process's own are left alone.
 */
export function removeLeftoverTempFiles(dir: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = TEMP_FILE.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      // Gone already, or not ours to delete: left as it is.
    }
  }
  return removed;
}

export function writeJsonAtomic(path: string, value: unknown, mode = 0o600): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, mode);
}

/**
 * The same guarantee without blocking the event loop: write, fsync and rename run on the
 * thread pool. For files written often on a hot path (the status file).
 */
export async function writeJsonAtomicAsync(path: string, value: unknown, mode = 0o600): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(tmp, 'w', mode);
  try {
    await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await rename(tmp, path);
}

export type ReadJsonResult<T> =
  | { status: 'ok'; value: T }
  | { status: 'missing' }
  /** The file did not parse or failed its schema; it was moved to `setAsideAs`. */
  | { status: 'corrupt'; reason: string; setAsideAs: string };

/**
 * Reads a JSON file through a schema. A file that is not JSON or fails the schema is never
 * silently dropped: it is renamed to `<name>.corrupt-<time>` and reported, so the agent can
 * start afresh while the person can still recover it.
 */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S): ReadJsonResult<z.infer<S>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    throw err;
  }
  let reason: string;
  try {
    const parsed = safeParse(schema, JSON.parse(text));
    if (parsed.success) return { status: 'ok', value: parsed.data };
    reason = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
  } catch (err) {
    reason = `not valid JSON: ${(err as Error).message}`;
  }
  const setAsideAs = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(path, setAsideAs);
  return { status: 'corrupt', reason, setAsideAs };
}
