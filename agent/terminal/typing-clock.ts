import { performance } from 'node:perf_hooks';

/**
 * How long after a keystroke a person counts as typing: longer than the pause between words
 * or while reading what came back, short enough that a job put off for it waits seconds.
 */
export const TYPING_MS = 5_000;

/**
 * When a terminal was last typed into, so that work the agent chooses the moment of (a full
 * collection of its heap) waits for a pause in the typing instead of delaying the echo of a
 * key pressed while it runs.
 */
export class TypingClock {
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A terminal got input from a person. */
  keystroke(): void {
    this.last = this.now();
  }

  /** Whether a terminal got input in the last `TYPING_MS`. */
  typing(): boolean {
    return this.now() - this.last < TYPING_MS;
  }
}
