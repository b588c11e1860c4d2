/**
 * A file from the phone saved where the session's claude can read it:
 * `<session dir>/.pocketmux/uploads/<yyyymmdd-hhmmss>-<name>`. The body is streamed to a
 * temporary file (0600, in the 0700 folder) and linked to its name only once complete, so a
 * name never shows half a file and is never overwritten; nothing is left behind when the
 * body is too large, stalls or is cut. Neither folder may be a symbolic link.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, type FileHandle, link, lstat, mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { UploadResponse } from '../../protocol/api.js';
import { uploadFileName, uploadStamp } from './upload-name.js';
import { Slots } from '../util/slots.js';

export const UPLOAD_FOLDER = '.pocketmux';
export const UPLOAD_SUBFOLDER = 'uploads';
/** Uploads received at once, in the whole agent. */
export const MAX_CONCURRENT_UPLOADS = 4;
/** A body that sends nothing for this long is cut. */
export const UPLOAD_IDLE_MS = 30_000;
/** Names tried (`-2`, `-3`, …) before giving up. */
const MAX_ATTEMPTS = 1000;

/** Why an upload was refused, with the HTTP status it gets. */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The body passed its limit: the route answers 413 and stops reading. */
export class UploadTooLargeError extends UploadError {
  constructor(limit: number) {
    super(413, `the file is larger than ${limit} bytes`);
  }
}

/** The client went away, or sent nothing for too long: there is no one left to answer. */
export class UploadAbortedError extends Error {}

/** The agent's slots: shared by tab and outside-session uploads. */
export const uploadSlots = new Slots(MAX_CONCURRENT_UPLOADS);

const ownUid = process.getuid?.();

/** A folder the agent made or owns, that is no symbolic link; made (0700) when missing. */
async function ownFolder(path: string, label: string, made?: () => Promise<void>): Promise<void> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    try {
      await mkdir(path, { mode: 0o700 });
      await made?.();
    } catch (mkdirErr) {
      if ((mkdirErr as NodeJS.ErrnoException).code !== 'EEXIST') throw mkdirErr;
    }
    info = await lstat(path);
  }
  if (info.isSymbolicLink()) throw new UploadError(409, `refusing to save: ${label} is a symbolic link`);
  if (!info.isDirectory()) throw new UploadError(409, `refusing to save: ${label} is not a folder`);
  if (ownUid !== undefined && info.uid !== ownUid) throw new UploadError(409, `refusing to save: ${label} belongs to another user`);
  if ((info.mode & 0o077) !== 0) await chmod(path, 0o700);
}

/**
 * `<sessionDir>/.pocketmux/uploads`, made when missing (with a `.gitignore` that keeps it out
 * of the project's git status); its real path, checked to be where it should be.
 */
export async function uploadFolder(sessionDir: string): Promise<string> {
  let realSession: string;
  try {
    realSession = await realpath(sessionDir);
    if (!(await stat(realSession)).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new UploadError(409, 'the session directory no longer exists');
  }
  const top = join(realSession, UPLOAD_FOLDER);
  const folder = join(top, UPLOAD_SUBFOLDER);
  try {
    await ownFolder(top, UPLOAD_FOLDER, async () => {
      const ignore = await open(join(top, '.gitignore'), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      await ignore.writeFile('*\n').finally(() => ignore.close());
    });
    await ownFolder(folder, `${UPLOAD_FOLDER}/${UPLOAD_SUBFOLDER}`);
    if ((await realpath(folder)) !== folder) throw new UploadError(409, `refusing to save: ${UPLOAD_FOLDER}/${UPLOAD_SUBFOLDER} leads elsewhere`);
  } catch (err) {
    throw asUploadError(err);
  }
  return folder;
}

/** File system failures a person can act on, as statuses; anything else stays as it is. */
function asUploadError(err: unknown): unknown {
  if (err instanceof UploadError || err instanceof UploadAbortedError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new UploadError(507, 'no space left on the device of the session directory');
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new UploadError(409, 'the session directory cannot be written to');
  return err;
}

async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let done = 0;
  while (done < chunk.length) done += (await handle.write(chunk, done, chunk.length - done)).bytesWritten;
}

/**
 * Writes the body into the file as it comes, one chunk at a time (the body waits meanwhile),
 * and resolves with its size once it ended. Rejects with UploadTooLargeError past `maxBytes`
 * (the body is then neither read further nor ended), UploadAbortedError when the client goes
 * away or sends nothing for `idleMs`.
 */
export function streamToFile(body: Readable, handle: FileHandle, maxBytes: number, idleMs: number = UPLOAD_IDLE_MS): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let settled = false;
    let writing: Promise<void> = Promise.resolve();
    let timer: NodeJS.Timeout;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        finish(new UploadAbortedError('the upload stalled'));
        body.destroy();
      }, idleMs);
    };
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('close', onClose);
      if (err) reject(err);
      else resolve(bytes);
    };
    const onData = (chunk: Buffer) => {
      arm();
      bytes += chunk.length;
      if (bytes > maxBytes) {
        body.pause();
        finish(new UploadTooLargeError(maxBytes));
        return;
      }
      body.pause();
      writing = writing.then(() => writeAll(handle, chunk));
      writing.then(
        () => {
          if (!settled) body.resume();
        },
        (err: Error) => finish(err),
      );
    };
    const onEnd = () => {
      writing.then(
        () => finish(null),
        (err: Error) => finish(err),
      );
    };
    const onClose = () => {
      // `close` follows `end` once a body was read to its end; before it, the client left.
      if (!body.readableEnded) finish(new UploadAbortedError('the client went away'));
    };
    // A body cut by the client emits an error; without a listener it would end the agent.
    body.on('error', () => undefined);
    if (body.destroyed && !body.readableEnded) {
      finish(new UploadAbortedError('the client went away'));
      return;
    }
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('close', onClose);
    arm();
  });
}

