import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RegularFileOptions } from '../../../../agent/util/regular-file.js';
import { READERS, readerCase } from '../../../support/regular-file-readers.js';

/** The cases any folder can hold; those that need a FIFO or a socket are integration tests. */

describe.each(READERS)('%s', (_name, read) => {
  const { dir, refusal } = readerCase(read);
  const text = async (path: string, options: RegularFileOptions) => (await read(path, options)).toString('utf8');

  it('reads a regular file, and one a symbolic link leads to', async () => {
    const file = join(dir(), 'settings.json');
    writeFileSync(file, '{"a":1}');
    symlinkSync(file, join(dir(), 'link.json'));
    expect(await text(file, { maxBytes: 100 })).toBe('{"a":1}');
    expect(await text(join(dir(), 'link.json'), { maxBytes: 100 })).toBe('{"a":1}');
    writeFileSync(file, '');
    expect(await text(file, { maxBytes: 100 })).toBe('');
  });

  it('refuses a symbolic link to a regular file when told not to follow links', async () => {
    const file = join(dir(), 'a.json');
    writeFileSync(file, '{}');
    symlinkSync(file, join(dir(), 'b.json'));
    expect((await refusal(join(dir(), 'b.json'), { maxBytes: 100, noFollow: true })).reason).toBe('it is a symbolic link');
  });

  it('refuses a file larger than the bound, or cuts it there when asked', async () => {
    const file = join(dir(), 'big.json');
    writeFileSync(file, 'x'.repeat(1025));
    expect((await refusal(file, { maxBytes: 1024 })).message).toBe(`refusing to read ${file}: it is larger than 1 KiB`);
    expect(await text(file, { maxBytes: 1024, beyond: 'cut' })).toBe('x'.repeat(1024));
    writeFileSync(file, 'x'.repeat(1024));
    expect(await text(file, { maxBytes: 1024 })).toBe('x'.repeat(1024));
    // Bigger than the pieces it is read in.
    writeFileSync(file, 'y'.repeat(200_000));
    expect(await text(file, { maxBytes: 300_000 })).toBe('y'.repeat(200_000));
    expect((await refusal(file, { maxBytes: 150_000 })).reason).toBe('it is larger than 150000 bytes');
    expect(await text(file, { maxBytes: 150_000, beyond: 'cut' })).toBe('y'.repeat(150_000));
  });

  it('counts what it read, not the size the file claims', async () => {
    // Regular, and reported as 0 bytes long, yet full of text.
    expect((await refusal('/proc/self/status', { maxBytes: 16 })).reason).toBe('it is larger than 16 bytes');
  });
});
