import { describe, expect, it } from 'vitest';
import {
  ComposerHistory,
  HISTORY_MAX_BYTES,
  HISTORY_MAX_ENTRIES,
  HISTORY_MAX_SESSIONS,
  HISTORY_STORAGE_KEY,
  type HistoryStorage,
  HistoryCursor,
} from '../../../../pwa/timeline/composer-history.js';

/** localStorage as the page has it, in memory. */
class MemoryStorage implements HistoryStorage {
  readonly items = new Map<string, string>();
  full = false;
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (this.full) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
}

describe("the composer's history of what was sent from this device", () => {
  it('keeps prompts per session, oldest first, and a prompt sent again moves to the end', () => {
    const storage = new MemoryStorage();
    const a = new ComposerHistory(storage, 't1');
    const b = new ComposerHistory(storage, 'outside-abc');
    a.add('run the tests');
    a.add('fix the failing one');
    b.add('hello from outside');
    a.add('run the tests');
    expect(a.entries()).toEqual(['fix the failing one', 'run the tests']);
    expect(b.entries()).toEqual(['hello from outside']);
    // Another view of the same session on this device reads the same.
    expect(new ComposerHistory(storage, 't1').entries()).toEqual(['fix the failing one', 'run the tests']);
  });

  it(`keeps at most ${HISTORY_MAX_ENTRIES} entries, dropping the oldest`, () => {
    const h = new ComposerHistory(new MemoryStorage(), 't1');
    for (let i = 0; i < HISTORY_MAX_ENTRIES + 7; i++) h.add(`prompt ${i}`);
    const entries = h.entries();
    expect(entries).toHaveLength(HISTORY_MAX_ENTRIES);
    expect(entries[0]).toBe('prompt 7');
    expect(entries.at(-1)).toBe(`prompt ${HISTORY_MAX_ENTRIES + 6}`);
  });

  it('does not keep a prompt over 4 KB (in UTF-8), nor an empty one', () => {
    const h = new ComposerHistory(new MemoryStorage(), 't1');
    h.add('a'.repeat(HISTORY_MAX_BYTES));
    h.add('a'.repeat(HISTORY_MAX_BYTES + 1));
    // 2 bytes each in UTF-8: 2049 of them are over the bound though only 2049 characters.
    h.add('é'.repeat(HISTORY_MAX_BYTES / 2 + 1));
    h.add('   ');
    expect(h.entries()).toEqual(['a'.repeat(HISTORY_MAX_BYTES)]);
  });

  it(`keeps the history of the ${HISTORY_MAX_SESSIONS} sessions used last`, () => {
    const storage = new MemoryStorage();
    let clock = 0;
    for (let i = 0; i < HISTORY_MAX_SESSIONS + 3; i++) new ComposerHistory(storage, `t${i}`, () => ++clock).add(`in t${i}`);
    expect(new ComposerHistory(storage, 't0').entries()).toEqual([]);
    expect(new ComposerHistory(storage, 't2').entries()).toEqual([]);
    expect(new ComposerHistory(storage, 't3').entries()).toEqual(['in t3']);
    expect(new ComposerHistory(storage, `t${HISTORY_MAX_SESSIONS + 2}`).entries()).toEqual([`in t${HISTORY_MAX_SESSIONS + 2}`]);
  });

  it('reads a damaged or foreign value as empty, and survives a full or missing storage', () => {
    const storage = new MemoryStorage();
    storage.items.set(HISTORY_STORAGE_KEY, '{not json');
    expect(new ComposerHistory(storage, 't1').entries()).toEqual([]);
    storage.items.set(HISTORY_STORAGE_KEY, JSON.stringify({ v: 1, sessions: { t1: { at: 1, entries: ['ok', 42, 'x'.repeat(5000)] } } }));
    expect(new ComposerHistory(storage, 't1').entries()).toEqual(['ok']);
    storage.full = true;
    expect(new ComposerHistory(storage, 't1').add('more')).toEqual(['ok', 'more']);
    expect(new ComposerHistory(null, 't1').add('anything')).toEqual(['anything']);
    expect(new ComposerHistory(null, 't1').entries()).toEqual([]);
  });
});

describe('walking the history from the field', () => {
  it('goes back with up, forward with down, and ends on the draft it left', () => {
    const c = new HistoryCursor(['first', 'second', 'third']);
    expect(c.browsing).toBe(false);
    expect(c.up('half written')).toBe('third');
    expect(c.browsing).toBe(true);
    expect(c.up('third')).toBe('second');
    expect(c.up('second')).toBe('first');
    expect(c.up('first')).toBeNull();
    expect(c.down()).toBe('second');
    expect(c.down()).toBe('third');
    expect(c.down()).toBe('half written');
    expect(c.browsing).toBe(false);
    expect(c.down()).toBeNull();
  });

  it('has nothing to go to with no history, and starts over after a send', () => {
    const empty = new HistoryCursor([]);
    expect(empty.up('x')).toBeNull();
    expect(empty.down()).toBeNull();
    const c = new HistoryCursor(['one']);
    expect(c.up('')).toBe('one');
    c.reset(['one', 'two']);
    expect(c.browsing).toBe(false);
    expect(c.up('')).toBe('two');
    expect(c.down()).toBe('');
  });
});
