/**
 * A pane's history as find in the browser gets it: what `capture-pane` prints, kept to its
 * newest bytes while tmux writes it. Pure, so the cut is tested without tmux.
 */
import { PANE_HISTORY_MAX_BYTES, type PaneHistory } from '../../protocol/pane-history.js';

/** How many history captures may run at once in the agent; past that, `503`. */
export const MAX_CONCURRENT_CAPTURES = 4;

/**
 * The last bytes of a stream: whole chunks that lie before them are let go as they come, so
 * however much is written, no more than the bound and one chunk is held.
 */
export class ByteTail {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes let go so far. */
  private dropped = 0;

  constructor(readonly keep: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.chunks.length > 1 && this.size - (this.chunks[0] as Buffer).length >= this.keep) {
      const first = this.chunks.shift() as Buffer;
      this.size -= first.length;
      this.dropped += first.length;
    }
  }

  /** The last `keep` bytes (fewer when less came), and whether anything came before them. */
  result(): { bytes: Buffer; cut: boolean } {
    const all = Buffer.concat(this.chunks, this.size);
    if (all.length <= this.keep) return { bytes: all, cut: this.dropped > 0 };
    return { bytes: all.subarray(all.length - this.keep), cut: true };
  }
}

/** What to keep of a capture: one byte more than is sent, to tell whether the cut fell on a line's start. */
export function historyTail(maxBytes: number = PANE_HISTORY_MAX_BYTES): ByteTail {
  return new ByteTail(maxBytes + 1);
}

/**
 * The newest lines of a capture within `maxBytes`: `bytes` is the end of what tmux printed and
 * `cut` whether anything came before it. The text kept starts at a line's start: where the byte
 * before the last `maxBytes` is a `\n` they start one, else the partial line is left out too.
 * A single line longer than the bound (a long line the pane wrapped, joined) is cut at a
 * character's start instead.
 */
export function newestLines(tail: { bytes: Buffer; cut: boolean }, maxBytes: number = PANE_HISTORY_MAX_BYTES): PaneHistory {
  const { bytes, cut } = tail;
  if (!cut && bytes.length <= maxBytes) return { text: bytes.toString('utf8'), truncated: false };
  const from = Math.max(0, bytes.length - maxBytes);
  if (from > 0 && bytes[from - 1] === 0x0a) return { text: bytes.toString('utf8', from), truncated: true };
  const newline = bytes.indexOf(0x0a, from);
  // tmux ends every line with a newline: one only at the very end leaves no whole line.
  if (newline >= 0 && newline < bytes.length - 1) return { text: bytes.toString('utf8', newline + 1), truncated: true };
  let start = from;
  // Continuation bytes are 10xxxxxx: start at the next character's first byte.
  while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
  return { text: bytes.toString('utf8', start), truncated: true };
}
