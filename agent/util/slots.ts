/**
 * A counting semaphore without a queue: a request that finds no slot is refused rather than
 * kept waiting, so what a client can make the agent hold at once stays bounded.
 */
export class Slots {
  private taken = 0;

  constructor(readonly max: number) {}

  /** A release function (calling it twice releases once), or null when every slot is taken. */
  tryTake(): (() => void) | null {
    if (this.taken >= this.max) return null;
    this.taken++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.taken--;
    };
  }

  get inUse(): number {
    return this.taken;
  }
}
