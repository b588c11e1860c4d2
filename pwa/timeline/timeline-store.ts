import type { TimelineEntry, TimelineServerMessage } from '../../protocol/timeline.js';

export interface TimelineState {
  entries: readonly TimelineEntry[];
  /** False from a reset until the page that follows it. */
  loaded: boolean;
  sessionId: string | null;
  /** The agent's last complaint, until the next page. */
  error: string | null;
}

export const EMPTY_TIMELINE: TimelineState = { entries: [], loaded: false, sessionId: null, error: null };

/**
 * The next timeline after one message. Entries are keyed by id: an append carrying a known
 * id (a tool call whose result arrived) replaces it where it stands, anything else goes last.
 */
export function applyTimelineMessage(state: TimelineState, msg: TimelineServerMessage): TimelineState {
  switch (msg.type) {
    case 'timeline:page':
      return { entries: msg.entries, loaded: true, sessionId: msg.sessionId, error: null };
    case 'timeline:append': {
      if (msg.entries.length === 0) return state;
      const entries = state.entries.slice();
      const index = new Map(entries.map((e, i) => [e.id, i]));
      for (const entry of msg.entries) {
        const at = index.get(entry.id);
        if (at === undefined) {
          index.set(entry.id, entries.length);
          entries.push(entry);
        } else {
          entries[at] = entry;
        }
      }
      return { ...state, entries };
    }
    case 'timeline:reset':
      return { ...EMPTY_TIMELINE };
    case 'timeline:error':
      return { ...state, loaded: true, error: msg.message };
  }
}
