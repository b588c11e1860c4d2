import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';

/**
 * Files a person or Claude controls (Claude's settings and session files, slash command files,
 * a certificate), read so that they cannot hold or swamp the process: a FIFO blocks an ordinary
 * open or read for ever, a device never ends. The path is looked at first (a device is never
 * opened), opened without blocking, then checked again through the open descriptor, so a swap
 * in between is caught; at most `maxBytes` (and one more, to tell) are read. Anything but a
 * regular file, and a file past the bound, throws FileRefusedError naming the path and why;
 * other errors (ENOENT, EACCES) are thrown as they come.
 */

/** A file that was not read, and why: it is not a regular file, or it is larger than allowed. */
export class FileRefusedError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`refusing to read ${path}: ${reason}`);
  }
}

export interface RegularFileOptions {
  /** The most bytes read. */
  maxBytes: number;
  /** A symbolic link is refused (default: followed, then what it leads to is checked). */
  noFollow?: boolean;
  /** Past `maxBytes`: `refuse` the file (default), or `cut` it there and keep its start. */
  beyond?: 'refuse' | 'cut';
}

/** Most files read this way are a few KB; larger ones come in pieces of this size. */
const READ_CHUNK = 64 * 1024;

function kindOf(stat: Stats): string {
  if (stat.isSymbolicLink()) return 'it is a symbolic link';
  if (stat.isFIFO()) return 'it is a FIFO, not a regular file';
  if (stat.isSocket()) return 'it is a socket, not a regular file';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'it is a device, not a regular file';
  if (stat.isDirectory()) return 'it is a directory, not a regular file';
  return 'it is not a regular file';
}

function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function assertRegular(path: string, stat: Stats): void {
  if (!stat.isFile()) throw new FileRefusedError(path, kindOf(stat));
}

function openFlags(options: RegularFileOptions): number {
  return constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0);
}

function openError(path: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return new FileRefusedError(path, 'it is a symbolic link');
  // A socket (or a device with nothing behind it) put there since the look.
  if (code === 'ENXIO') return new FileRefusedError(path, 'it is not a regular file');
  return err;
}

/** What was read, or the refusal: up to one byte past the bound tells a file that grew since fstat. */
class Gathered {
  private readonly chunks: Buffer[] = [];
  total = 0;

  constructor(
    private readonly path: string,
    private readonly options: RegularFileOptions,
  ) {}

  private get refuses(): boolean {
    return (this.options.beyond ?? 'refuse') === 'refuse';
  }

  private tooLarge(): FileRefusedError {
    return new FileRefusedError(this.path, `it is larger than ${sizeText(this.options.maxBytes)}`);
  }

  checkSize(size: number): void {
    if (this.refuses && size > this.options.maxBytes) throw this.tooLarge();
  }

  /** The next buffer to read into, or null once past the bound. */
  next(): Buffer | null {
    return this.total <= this.options.maxBytes ? Buffer.alloc(Math.min(READ_CHUNK, this.options.maxBytes + 1 - this.total)) : null;
  }

  add(chunk: Buffer, read: number): void {
    this.chunks.push(chunk.subarray(0, read));
    this.total += read;
  }

  result(): Buffer {
    if (this.total > this.options.maxBytes && this.refuses) throw this.tooLarge();
    return Buffer.concat(this.chunks, Math.min(this.total, this.options.maxBytes));
  }
}

/** For code that reads synchronously already (settings at start, the CLI, session files). */
export function readRegularFileSync(path: string, options: RegularFileOptions): Buffer {
  assertRegular(path, options.noFollow ? lstatSync(path) : statSync(path));
  let fd: number;
  try {
    fd = openSync(path, openFlags(options));
  } catch (err) {
    throw openError(path, err);
  }
  try {
    const info = fstatSync(fd);
    assertRegular(path, info);
    const gathered = new Gathered(path, options);
    gathered.checkSize(info.size);
    for (let chunk = gathered.next(); chunk !== null; chunk = gathered.next()) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      gathered.add(chunk, read);
    }
    return gathered.result();
  } finally {
    closeSync(fd);
  }
}

/** The same, off the event loop: for many files at once (a folder of slash commands). */
export async function readRegularFile(path: string, options: RegularFileOptions): Promise<Buffer> {
  assertRegular(path, options.noFollow ? await lstat(path) : await stat(path));
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, openFlags(options));
  } catch (err) {
    throw openError(path, err);
  }
  try {
    const info = await handle.stat();
    assertRegular(path, info);
    const gathered = new Gathered(path, options);
    gathered.checkSize(info.size);
    for (let chunk = gathered.next(); chunk !== null; chunk = gathered.next()) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      gathered.add(chunk, bytesRead);
    }
    return gathered.result();
  } finally {
    await handle.close();
  }
}
