import type { Logger } from '../util/log.js';
import { writeJsonAtomic, writeJsonAtomicAsync } from './atomic-file.js';

/**
 * A JSON file written after a change, gathered for a moment: a burst of changes costs one
 * fsync'd write instead of one each, off the event loop, one write at a time (changes made
 * during a write go in the next). A crash in that window loses the last moment only.
 */
export class GatheredWriter {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly path: string,
    /** What the file holds now, read when it is written. */
    private readonly content: () => unknown,
    private readonly log: Logger,
    /** How the file is named in the log: "the status file". */
    private readonly what: string,
    private readonly delayMs = 100,
  ) {}

  /** Something changed: the file is written shortly. */
  schedule(): void {
    this.timer ??= setTimeout(() => void this.writeInBackground(), this.delayMs);
  }

  private async writeInBackground(): Promise<void> {
    this.timer = null;
    if (this.writing) {
      this.schedule();
      return;
    }
    this.writing = writeJsonAtomicAsync(this.path, this.content())
      .catch((err: Error) => this.log.error(`could not write ${this.what}`, { error: err.message }))
      .finally(() => {
        this.writing = null;
      });
    await this.writing;
  }

  /** On shutdown: lets a write in flight land, then writes the latest content. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.writing;
    writeJsonAtomic(this.path, this.content());
  }
}
