import { describe, expect, it } from 'vitest';
import { DisposableStore, toDisposable } from '../../../../agent/util/disposable.js';

describe('disposable store', () => {
  it('lets go in reverse order of registration, waiting for each before the next', async () => {
    const store = new DisposableStore();
    const order: string[] = [];
    store.register(toDisposable(() => void order.push('first made')));
    store.register(
      toDisposable(async () => {
        // Slow: done only after a turn of the event loop, when the next would already have run.
        await new Promise((resolve) => setImmediate(resolve));
        order.push('second made, slow');
      }),
    );
    store.register(toDisposable(() => void order.push('last made')));
    await store.dispose();
    expect(order).toEqual(['last made', 'second made, slow', 'first made']);
  });

  it('disposes once, however often it is asked, and hands back what it registers', async () => {
    const store = new DisposableStore();
    let count = 0;
    const item = toDisposable(() => {
      count++;
    });
    expect(store.register(item)).toBe(item);
    await Promise.all([store.dispose(), store.dispose()]);
    await store.dispose();
    expect(count).toBe(1);
    expect(() => store.register(toDisposable(() => undefined))).toThrow(/already disposed/);
  });

  it('lets go of the rest when one fails, then throws what failed', async () => {
    const store = new DisposableStore();
    const order: string[] = [];
    store.register(toDisposable(() => void order.push('lock released')));
    store.register(
      toDisposable(async () => {
        throw new Error('disk full');
      }),
    );
    store.register(toDisposable(() => void order.push('sockets closed')));
    await expect(store.dispose()).rejects.toThrow('disk full');
    expect(order).toEqual(['sockets closed', 'lock released']);

    const twice = new DisposableStore();
    twice.register(
      toDisposable(() => {
        throw new Error('one');
      }),
    );
    twice.register(
      toDisposable(() => {
        throw new Error('two');
      }),
    );
    await expect(twice.dispose()).rejects.toBeInstanceOf(AggregateError);
  });
});
