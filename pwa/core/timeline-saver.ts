import type { TimelineEntry } from '../../protocol/timeline.js';
import { saveTimeline } from './offline-store.js';
import { saveDelay } from './offline-save-controller.js';
import { timelineRecord } from './offline-snapshot.js';


/** What of a timeline is kept offline: its entries and the Claude session they came from, once loaded. */
interface SavedState {
  readonly loaded: boolean;
  readonly sessionId: string | null;
  readonly entries: readonly TimelineEntry[];
}

/** The latest state of each timeline changed since the last write, by tab id or outside key. */
const pending = new Map<string, SavedState>();
let timer: ReturnType<typeof setTimeout> | null = null;
let lastWrite = 0;

function flush(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const now = Date.now();
  if (pending.size > 0) lastWrite = now;
  for (const [key, state] of pending) void saveTimeline(timelineRecord(key, state.sessionId, state.entries, now));
  pending.clear();
}

// A phone may end a hidden page without another word: what waits is written as it hides.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') flush();
});
window.addEventListener('pagehide', flush);

/**
 * The person sees this timeline: keep it for the offline view. A page is written at once;
 * streams of appends while Claude works gather into one write per `SAVE_DELAY_MS`. A timeline
 * still loading, or with nothing in it, is not kept.
 */
export function rememberTimeline(key: string, state: SavedState): void {
  if (!key || !state.loaded || state.entries.length === 0) return;
  pending.set(key, state);
  timer ??= setTimeout(flush, saveDelay(lastWrite, Date.now()));
}
