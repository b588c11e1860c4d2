import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../build/precompress.js';

describe('precompressDir', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pocketmux-precompress-'));
    mkdirSync(join(dir, 'assets'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a Brotli and a gzip copy beside each text file, each decoding to the file', () => {
    const script = Buffer.from('export const x = 1;\n'.repeat(500));
    const page = Buffer.from(`<!doctype html><title>t</title>${'<p>hello</p>'.repeat(100)}`);
    writeFileSync(join(dir, 'assets', 'index-abc.js'), script);
    writeFileSync(join(dir, 'index.html'), page);
    const files = precompressDir(dir);
    expect(files.map((f) => f.file).sort()).toEqual(['assets/index-abc.js', 'index.html']);
    for (const [name, data] of [
      ['assets/index-abc.js', script],
      ['index.html', page],
    ] as const) {
      const br = readFileSync(join(dir, `${name}.br`));
      const gz = readFileSync(join(dir, `${name}.gz`));
      expect(brotliDecompressSync(br).equals(data), name).toBe(true);
      expect(gunzipSync(gz).equals(data), name).toBe(true);
      expect(files.find((f) => f.file === name)).toEqual({ file: name, size: data.length, br: br.length, gzip: gz.length });
    }
  });

  it('writes no copy that would not be smaller, and none for images or copies', () => {
    writeFileSync(join(dir, 'tiny.js'), 'x');
    writeFileSync(join(dir, 'icon.png'), Buffer.alloc(4096));
    writeFileSync(join(dir, 'left.js.br'), Buffer.alloc(4096));
    expect(precompressDir(dir)).toEqual([{ file: 'tiny.js', size: 1, br: null, gzip: null }]);
    for (const name of ['tiny.js.br', 'tiny.js.gz', 'icon.png.br', 'icon.png.gz', 'left.js.br.br', 'left.js.br.gz']) {
      expect(existsSync(join(dir, name)), name).toBe(false);
    }
  });
});
