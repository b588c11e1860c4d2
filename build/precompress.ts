/**
 * Brotli and gzip copies of the built PWA's text files, written beside each (`x.js.br`,
 * `x.js.gz`) once, at the highest quality, so the agent sends them as they are and spends
 * nothing compressing. A copy is written only where it is smaller than its original.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { COMPRESSED_SUFFIXES, isCompressedCopy, pwaFileType } from '../agent/http/pwa-file-types.js';

/** The copies of one file: its size and each copy's, or null where none was written. */
export interface CompressedFile {
  file: string;
  size: number;
  br: number | null;
  gzip: number | null;
}

function brotli(data: Buffer): Buffer {
  return brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
}

function gzip(data: Buffer): Buffer {
  return gzipSync(data, { level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
}

/** Every compressible file under `dir`, each given its copies; `dir`-relative names. */
export function precompressDir(dir: string): CompressedFile[] {
  const written: CompressedFile[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (isCompressedCopy(path) || !pwaFileType(path).compressible) continue;
    const data = readFileSync(path);
    const sizes: Record<'br' | 'gzip', number | null> = { br: null, gzip: null };
    for (const [coding, compressed] of [
      ['br', brotli(data)],
      ['gzip', gzip(data)],
    ] as const) {
      if (compressed.length >= data.length) continue;
      writeFileSync(path + COMPRESSED_SUFFIXES[coding], compressed);
      sizes[coding] = compressed.length;
    }
    written.push({ file: path.slice(dir.length + 1), size: data.length, ...sizes });
  }
  return written;
}

/**
 * Compresses the output folder once everything is in it: after the PWA plugin, whose
 * service worker is written when the bundle closes.
 */
export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'pocketmux:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const files = precompressDir(outDir);
        const copies = files.filter((f) => f.br !== null || f.gzip !== null).length;
        this.info(`precompressed ${copies} of ${files.length} text files (Brotli and gzip)`);
      },
    },
  };
}
