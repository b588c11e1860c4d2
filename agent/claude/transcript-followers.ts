import type { TranscriptReader } from './transcript-reader.js';
import type { Disposable } from '../util/disposable.js';

export interface FollowerLimits {
  /** Readers kept at most; the least recently used goes first. */
  max: number;
  /** How long a reader nobody uses is kept, so a reconnect resumes from its byte offset. */
  idleMs: number;
}

export const DEFAULT_FOLLOWER_LIMITS: FollowerLimits = { max: 16, idleMs: 5 * 60_000 };

interface Follower {
  reader: TranscriptReader;
  users: number;
  idleTimer: NodeJS.Timeout | null;
}

/**
 * One reader per transcript path, shared by whoever follows it and kept a while after the
 * last one leaves: a timeline reconnecting (a phone waking up) picks up where the reader
 * stopped instead of reading a transcript of many MB again.
 */
export class TranscriptFollowers implements Disposable {
  /** In order of use, least recent first. */
  private readonly followers = new Map<string, Follower>();
  private readonly limits: FollowerLimits;

  constructor(
    private readonly create: (path: string) => TranscriptReader,
    limits: Partial<FollowerLimits> = {},
  ) {
    this.limits = { ...DEFAULT_FOLLOWER_LIMITS, ...limits };
  }

  get size(): number {
    return this.followers.size;
  }

  /** The reader of `path`, made if there is none; give it back with `release`. */
  acquire(path: string): TranscriptReader {
    let follower = this.followers.get(path);
    if (follower) {
      this.followers.delete(path);
      if (follower.idleTimer) clearTimeout(follower.idleTimer);
      follower.idleTimer = null;
    } else {
      follower = { reader: this.create(path), users: 0, idleTimer: null };
    }
    follower.users++;
    this.followers.set(path, follower);
    this.evict();
    return follower.reader;
  }

  release(reader: TranscriptReader): void {
    const follower = this.followers.get(reader.path);
    // An evicted reader is no longer shared: its last user simply lets it go.
    if (follower?.reader !== reader || follower.users === 0) return;
    follower.users--;
    if (follower.users > 0) return;
    follower.idleTimer = setTimeout(() => this.forget(reader.path), this.limits.idleMs);
    follower.idleTimer.unref();
  }

  dispose(): void {
    for (const path of [...this.followers.keys()]) this.forget(path);
  }

  /** Idle readers go first; readers in use only when there are more of them than the limit. */
  private evict(): void {
    while (this.followers.size > this.limits.max) {
      let victim: string | undefined;
      for (const [path, follower] of this.followers) {
        if (follower.users === 0) {
          victim = path;
          break;
        }
      }
      this.forget(victim ?? (this.followers.keys().next().value as string));
    }
  }

  private forget(path: string): void {
    const follower = this.followers.get(path);
    if (follower?.idleTimer) clearTimeout(follower.idleTimer);
    this.followers.delete(path);
  }
}
