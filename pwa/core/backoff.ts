/** Exponential reconnect delays: 0.5 s, 1 s, 2 s … capped, back to the start after `reset`. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly initialMs = 500,
    private readonly maxMs = 10_000,
  ) {}

  /** The delay before the next attempt; each call doubles the following one. */
  next(): number {
    const delay = Math.min(this.maxMs, this.initialMs * 2 ** this.attempt);
    if (delay < this.maxMs) this.attempt++;
    return delay;
  }

  get attempts(): number {
    return this.attempt;
  }

  reset(): void {
    this.attempt = 0;
  }
}
