import { describe, expect, it } from 'vitest';
import type { WorkspaceView } from '../../../../protocol/api.js';
import type { Approval } from '../../../../protocol/approvals.js';
import type { OutsideSessionView } from '../../../../protocol/outside.js';
import type { TabStatus } from '../../../../protocol/status.js';
import { TIMELINE_FIRST_PAGE, TIMELINE_LIMITS, type AssistantTextEntry, type PromptEntry, type TimelineEntry } from '../../../../protocol/timeline.js';
import {
  boundEntries,
  OFFLINE_LIMITS,
  parseSavedTimeline,
  parseSnapshot,
  SNAPSHOT_VERSION,
  type SessionLists,
  snapshotRecord,
  timelineRecord,
} from '../../../../pwa/core/offline-snapshot.js';
import { SAVE_DELAY_MS, saveDelay } from '../../../../pwa/core/offline-save-controller.js';

const NOW = Date.parse('2026-03-04T10:30:00.000Z');

const workspace: WorkspaceView = {
  id: 'w1',
  guardrail: null,
  name: 'project',
  dir: '/home/me/project',
  createdAt: '2026-03-01T00:00:00.000Z',
  tabs: [
    { id: 't1', workspaceId: 'w1', name: null, kind: 'claude', claudeSessionId: null, createdAt: '2026-03-01T00:00:00.000Z', cwd: '/home/me/project', title: null, alive: true },
    { id: 't2', workspaceId: 'w1', name: 'logs', kind: 'shell', claudeSessionId: null, createdAt: '2026-03-01T00:00:00.000Z', cwd: '/home/me/project', title: { command: 'tail', path: '/var/log' }, alive: true },
  ],
};

const outside: OutsideSessionView = { key: 'outside-abc', sessionId: 'abc', cwd: '/home/me/web', terminal: 'none', pane: null, pid: null, firstSeenAt: NOW - 60_000 };

const status: TabStatus = {
  state: 'needs-input',
  seq: 4,
  claudeRunning: true,
  compacting: false,
  sessionId: 'sess-1',
  lastHookAt: NOW - 5_000,
  since: NOW - 5_000,
  transcriptPath: '/home/me/.claude/projects/x/sess-1.jsonl',
  usage: null,
  lastMessage: null,
  permissionMode: null,
  turnChanges: null,
};

const approval: Approval = {
  id: 'a1',
  tabId: 't1',
  sessionId: 'sess-1',
  kind: 'permission',
  tool: 'Bash',
  summary: { title: 'npm test', description: 'Run the tests', body: 'npm test', diff: null, path: null },
  questions: [],
  options: [],
  alwaysAllow: null,
  createdAt: NOW - 5_000,
  expiresAt: NOW + 600_000,
  denyAt: null,
};

const lists: SessionLists = { home: '/home/me', workspaces: [workspace], outside: [outside], statuses: { t1: status }, approvals: [approval] };

const base = { at: '2026-03-04T10:00:00.000Z', offset: 0, seq: 1 };
const prompt = (id: string, text = `prompt ${id}`): PromptEntry => ({ ...base, id, kind: 'prompt', text, truncated: false });
const answer = (id: string, text: string): AssistantTextEntry => ({ ...base, id, kind: 'assistant-text', messageId: 'm', text, truncated: false, aborted: false });

/** A stored value as IndexedDB gives it back: a structured clone, nothing shared with what was put. */
const stored = <T>(value: T): unknown => structuredClone(value);

describe('the saved lists', () => {
  it('read back as they were saved, with their version and time', () => {
    const record = snapshotRecord(lists, NOW);
    expect(record).toMatchObject({ v: SNAPSHOT_VERSION, savedAt: NOW, home: '/home/me' });
    expect(parseSnapshot(stored(record))).toEqual(record);
  });

  it('are a copy: later changes to the live lists do not reach a record made before', () => {
    const live = { ...lists, workspaces: [workspace] };
    const record = snapshotRecord(live, NOW);
    live.workspaces.push({ ...workspace, id: 'w2' });
    expect(record.workspaces.map((w) => w.id)).toEqual(['w1']);
  });

  it('drop a record of another version, or one that is not a record at all', () => {
    const record = snapshotRecord(lists, NOW);
    for (const bad of [undefined, null, 'snapshot', 42, [], {}, { ...record, v: SNAPSHOT_VERSION + 1 }, { ...record, v: 0 }, { ...record, v: undefined }]) {
      expect(parseSnapshot(stored(bad))).toBeNull();
    }
  });

  it('drop a damaged record whole rather than show part of it', () => {
    const record = snapshotRecord(lists, NOW);
    const damaged: unknown[] = [
      { ...record, savedAt: 'yesterday' },
      { ...record, savedAt: -1 },
      { ...record, home: null },
      { ...record, workspaces: [{ ...workspace, tabs: [{ id: 't1' }] }] },
      { ...record, outside: [{ ...outside, terminal: 'screen' }] },
      { ...record, statuses: { t1: { ...status, state: 'asleep' } } },
      { ...record, approvals: [{ ...approval, kind: 'bribe' }] },
      { ...record, approvals: 'a1' },
    ];
    for (const bad of damaged) expect(parseSnapshot(stored(bad))).toBeNull();
  });
});

