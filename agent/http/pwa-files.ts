/**
 * The built PWA, as files: each text file in the Brotli or gzip copy the build wrote beside
 * it when the client accepts one (a phone downloads a quarter of the bytes, and the agent
 * spends nothing compressing), content-hashed assets cached for good, everything else
 * revalidated on each load (the service worker's update depends on it), and any path that
 * does not name a file inside the PWA's folder refused before the disk is touched.
 */
import { constants as fsConstants, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import { acceptedEncodings, type ContentCoding } from './accept-encoding.js';
import { COMPRESSED_SUFFIXES, isCompressedCopy, pwaFileType } from './pwa-file-types.js';

/** Vite writes every content-hashed file here; a new build gives a changed file a new name. */
const HASHED_DIR = 'assets/';
const CACHE_HASHED = 'public, max-age=31536000, immutable';
const CACHE_REVALIDATE = 'no-cache';
/** The page every path of the app (a deep link to a tab, say) loads. */
const APP_SHELL = 'index.html';

/**
 * The file a URL path names, relative to the PWA's folder, or null when it cannot name one:
 * a segment that is empty, hidden (so `.` and `..` too), or holds a slash, backslash or NUL
 * once decoded. `''` is the root.
 */
export function pwaRelativePath(url: string): string | null {
  const end = url.search(/[?#]/);
  const path = end >= 0 ? url.slice(0, end) : url;
  if (!path.startsWith('/')) return null;
  const raws = path.slice(1).split('/');
  // A trailing slash names the same thing as none: never a file, so the app shell.
  if (raws.at(-1) === '') raws.pop();
  const segments: string[] = [];
  for (const raw of raws) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '' || segment.startsWith('.') || /[/\\\0]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments.join('/');
}

interface OpenFile {
  handle: FileHandle;
  stats: Stats;
}

/** The regular file at `path`, open; null when there is none. Other errors are thrown. */
async function openRegularFile(path: string): Promise<OpenFile | null> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO put in the folder must not hang the open.
    handle = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ENAMETOOLONG') return null;
    throw err;
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    return null;
  }
  return { handle, stats };
}

/**
 * Content hashes by file version, so each file is read for its tag once, not per request.
 * Only files that exist are entered, a few dozen per build; cleared past the cap, for the
 * builds an agent that runs for months sees come and go.
 */
const contentTags = new Map<string, string>();
const CONTENT_TAGS_CAP = 1024;

/**
 * The entity tag of one copy: its content's hash, not its size and time as is usual. npm
 * gives every file it installs the same time, and a new release's index.html or sw.js often
 * has the old one's size (only hashes of equal length change): a tag of size and time would
 * tell a browser its old copy is current and keep the service worker from ever updating.
 * The coding is part of it, so a cache never answers a conditional request with the other copy.
 */
async function entityTag(file: OpenFile, coding: ContentCoding): Promise<string> {
  const { dev, ino, size, mtimeMs, ctimeMs } = file.stats;
  const key = `${dev}:${ino}:${size}:${mtimeMs}:${ctimeMs}`;
  let hash = contentTags.get(key);
  if (hash === undefined) {
    hash = createHash('sha256').update(await file.handle.readFile()).digest('base64url').slice(0, 22);
    if (contentTags.size >= CONTENT_TAGS_CAP) contentTags.clear();
    contentTags.set(key, hash);
  }
  return `"${hash}${coding === 'identity' ? '' : `-${coding}`}"`;
}

/** If-None-Match against this tag, compared weakly (RFC 9110 section 13.1.2). */
function notModified(req: IncomingMessage, tag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}

type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * One `bytes=` range of a file of `size` bytes (end inclusive), 'unsatisfiable', or null
 * when the header is absent, malformed or asks for several ranges: then the whole file is
 * sent, as RFC 9110 allows a server to.
 */
export function byteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return null;
  return { start, end };
}

/** If-Range: a range is honoured only for the copy the client has part of, named by its tag. */
function rangeStillValid(req: IncomingMessage, tag: string): boolean {
  const ifRange = req.headers['if-range'];
  return ifRange === undefined || ifRange === tag;
}

