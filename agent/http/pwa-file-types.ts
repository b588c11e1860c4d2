/**
 * The kinds of file the built PWA holds: what each is sent as, and which are text worth
 * compressing. The build (which writes the compressed copies) and the agent (which sends them)
 * both read this table, so they cannot disagree on which files have copies.
 */
import { extname } from 'node:path';

interface FileType {
  contentType: string;
  /** Text, which Brotli and gzip shrink; images are compressed already. */
  compressible: boolean;
}

const TYPES: Record<string, FileType> = {
  '.html': { contentType: 'text/html; charset=utf-8', compressible: true },
  '.js': { contentType: 'text/javascript; charset=utf-8', compressible: true },
  '.mjs': { contentType: 'text/javascript; charset=utf-8', compressible: true },
  '.css': { contentType: 'text/css; charset=utf-8', compressible: true },
  '.json': { contentType: 'application/json; charset=utf-8', compressible: true },
  '.map': { contentType: 'application/json; charset=utf-8', compressible: true },
  '.webmanifest': { contentType: 'application/manifest+json; charset=utf-8', compressible: true },
  '.svg': { contentType: 'image/svg+xml', compressible: true },
  '.txt': { contentType: 'text/plain; charset=utf-8', compressible: true },
  '.png': { contentType: 'image/png', compressible: false },
  '.ico': { contentType: 'image/x-icon', compressible: false },
  '.webp': { contentType: 'image/webp', compressible: false },
  '.woff2': { contentType: 'font/woff2', compressible: false },
};

const UNKNOWN: FileType = { contentType: 'application/octet-stream', compressible: false };

export function pwaFileType(path: string): FileType {
  return TYPES[extname(path).toLowerCase()] ?? UNKNOWN;
}

/** The suffix of each precompressed copy, written beside its original. */
export const COMPRESSED_SUFFIXES = { br: '.br', gzip: '.gz' } as const;

/** A name that is itself a compressed copy: never sent as a file of its own. */
export function isCompressedCopy(path: string): boolean {
  return Object.values(COMPRESSED_SUFFIXES).some((suffix) => path.toLowerCase().endsWith(suffix));
}
