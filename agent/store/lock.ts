import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { processAlive } from '../util/process-alive.js';
import type { Disposable } from '../util/disposable.js';

export class LockHeldError extends Error {
  constructor(
    readonly path: string,
    readonly pid: number,
  ) {
    super(`another pocketmux agent (pid ${pid}) is already running with this data dir (lock ${path})`);
  }
}

function readPid(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * A single-instance lock: a file created exclusively, holding our PID. A lock left behind by
 * a process that no longer exists (the agent was SIGKILLed, the machine rebooted) is
 * reclaimed; a live holder is reported with its PID.
 */
export class InstanceLock implements Disposable {
  private constructor(readonly path: string) {}

  static acquire(path: string): InstanceLock {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        return new InstanceLock(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readPid(path);
      if (holder !== null && holder !== process.pid && processAlive(holder)) {
        throw new LockHeldError(path, holder);
      }
      // Stale (dead holder, or an unreadable half-written file): remove and retry.
      try {
        unlinkSync(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    throw new Error(`could not take the lock ${path}: it keeps reappearing`);
  }

  dispose(): void {
    if (readPid(this.path) !== process.pid) return;
    try {
      unlinkSync(this.path);
    } catch {
      // Already removed.
    }
  }
}
