export interface Disposable {
  dispose(): void;
}

/** Owns disposables so one `dispose()` on the owner releases all of them, in reverse order. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  addListener<K extends keyof WindowEventMap>(target: Window, type: K, fn: (ev: WindowEventMap[K]) => void): void;
  addListener<K extends keyof DocumentEventMap>(target: Document, type: K, fn: (ev: DocumentEventMap[K]) => void): void;
  addListener(target: EventTarget, type: string, fn: (ev: Event) => void): void {
    target.addEventListener(type, fn);
    this.add({ dispose: () => target.removeEventListener(type, fn) });
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (err) {
        console.error('dispose failed', err);
      }
    }
  }
}

export function toDisposable(fn: () => void): Disposable {
  return { dispose: fn };
}
