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

const KINDS = new Set(['prompt', 'assistant-text', 'tool-call', 'thinking', 'interrupt', 'notice']);

function isEntry(value: unknown): value is TimelineEntry {
  const v = value as Partial<TimelineEntry> | null;
  return !!v && typeof v.id === 'string' && typeof v.kind === 'string' && KINDS.has(v.kind);
}

/** A server message, or null for anything this client does not understand. */
export function parseTimelineMessage(data: unknown): TimelineServerMessage | null {
  if (typeof data !== 'string') return null;
  let msg: Partial<TimelineServerMessage> | null;
  try {
    msg = JSON.parse(data) as Partial<TimelineServerMessage> | null;
  } catch {
    return null;
  }
  if (!msg || typeof msg !== 'object') return null;
  switch (msg.type) {
    case 'timeline:page':
    case 'timeline:append': {
      if (!Array.isArray(msg.entries)) return null;
      // Entry kinds added by a newer agent are left out rather than drawn wrong.
      const entries = msg.entries.filter(isEntry);
      return msg.type === 'timeline:page'
        ? { type: 'timeline:page', tabId: String(msg.tabId ?? ''), entries, sessionId: typeof msg.sessionId === 'string' ? msg.sessionId : null }
        : { type: 'timeline:append', tabId: String(msg.tabId ?? ''), entries };
    }
    case 'timeline:reset':
      return { type: 'timeline:reset', tabId: String(msg.tabId ?? '') };
    case 'timeline:error':
      return { type: 'timeline:error', message: typeof msg.message === 'string' ? msg.message : 'the agent reported an error' };
    default:
      return null;
  }
}
