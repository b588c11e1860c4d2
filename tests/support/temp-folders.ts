/**
 * Folders a test file makes under the temp dir and removes itself, so the run's check
 * (leftovers.ts) finds nothing left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

/**
 * Called in a test file or a `describe`: a maker of fresh folders named `<prefix>…`, each
 * removed after the test that made it (`'each'`) or once the file's tests are done (`'all'`).
 */
export function tempFolders(prefix: string, removed: 'each' | 'all' = 'all'): () => string {
  const made: string[] = [];
  (removed === 'each' ? afterEach : afterAll)(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
