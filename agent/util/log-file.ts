import { mkdirSync, statSync } from 'node:fs';
import { appendFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface LogFileLimits {
  /** Past this size the file is rotated: agent.log becomes agent.log.1, and so on. */
  maxBytes: number;
  /** How many rotated files are kept beside the live one. */
  keep: number;
  /** Bytes waiting to be written; past this, new lines are dropped and only counted. */
  maxPendingBytes: number;
}

export const LOG_FILE_LIMITS: LogFileLimits = { maxBytes: 10 * 1024 * 1024, keep: 3, maxPendingBytes: 1024 * 1024 };

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * The agent's log file, written off the event loop: lines wait in a bounded queue and go out
 * in batches, so a burst of log lines never blocks a request, and a burst faster than the
 * disk costs dropped lines (counted, and said in the file) rather than unbounded memory.
 * The file is rotated by size, so the log can never fill the disk.
 */
export class LogFile {
  private queue: string[] = [];
  private pendingBytes = 0;
  private dropped = 0;
  private size: number;
  private draining: Promise<void> | null = null;

  constructor(
    readonly path: string,
    /** The line that stands for lines dropped while the queue was full. */
    private readonly droppedNotice: (count: number) => string,
    private readonly limits: LogFileLimits = LOG_FILE_LIMITS,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    try {
      this.size = statSync(path).size;
    } catch {
      this.size = 0;
    }
  }

  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.pendingBytes + bytes > this.limits.maxPendingBytes) {
      this.dropped++;
      return;
    }
    this.queue.push(line);
    this.pendingBytes += bytes;
    this.drain();
  }

  /** Resolves once every line written so far is in the file (or could not be written). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = this.writeQueued().finally(() => {
      this.draining = null;
      if (this.queue.length > 0 || this.dropped > 0) this.drain();
    });
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0 || this.dropped > 0) {
      let text = this.queue.join('');
      this.queue = [];
      this.pendingBytes = 0;
      if (this.dropped > 0) {
        text += this.droppedNotice(this.dropped);
        this.dropped = 0;
      }
      try {
        await this.append(text);
      } catch {
        // A full disk must not take the agent down; stderr still has the lines.
      }
    }
  }

  private async append(text: string): Promise<void> {
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.limits.maxBytes) await this.rotate();
    await appendFile(this.path, text, { mode: 0o600 });
    this.size += bytes;
  }

  /** agent.log.(keep-1) → agent.log.keep (the oldest is overwritten), …, agent.log → agent.log.1. */
  private async rotate(): Promise<void> {
    if (this.limits.keep < 1) {
      await unlink(this.path).catch((err) => {
        if (!isMissing(err)) throw err;
      });
    }
    for (let i = this.limits.keep; i >= 1; i--) {
      const from = i === 1 ? this.path : `${this.path}.${i - 1}`;
      await rename(from, `${this.path}.${i}`).catch((err) => {
        if (!isMissing(err)) throw err;
      });
    }
    this.size = 0;
  }
}
