import { unlinkSync } from 'node:fs';
import { toDisposable, type Disposable } from '../util/disposable.js';
import { writeFileAtomic } from './atomic-file.js';

/** Tells this machine's tools (the CLI, hook.sh) where the running agent listens, until it stops. */
export function publishPort(path: string, port: number): Disposable {
  writeFileAtomic(path, `${port}\n`, 0o600);
  return toDisposable(() => {
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  });
}
