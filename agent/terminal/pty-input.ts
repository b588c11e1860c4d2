import { writeSync } from 'node:fs';
import type * as pty from 'node-pty';

/** How soon input the kernel refused (its pty buffer full) is offered again. */
export const PTY_RETRY_MS = 2;

/**
 * Input for one pty, written from the event loop straight into the kernel. node-pty queues
 * every write on libuv's thread pool (`fs.write`): each keystroke then wakes a worker thread
 * and waits for the loop to hear back from it, two more wake-ups between a key and tmux, and
 * on a busy machine those are what the slowest echoes wait for. The master side is
 * non-blocking, so a direct write never stalls the loop: what the kernel takes goes at once,
 * and what it refuses (its buffer is full while the program behind the pty does not read)
 * waits here, in order, offered again every PTY_RETRY_MS until taken.
 *
 * `pendingBytes` is what waits, for the caller's own limit; `onDrained` fires when it falls
 * back to zero. A write error other than a full buffer (the tmux client exited, EIO) drops
 * what waits and is reported once: the pty's exit is handled on its own.
 */
export class PtyInput {
  private readonly pending: Buffer[] = [];
  private pendingLength = 0;
  private retry: NodeJS.Timeout | null = null;
  private failed = false;

  constructor(
    private readonly fd: number,
    private readonly events: { onDrained(): void; onError(err: Error): void },
  ) {}

  get pendingBytes(): number {
    return this.pendingLength;
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
    this.retry ??= setTimeout(() => this.flush(), PTY_RETRY_MS);
  }

  /** Stops retrying and forgets what waits (the pty is gone). */
  dispose(): void {
    this.failed = true;
    this.drop();
  }

  private flush(): void {
    this.retry = null;
    while (this.pending.length > 0) {
      const head = this.pending[0] as Buffer;
      const written = this.offer(head);
      if (written < 0) return;
      this.pendingLength -= written;
      if (written < head.length) {
        this.pending[0] = head.subarray(written);
        this.retry = setTimeout(() => this.flush(), PTY_RETRY_MS);
        return;
      }
      this.pending.shift();
    }
    this.events.onDrained();
  }

  /** Bytes the kernel took (0 when its buffer is full), or -1 after an error that ends this input. */
  private offer(data: Buffer): number {
    try {
      return writeSync(this.fd, data);
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
 * node-pty's Unix pty beyond its typed surface: the master's descriptor, and the moment
 * node-pty closes it (its `close` event, emitted as it stops writing itself). Missing, the
 * terminal does not start rather than write to a descriptor it cannot follow.
 */
export function ptyMaster(term: pty.IPty): { fd: number; onClose(listener: () => void): void } {
  const unix = term as unknown as { fd?: unknown; on?: (event: string, listener: () => void) => void };
  const on = unix.on;
  if (typeof unix.fd !== 'number' || typeof on !== 'function') {
    term.kill();
    throw new Error('node-pty gave no descriptor for the pty');
  }
  return { fd: unix.fd, onClose: (listener) => on.call(term, 'close', listener) };
}