/**
 * Reads what is left of a refused body and throws it away, so the client, still sending, gets
 * the answer instead of a reset connection: true once it ended. False, and nothing more is
 * read, past `limit` further bytes or `idleMs` of silence; the caller then cuts the connection.
 */
export function discardBody(body: Readable, limit: number, idleMs: number = UPLOAD_IDLE_MS): Promise<boolean> {
  if (body.readableEnded || body.destroyed) return Promise.resolve(body.readableEnded);
  return new Promise((resolve) => {
    let seen = 0;
    let timer: NodeJS.Timeout;
    const done = (ended: boolean) => {
      clearTimeout(timer);
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('close', onClose);
      if (!ended) body.pause();
      resolve(ended);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => done(false), idleMs);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) done(false);
      else arm();
    };
    const onEnd = () => done(true);
    const onClose = () => done(body.readableEnded);
    body.on('error', () => undefined);
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('close', onClose);
    arm();
    body.resume();
  });
}

/**
 * Gives the complete temporary file its name, the first of `<stamp>-<name>`, `-2`, `-3`, … not
 * taken: a hard link fails on a taken name instead of replacing it. Where a file system has no
 * hard links, a rename after a look.
 */
async function nameFile(temp: string, folder: string, stamp: string, name: string): Promise<string> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const candidate = uploadFileName(stamp, name, attempt);
    const target = join(folder, candidate);
    try {
      await link(temp, target);
      await unlink(temp);
      return candidate;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV' && code !== 'EMLINK') throw err;
      const taken = await lstat(target).then(
        () => true,
        () => false,
      );
      if (taken) continue;
      await rename(temp, target);
      return candidate;
    }
  }
  throw new UploadError(409, `too many uploads named ${name} this second`);
}

export interface SaveUploadOptions {
  sessionDir: string;
  /** Already sanitised (upload-name.ts). */
  name: string;
  maxBytes: number;
  idleMs?: number;
  now?: Date;
}

/** Saves the body in the session's upload folder; what the response says of it. */
export async function saveUpload(body: Readable, opts: SaveUploadOptions): Promise<UploadResponse> {
  const folder = await uploadFolder(opts.sessionDir);
  const temp = join(folder, `.incoming-${randomBytes(8).toString('hex')}`);
  let handle: FileHandle | null = null;
  let named = false;
  try {
    handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    const bytes = await streamToFile(body, handle, opts.maxBytes, opts.idleMs);
    await handle.sync();
    await handle.close();
    handle = null;
    const file = await nameFile(temp, folder, uploadStamp(opts.now ?? new Date()), opts.name);
    named = true;
    const relativePath = `${UPLOAD_FOLDER}/${UPLOAD_SUBFOLDER}/${file}`;
    return { path: join(opts.sessionDir, relativePath), relativePath, bytes };
  } catch (err) {
    throw asUploadError(err);
  } finally {
    await handle?.close().catch(() => undefined);
    if (!named) await unlink(temp).catch(() => undefined);
  }
}
