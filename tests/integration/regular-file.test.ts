import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READERS, readerCase } from '../support/regular-file-readers.js';

/**
 * The synchronous reader and the asynchronous one, held to the same cases: those that need a
 * FIFO (made by mkfifo) or a listening socket. The rest are in the unit tier.
 */

describe.each(READERS)('%s', (_name, read) => {
  const { dir, refusal } = readerCase(read);

  it('refuses a FIFO at once, and a symbolic link to one, naming the path and why', async () => {
    const fifo = join(dir(), 'settings.json');
    execFileSync('mkfifo', [fifo]);
    expect((await refusal(fifo, { maxBytes: 100 })).message).toBe(`refusing to read ${fifo}: it is a FIFO, not a regular file`);
    const link = join(dir(), 'link.json');
    symlinkSync(fifo, link);
    expect((await refusal(link, { maxBytes: 100 })).message).toBe(`refusing to read ${link}: it is a FIFO, not a regular file`);
    expect((await refusal(link, { maxBytes: 100, noFollow: true })).message).toBe(`refusing to read ${link}: it is a symbolic link`);
  });

  it('refuses a device, a directory and a socket, and reports a missing file as it is', async () => {
    expect((await refusal('/dev/zero', { maxBytes: 16 })).reason).toBe('it is a device, not a regular file');
    mkdirSync(join(dir(), 'folder'));
    expect((await refusal(join(dir(), 'folder'), { maxBytes: 16 })).reason).toBe('it is a directory, not a regular file');
    const socket = join(dir(), 'sock');
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect((await refusal(socket, { maxBytes: 16 })).reason).toBe('it is a socket, not a regular file');
    } finally {
      server.close();
    }
    await expect(read(join(dir(), 'missing'), { maxBytes: 16 })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