/**
 * The copy to send: the first coding the client accepts that exists beside the file and is
 * not older than it (a copy left from an earlier build is never sent for a newer file).
 * Null when the client refuses every copy there is.
 */
async function chooseCopy(
  path: string,
  original: OpenFile,
  compressible: boolean,
  accepted: ContentCoding[],
): Promise<{ coding: ContentCoding; file: OpenFile } | null> {
  for (const coding of accepted) {
    if (coding === 'identity') return { coding, file: original };
    if (!compressible) continue;
    const copy = await openRegularFile(path + COMPRESSED_SUFFIXES[coding]);
    if (!copy) continue;
    if (copy.stats.mtimeMs >= original.stats.mtimeMs) return { coding, file: copy };
    await copy.handle.close();
  }
  return null;
}

async function sendFile(req: IncomingMessage, res: ServerResponse, root: string, relative: string): Promise<boolean> {
  const path = join(root, relative);
  const original = await openRegularFile(path);
  if (!original) return false;
  const type = pwaFileType(relative);
  const chosen = await chooseCopy(path, original, type.compressible, acceptedEncodings(req.headers['accept-encoding']));
  if (chosen?.file !== original) await original.handle.close();
  if (type.compressible) res.setHeader('Vary', 'Accept-Encoding');
  if (!chosen) {
    res.statusCode = 406;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('This file is sent as it is, or compressed as br or gzip; the request refused all three.\n');
    return true;
  }
  const { coding, file } = chosen;
  const tag = await entityTag(file, coding);
  res.setHeader('Cache-Control', relative.startsWith(HASHED_DIR) ? CACHE_HASHED : CACHE_REVALIDATE);
  // No Last-Modified: npm's one time for every file it installs would make it a lie.
  res.setHeader('ETag', tag);
  if (notModified(req, tag)) {
    await file.handle.close();
    res.statusCode = 304;
    res.end();
    return true;
  }
  res.setHeader('Content-Type', type.contentType);
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);

  const size = file.stats.size;
  let start = 0;
  let end = size - 1;
  res.statusCode = 200;
  // Ranges are of the file as it is: a compressed copy is always sent whole.
  if (coding === 'identity') {
    res.setHeader('Accept-Ranges', 'bytes');
    const range = req.method === 'GET' && rangeStillValid(req, tag) ? byteRange(req.headers.range, size) : null;
    if (range === 'unsatisfiable') {
      await file.handle.close();
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${size}`);
      res.removeHeader('Content-Type');
      res.end();
      return true;
    }
    if (range) {
      ({ start, end } = range);
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
    }
  }
  res.setHeader('Content-Length', String(end - start + 1));
  if (req.method === 'HEAD' || size === 0) {
    await file.handle.close();
    res.end();
    return true;
  }
  pipeline(file.handle.createReadStream({ start, end }), res, () => {
    // A client gone mid-file, or the file gone mid-read: pipeline has closed both.
  });
  return true;
}

function notFound(res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', CACHE_REVALIDATE);
  res.end('Not found.\n');
}

/**
 * The PWA's files under `root`, for GET and HEAD; any other path outside `/api/` is the app
 * shell, for the app's own routes. A missing hashed asset is a 404, never the shell: a
 * script answered with HTML breaks the page, and an old page asking for its assets after an
 * update must learn they are gone.
 */
export function pwaFiles(root: string): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    const relative = pwaRelativePath(req.url ?? '/');
    if (relative === null) {
      notFound(res);
      return;
    }
    if (relative === 'api' || relative.startsWith('api/')) {
      next();
      return;
    }
    void (async () => {
      if (relative !== '' && isCompressedCopy(relative)) return notFound(res);
      if (relative !== '' && (await sendFile(req, res, root, relative))) return;
      if (relative.startsWith(HASHED_DIR)) return notFound(res);
      if (!(await sendFile(req, res, root, APP_SHELL))) notFound(res);
    })().catch(next);
  };
}
