import type { Logger } from '../util/log.js';
import type { Disposable } from '../util/disposable.js';

export interface RefusalLogOptions {
  windowMs: number;
  /** Sources tracked at once; refusals from more sources are only counted together. */
  maxSources: number;
  now: () => number;
}

export const REFUSAL_LOG_DEFAULTS: RefusalLogOptions = { windowMs: 60_000, maxSources: 1_000, now: () => Date.now() };

interface SourceWindow {
  since: number;
  /** Refusals counted but not logged one by one in this window. */
  unlogged: number;
}

/**
 * Logs refusals any client can cause (no credential, a foreign page) without letting that
 * client fill the log: per source address, the first refusal in a window is logged and the
 * rest are counted, then summed up in one line when the window ends.
 */
export class RefusalLog implements Disposable {
  /** In order of window start, oldest first: expired windows are always at the front. */
  private readonly sources = new Map<string, SourceWindow>();
  private untracked: SourceWindow | null = null;
  private readonly options: RefusalLogOptions;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly log: Logger,
    options: Partial<RefusalLogOptions> = {},
  ) {
    this.options = { ...REFUSAL_LOG_DEFAULTS, ...options };
    this.timer = setInterval(() => this.sweep(), this.options.windowMs);
    this.timer.unref();
  }

  /** How many sources have an open window; never more than `maxSources`. */
  get trackedSources(): number {
    return this.sources.size;
  }

  refused(source: string, message: string, fields: Record<string, unknown> = {}): void {
    const now = this.options.now();
    this.expire(now);
    const open = this.sources.get(source);
    if (open) {
      open.unlogged++;
      return;
    }
    if (this.sources.size >= this.options.maxSources) {
      this.untracked ??= { since: now, unlogged: 0 };
      this.untracked.unlogged++;
      return;
    }
    this.sources.set(source, { since: now, unlogged: 0 });
    this.log.warn(message, { ...fields, source });
  }

  /** Ends the windows that are over, with their summary lines; the timer calls it too. */
  sweep(): void {
    this.expire(this.options.now());
  }

  /** On shutdown: every count still open is said now. */
  dispose(): void {
    clearInterval(this.timer);
    this.expire(Number.POSITIVE_INFINITY);
  }

  private expire(now: number): void {
    for (const [source, window] of this.sources) {
      if (now - window.since < this.options.windowMs) break;
      this.sources.delete(source);
      this.summarize(window.unlogged, { source });
    }
    if (this.untracked && now - this.untracked.since >= this.options.windowMs) {
      this.summarize(this.untracked.unlogged, { sources: `more than ${this.options.maxSources}` });
      this.untracked = null;
    }
  }

  private summarize(count: number, who: Record<string, unknown>): void {
    if (count === 0) return;
    this.log.warn('further refusals were only counted, not logged one by one', {
      ...who,
      count,
      windowSeconds: Math.round(this.options.windowMs / 1000),
    });
  }
}
