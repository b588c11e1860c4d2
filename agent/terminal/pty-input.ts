import { writeSync } from 'node:fs';
import type * as pty from 'node-pty';

/** How soon input the kernel refused (its pty buffer full) is first offered again. */
export const PTY_RETRY_MS = 2;
/** The longest wait between offers while the kernel takes nothing. */
export const PTY_RETRY_MAX_MS = 64;

/** The master side of a pty as PtyInput writes it: its descriptor, and whether it is still open. */
export interface PtyMaster {
  fd: number;
  /** False from the moment the owner closes the descriptor, whose number may then be reused. */
  isOpen(): boolean;
}

/**
 * Input for one pty, written from the event loop straight into the kernel. node-pty queues
 * every write on libuv's thread pool (`fs.write`): each keystroke then wakes a worker thread
 * and waits for the loop to hear back from it, two more wake-ups between a key and tmux, and
 * on a busy machine those are what the slowest echoes wait for. The master side is
 * non-blocking, so a direct write never stalls the loop: what the kernel takes goes at once,
 * and what it refuses (its buffer is full while the reader behind the pty is slower than the
 * input) waits here, in order, offered again after PTY_RETRY_MS, the wait doubling up to
 * PTY_RETRY_MAX_MS while the kernel takes nothing and back to PTY_RETRY_MS when it takes some.
 *
 * `pendingBytes` is what waits and `pendingWrites` in how many pieces, for the caller's own
 * limit; `onDrained` fires when nothing waits any more. Nothing is written once the master
 * is closed. A write error other than a full buffer (the tmux client exited, EIO) drops what
 * waits and is reported once: the pty's exit is handled on its own.
 */
export class PtyInput {
  private readonly pending: Buffer[] = [];
  private pendingLength = 0;
  private retry: NodeJS.Timeout | null = null;
  private retryMs = PTY_RETRY_MS;
  private failed = false;

  constructor(
    private readonly master: PtyMaster,
    private readonly events: { onDrained(): void; onError(err: Error): void },
  ) {}

  get pendingBytes(): number {
    return this.pendingLength;
  }

  get pendingWrites(): number {
    return this.pending.length;
  }

  write(data: Buffer): void {
    if (this.failed || data.length === 0) return;
    if (this.pending.length === 0) {
      const written = this.offer(data);
      if (written === data.length || written < 0) return;
      data = data.subarray(written);
    }
    this.pending.push(data);
    this.pendingLength += data.length;
    this.retry ??= setTimeout(() => this.flush(), this.retryMs);
  }

  /** Stops retrying and forgets what waits (the pty is gone). */
  dispose(): void {
    this.failed = true;
    this.drop();
  }

  private flush(): void {
    this.retry = null;
    let took = 0;
    while (this.pending.length > 0) {
      const head = this.pending[0] as Buffer;
      const written = this.offer(head);
      if (written < 0) return;
      took += written;
      this.pendingLength -= written;
      if (written < head.length) {
        this.pending[0] = head.subarray(written);
        this.retryMs = took > 0 ? PTY_RETRY_MS : Math.min(this.retryMs * 2, PTY_RETRY_MAX_MS);
        this.retry = setTimeout(() => this.flush(), this.retryMs);
        return;
      }
      this.pending.shift();
    }
    this.retryMs = PTY_RETRY_MS;
    this.events.onDrained();
  }

  /**
   * Bytes the kernel took (0 when its buffer is full), or -1 when this input has ended: the
   * master closed (silently: its owner handles that), or a write error (reported).
   */
  private offer(data: Buffer): number {
    if (!this.master.isOpen()) {
      this.dispose();
      return -1;
    }
    try {
      return writeSync(this.master.fd, data);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return 0;
      this.failed = true;
      this.drop();
      this.events.onError(err as Error);
      return -1;
    }
  }

  private drop(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.pending.length = 0;
    this.pendingLength = 0;
  }
}

/**
 * node-pty's Unix pty beyond its typed surface: the master's descriptor, whether node-pty
 * has closed it, and the moment it says so. node-pty closes the descriptor by destroying the
 * stream it reads with, on a read error once the pty's client exited, or on a timer after
 * the exit when that stream is paused (never read, so no error comes); the stream is
 * destroyed at once, while node-pty's `close` event follows a loop phase later, so only the
 * stream itself tells whether a write is still safe. Missing, the terminal does not start
 * rather than write to a descriptor it cannot follow.
 */
export function ptyMaster(term: pty.IPty): PtyMaster & { onClose(listener: () => void): void } {
  const unix = term as unknown as { fd?: unknown; _socket?: { destroyed?: unknown }; on?: (event: string, listener: () => void) => void };
  const on = unix.on;
  const stream = unix._socket;
  if (typeof unix.fd !== 'number' || typeof on !== 'function' || typeof stream?.destroyed !== 'boolean') {
    term.kill();
    throw new Error('node-pty gave no descriptor for the pty');
  }
  return { fd: unix.fd, isOpen: () => stream.destroyed === false, onClose: (listener) => on.call(term, 'close', listener) };
}
