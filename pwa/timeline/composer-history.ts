/**
 * What was sent from this device's composer, per session, in localStorage: the prompts the
 * person can bring back with ↑ (or the history button on a touch screen) and send again.
 */

import { HISTORY_STORAGE_KEY } from '../core/device-storage.js';

export { HISTORY_STORAGE_KEY };

/** Prompts kept per session, the newest last. */
export const HISTORY_MAX_ENTRIES = 50;
/** A prompt larger than this (UTF-8) is sent but not kept: a cut prompt recalled would be another one. */
export const HISTORY_MAX_BYTES = 4 * 1024;
/** Sessions whose history is kept; the one used longest ago goes first. */
export const HISTORY_MAX_SESSIONS = 20;

export type HistoryStorage = Pick<Storage, 'getItem' | 'setItem'>;

interface StoredHistory {
  v: 1;
  sessions: Record<string, { at: number; entries: string[] }>;
}

const encoder = new TextEncoder();

function read(storage: HistoryStorage | null): StoredHistory {
  const empty: StoredHistory = { v: 1, sessions: {} };
  if (!storage) return empty;
  try {
    const parsed = JSON.parse(storage.getItem(HISTORY_STORAGE_KEY) ?? 'null') as Partial<StoredHistory> | null;
    if (parsed?.v !== 1 || typeof parsed.sessions !== 'object' || parsed.sessions === null) return empty;
    const sessions: StoredHistory['sessions'] = {};
    for (const [key, value] of Object.entries(parsed.sessions)) {
      if (!value || !Array.isArray(value.entries)) continue;
      const entries = value.entries.filter((e): e is string => typeof e === 'string' && keepable(e)).slice(-HISTORY_MAX_ENTRIES);
      sessions[key] = { at: typeof value.at === 'number' ? value.at : 0, entries };
    }
    return { v: 1, sessions };
  } catch {
    return empty;
  }
}

function keepable(text: string): boolean {
  return text.trim() !== '' && encoder.encode(text).length <= HISTORY_MAX_BYTES;
}

/** This device's history of one session (a tab's id, or an outside session's key). */
export class ComposerHistory {
  constructor(
    private readonly storage: HistoryStorage | null,
    private readonly key: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Oldest first. */
  entries(): string[] {
    return read(this.storage).sessions[this.key]?.entries ?? [];
  }

  /**
   * Keeps a sent prompt as the newest entry: one sent again moves to the end rather than
   * standing twice. Returns the entries as now kept.
   */
  add(text: string): string[] {
    const stored = read(this.storage);
    const before = stored.sessions[this.key]?.entries ?? [];
    if (!keepable(text)) return before;
    const entries = [...before.filter((e) => e !== text), text].slice(-HISTORY_MAX_ENTRIES);
    stored.sessions[this.key] = { at: this.now(), entries };
    const keys = Object.keys(stored.sessions).sort((a, b) => (stored.sessions[b]?.at ?? 0) - (stored.sessions[a]?.at ?? 0));
    for (const old of keys.slice(HISTORY_MAX_SESSIONS)) delete stored.sessions[old];
    try {
      this.storage?.setItem(HISTORY_STORAGE_KEY, JSON.stringify(stored));
    } catch {
      // Storage full or refused (private mode): the prompt was sent all the same.
    }
    return entries;
  }
}

/**
 * Walking the history from the field, as a shell does: ↑ goes to older entries, ↓ back to
 * newer ones and finally to what was being written before (the draft), which is kept.
 */
export class HistoryCursor {
  /** `entries.length` stands for the draft. */
  private index: number;
  private draft = '';

  constructor(private entries: readonly string[]) {
    this.index = entries.length;
  }

  /** Starts over at the draft, with these entries (after a send, say). */
  reset(entries: readonly string[] = this.entries): void {
    this.entries = entries;
    this.index = entries.length;
    this.draft = '';
  }

  /** Whether an entry (not the draft) is shown. */
  get browsing(): boolean {
    return this.index < this.entries.length;
  }

  /** The older entry to show, or null at the oldest. `current` is what the field holds now. */
  up(current: string): string | null {
    if (this.index === 0) return null;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index] ?? null;
  }

  /** The newer entry to show, the draft after the newest, or null when on the draft already. */
  down(): string | null {
    if (this.index >= this.entries.length) return null;
    this.index++;
    return this.index === this.entries.length ? this.draft : (this.entries[this.index] ?? null);
  }
}