describe('a saved timeline', () => {
  it('reads back under its own key only', () => {
    const record = timelineRecord('t1', 'sess-1', [prompt('p1'), answer('a1', '**done**')], NOW);
    expect(record).toMatchObject({ v: SNAPSHOT_VERSION, key: 't1', savedAt: NOW, sessionId: 'sess-1' });
    expect(parseSavedTimeline(stored(record), 't1')).toEqual(record);
    expect(parseSavedTimeline(stored(record), 't2')).toBeNull();
  });

  it('is dropped when of another version, damaged, or longer than the limit', () => {
    const record = timelineRecord('t1', null, [prompt('p1')], NOW);
    const tooLong = Array.from({ length: OFFLINE_LIMITS.entries + 1 }, (_, i) => prompt(`p${i}`));
    const damaged: unknown[] = [
      null,
      { ...record, v: SNAPSHOT_VERSION + 1 },
      { ...record, key: '' },
      { ...record, entries: [{ ...prompt('p1'), kind: 'poem' }] },
      { ...record, entries: [{ ...prompt('p1'), text: 7 }] },
      { ...record, entries: tooLong },
      { ...record, sessionId: 12 },
    ];
    for (const bad of damaged) expect(parseSavedTimeline(stored(bad), 't1')).toBeNull();
  });
});

describe('the bounds of a saved timeline', () => {
  it('keeps the newest entries, as many as the agent’s first page holds', () => {
    expect(OFFLINE_LIMITS.entries).toBe(TIMELINE_FIRST_PAGE);
    const entries = Array.from({ length: OFFLINE_LIMITS.entries + 50 }, (_, i) => prompt(`p${i}`));
    const kept = boundEntries(entries);
    expect(kept).toHaveLength(OFFLINE_LIMITS.entries);
    expect(kept[0]?.id).toBe('p50');
    expect(kept.at(-1)?.id).toBe(`p${OFFLINE_LIMITS.entries + 49}`);
    // What is stored is bounded the same way.
    expect(timelineRecord('t1', null, entries, NOW).entries).toEqual(kept);
  });

  it('keeps no more characters than the limit: the newest entries that fit, in order', () => {
    const big = (id: string) => answer(id, 'x'.repeat(1_000));
    const entries: TimelineEntry[] = [big('a'), big('b'), big('c'), big('d')];
    const size = JSON.stringify(big('a')).length;
    const kept = boundEntries(entries, { entries: 100, timelineChars: size * 2 + 10 });
    expect(kept.map((e) => e.id)).toEqual(['c', 'd']);
  });

  it('leaves out an entry too large to keep, and everything before it: what is kept is the end of the conversation', () => {
    const entries: TimelineEntry[] = [prompt('first'), answer('huge', 'x'.repeat(5_000)), prompt('last')];
    const kept = boundEntries(entries, { entries: 100, timelineChars: 1_000 });
    expect(kept.map((e) => e.id)).toEqual(['last']);
  });

  it('keeps a short conversation whole', () => {
    const entries = [prompt('p1'), answer('a1', 'hello'), prompt('p2')];
    expect(boundEntries(entries)).toEqual(entries);
    expect(boundEntries([])).toEqual([]);
  });

  it('stays within its character budget for the largest entries the agent sends', () => {
    // Every answer at the agent's own size limit: the budget, not the count, is what holds.
    const entries = Array.from({ length: OFFLINE_LIMITS.entries }, (_, i) => answer(`a${i}`, 'y'.repeat(TIMELINE_LIMITS.text)));
    const kept = boundEntries(entries);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(entries.length);
    expect(kept.reduce((n, e) => n + JSON.stringify(e).length, 0)).toBeLessThanOrEqual(OFFLINE_LIMITS.timelineChars);
  });
});

describe('how often the lists and timelines are written', () => {
  it('writes a first change at once, and later ones no sooner than the interval after the last write', () => {
    expect(saveDelay(0, NOW)).toBe(0);
    expect(saveDelay(NOW - SAVE_DELAY_MS - 1, NOW)).toBe(0);
    expect(saveDelay(NOW, NOW)).toBe(SAVE_DELAY_MS);
    expect(saveDelay(NOW - 500, NOW)).toBe(SAVE_DELAY_MS - 500);
  });
});
