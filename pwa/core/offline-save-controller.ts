import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { deviceStorage, HISTORY_STORAGE_KEY } from './device-storage.js';
import type { SessionLists } from './offline-snapshot.js';

/**
 * At most one write this often: the first change is written at once (what was just seen is
 * kept even if the page ends), later ones gather until the time is up, so a burst of status
 * updates is one write.
 */
export const SAVE_DELAY_MS = 2_000;

/** How long a change waits, after a write at `lastWrite`: none once the interval has passed. */
export function saveDelay(lastWrite: number, now: number): number {
  return Math.max(0, lastWrite + SAVE_DELAY_MS - now);
}

/** The store is a chunk of its own, fetched on the first save: the first screen never waits for it. */
const store = () => import('./offline-store.js');

function sameLists(a: SessionLists, b: SessionLists | null): boolean {
  // The live controllers replace these on every change, never mutate them.
  return !!b && a.home === b.home && a.workspaces === b.workspaces && a.outside === b.outside && a.statuses === b.statuses && a.approvals === b.approvals;
}

/**
 * Keeps the app's last-known lists on this device for the offline view, as they change: at
 * most one write per `SAVE_DELAY_MS`, and the one waiting at once when the page is hidden (a
 * phone may end it there). `lists` gives null while there is nothing live to keep.
 */
export class OfflineSaveController implements ReactiveController {
  private last: SessionLists | null = null;
  private pending: SessionLists | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastWrite = 0;
  private readonly onHidden = () => {
    if (document.visibilityState === 'hidden') this.write();
  };

  constructor(
    host: ReactiveControllerHost,
    private readonly lists: () => SessionLists | null,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.onHidden);
    window.addEventListener('pagehide', this.write);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.onHidden);
    window.removeEventListener('pagehide', this.write);
    this.write();
  }

  hostUpdated(): void {
    const lists = this.lists();
    if (!lists || sameLists(lists, this.last)) return;
    this.last = lists;
    this.pending = lists;
    this.timer ??= setTimeout(this.write, saveDelay(this.lastWrite, Date.now()));
  }

  /**
   * This browser lost its access: nothing waiting is written, and everything saved is
   * deleted, the database with it, and the prompts its composer kept to send again.
   */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    this.last = null;
    deviceStorage()?.removeItem(HISTORY_STORAGE_KEY);
    void store()
      .then((s) => s.clearOfflineData())
      .catch(() => undefined);
  }

  private readonly write = () => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const lists = this.pending;
    this.pending = null;
    if (!lists) return;
    this.lastWrite = Date.now();
    // Lists come only from a live app with access, so saving is welcome again after a clear.
    void store()
      .then((s) => {
        s.allowSaves();
        return s.saveLists(lists);
      })
      .catch(() => undefined);
  };
}
