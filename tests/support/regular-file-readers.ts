/**
 * The synchronous regular-file reader and the asynchronous one, held to the same cases: the
 * unit tests' (what any folder holds) and the integration tests' (FIFOs, sockets), each file
 * running its cases once per reader with `describe.each(READERS)` and `readerCase(read)`.
 */
import { beforeEach } from 'vitest';
import { FileRefusedError, type RegularFileOptions, readRegularFile, readRegularFileSync } from '../../agent/util/regular-file.js';
import { tempFolders } from './temp-folders.js';

export type RegularFileReader = (path: string, options: RegularFileOptions) => Promise<Buffer>;

export const READERS: [string, RegularFileReader][] = [
  ['readRegularFileSync', async (path, options) => readRegularFileSync(path, options)],
  ['readRegularFile', readRegularFile],
];

export interface ReaderCase {
  /** The folder of the test running now: made before it, removed after it. */
  dir(): string;
  /** How `read` refused `path`; a read, or any other error, fails the test. */
  refusal(path: string, options: RegularFileOptions): Promise<FileRefusedError>;
}

/** Called in a `describe` of one reader: each of its tests gets a folder of its own. */
export function readerCase(read: RegularFileReader): ReaderCase {
  const folder = tempFolders('pocketmux-regular-file-', 'each');
  let dir = '';
  beforeEach(() => {
    dir = folder();
  });
  return {
    dir: () => dir,
    async refusal(path, options) {
      const err = await read(path, options).then(
        () => new Error('read, not refused'),
        (e: unknown) => e,
      );
      if (err instanceof FileRefusedError) return err;
      throw err;
    },
  };
}
