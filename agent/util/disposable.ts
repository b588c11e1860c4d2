/** Something that holds on to a resource (a timer, a socket, a file, a lock) until let go. */
export interface Disposable {
  dispose(): void | Promise<void>;
}

export function toDisposable(dispose: () => void | Promise<void>): Disposable {
  return { dispose };
}

/**
 * Disposables of one owner, let go in reverse order of registration: what was made later
 * may use what was made before, so it goes first. Each is awaited before the next, and one
 * that fails does not keep the rest from going; the failures are thrown at the end.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposing: Promise<void> | null = null;

  /** Registers `item` and hands it back, so it is registered where it is made. */
  register<T extends Disposable>(item: T): T {
    if (this.disposing) throw new Error('registered on a store already disposed');
    this.items.push(item);
    return item;
  }

  /** The same promise on every call: a second stop waits for the first. */
  dispose(): Promise<void> {
    this.disposing ??= this.disposeAll();
    return this.disposing;
  }

  private async disposeAll(): Promise<void> {
    const errors: unknown[] = [];
    for (let item = this.items.pop(); item; item = this.items.pop()) {
      try {
        await item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'several things failed to stop');
  }
}
