import { describe, expect, it } from 'vitest';
import { type PromptEntry, type TimelineEntry, TimelineServerMessage, type ToolCallEntry } from '../../../../protocol/timeline.js';
import { applyTimelineMessage, EMPTY_TIMELINE, type TimelineState } from '../../../../pwa/timeline/timeline-store.js';

const base = { at: '2026-01-01T00:00:00.000Z', offset: 0, seq: 1 };
const prompt = (id: string, text = id): PromptEntry => ({ ...base, id, kind: 'prompt', text, truncated: false });
const toolCall = (id: string, result?: ToolCallEntry['result']): ToolCallEntry => ({
  ...base,
  id,
  kind: 'tool-call',
  messageId: 'm',
  toolUseId: id,
  name: 'Bash',
  summary: 'ls',
  input: { command: 'ls' },
  ...(result ? { result } : {}),
});

const ids = (state: TimelineState) => state.entries.map((e) => e.id);

function page(entries: TimelineEntry[], sessionId: string | null = 's-1'): TimelineState {
  return applyTimelineMessage(EMPTY_TIMELINE, { type: 'timeline:page', tabId: 't', entries, sessionId });
}

describe('applyTimelineMessage', () => {
  it('takes a page as the whole timeline, and marks it loaded', () => {
    expect(EMPTY_TIMELINE.loaded).toBe(false);
    const state = page([prompt('a'), prompt('b')]);
    expect(state).toEqual({ entries: [prompt('a'), prompt('b')], loaded: true, sessionId: 's-1', error: null });
  });

  it('appends new entries in order, and replaces a known one where it stands', () => {
    const start = page([toolCall('t1'), prompt('b')]);
    const done = toolCall('t1', { status: 'ok', text: 'file', truncated: false, at: base.at, offset: 10 });
    const next = applyTimelineMessage(start, { type: 'timeline:append', tabId: 't', entries: [prompt('c'), done, prompt('d')] });
    expect(ids(next)).toEqual(['t1', 'b', 'c', 'd']);
    expect(next.entries[0]).toEqual(done);
    // The state is a new value; the one it came from is left as it was.
    expect(ids(start)).toEqual(['t1', 'b']);
    expect((start.entries[0] as ToolCallEntry).result).toBeUndefined();
  });

  it('keeps one entry for an id repeated within one append, the last', () => {
    const next = applyTimelineMessage(page([]), { type: 'timeline:append', tabId: 't', entries: [prompt('a', 'one'), prompt('a', 'two')] });
    expect(next.entries).toEqual([prompt('a', 'two')]);
  });

  it('returns the same state for an empty append', () => {
    const state = page([prompt('a')]);
    expect(applyTimelineMessage(state, { type: 'timeline:append', tabId: 't', entries: [] })).toBe(state);
  });

  it('forgets everything on a reset, until the page that follows', () => {
    const reset = applyTimelineMessage(page([prompt('a')]), { type: 'timeline:reset', tabId: 't' });
    expect(reset).toEqual(EMPTY_TIMELINE);
    expect(reset).not.toBe(EMPTY_TIMELINE);
    const after = applyTimelineMessage(reset, { type: 'timeline:page', tabId: 't', entries: [prompt('z')], sessionId: null });
    expect(after).toEqual({ entries: [prompt('z')], loaded: true, sessionId: null, error: null });
  });

  it('keeps the entries beside an error, and the next page clears it', () => {
    const failed = applyTimelineMessage(page([prompt('a')]), { type: 'timeline:error', message: 'transcript unreadable' });
    expect(failed).toMatchObject({ loaded: true, error: 'transcript unreadable' });
    expect(ids(failed)).toEqual(['a']);
    expect(page([prompt('b')]).error).toBeNull();
    const notLoaded = applyTimelineMessage(EMPTY_TIMELINE, { type: 'timeline:error', message: 'no' });
    expect(notLoaded.loaded).toBe(true);
  });
});

describe('TimelineServerMessage schema, as the PWA reads the wire', () => {
  it('accepts what the agent sends', () => {
    const msg = { type: 'timeline:page', tabId: 't', entries: [prompt('a'), toolCall('t1')], sessionId: 's-1' };
    expect(TimelineServerMessage.parse(JSON.parse(JSON.stringify(msg)))).toEqual(msg);
  });

  it('leaves out an entry of a kind it does not know, or a broken one, and keeps the rest', () => {
    const parsed = TimelineServerMessage.parse({
      type: 'timeline:append',
      tabId: 't',
      entries: [prompt('a'), { ...base, id: 'x', kind: 'hologram' }, { ...prompt('b'), text: 42 }, prompt('c')],
    });
    expect(parsed.type === 'timeline:append' && parsed.entries.map((e) => e.id)).toEqual(['a', 'c']);
  });

  it('refuses a message whose envelope is wrong', () => {
    expect(TimelineServerMessage.safeParse({ type: 'timeline:page', tabId: 't', entries: 'many', sessionId: null }).success).toBe(false);
    expect(TimelineServerMessage.safeParse({ type: 'timeline:page', tabId: 't', entries: [] }).success).toBe(false);
    expect(TimelineServerMessage.safeParse({ type: 'timeline:rewind', tabId: 't' }).success).toBe(false);
    expect(TimelineServerMessage.safeParse({ type: 'timeline:error' }).success).toBe(false);
  });
});
