import { readFileSync, unlinkSync } from 'node:fs';
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

/** A port as this agent writes it in a file: digits, 1 to 65535; anything else is none. */
export function parsePort(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,5}$/.test(trimmed)) return null;
  const port = Number(trimmed);
  return port >= 1 && port <= 65_535 ? port : null;
}

/**
 * The port the loopback twin had at the last start, kept across stops: Claude sessions started
 * before a restart carry it in their hook settings, so the twin asks for it again. Null when
 * there is none (a first start, or a file that is not one).
 */
export function keptPort(path: string): number | null {
  try {
    return parsePort(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

export function keepPort(path: string, port: number): void {
  writeFileAtomic(path, `${port}\n`, 0o600);
}
