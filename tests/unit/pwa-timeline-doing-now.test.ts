import { describe, expect, it } from 'vitest';
import type { TabStatus, TabUsage } from '../../protocol/status.js';
import type { PromptEntry, TimelineEntry, ToolCallEntry } from '../../protocol/timeline.js';
import { currentTool, doingNow, doingNowText, elapsedText, nextTurnStart, usageText } from '../../pwa/timeline/doing-now.js';

const base = { at: '2026-01-01T00:00:00.000Z', offset: 0, seq: 1 };
const prompt = (id: string): PromptEntry => ({ ...base, id, kind: 'prompt', text: id, truncated: false });
const tool = (id: string, done = false, name = 'Bash', summary = 'npm test'): ToolCallEntry => ({
  ...base,
  id,
  kind: 'tool-call',
  messageId: 'm',
  toolUseId: id,
  name,
  summary,
  input: {},
  ...(done ? { result: { status: 'ok', text: '', truncated: false, at: base.at, offset: 0 } } : {}),
});
const said = (id: string): TimelineEntry => ({ ...base, id, kind: 'assistant-text', messageId: 'm', text: 'ok', truncated: false, aborted: false });

function status(state: TabStatus['state'], since: number, usage: TabUsage | null = null, compacting = false): TabStatus {
  return { state, seq: 1, claudeRunning: true, compacting, sessionId: 's', lastHookAt: since, since, transcriptPath: null, usage, lastMessage: null };
}

const usage = (contextPercent: number | null, costUsd: number | null): TabUsage => ({ model: 'opus', contextPercent, costUsd, fiveHour: null, sevenDay: null, at: 0 });

describe('the tool Claude runs now', () => {
  it('is the latest tool call without a result since the last prompt', () => {
    expect(currentTool([prompt('p1'), tool('a', true), tool('b')])?.id).toBe('b');
    expect(currentTool([prompt('p1'), tool('a'), said('s')])?.id).toBe('a');
    expect(currentTool([prompt('p1'), tool('a', true), said('s')])).toBeNull();
    expect(currentTool([])).toBeNull();
  });

  it('is none when the call was left by an earlier turn (a prompt or an interrupt came after)', () => {
    expect(currentTool([tool('a'), prompt('p2')])).toBeNull();
    expect(currentTool([tool('a'), { ...base, id: 'i', kind: 'interrupt', forToolUse: true }])).toBeNull();
  });
});

describe('the turn on screen', () => {
  it('starts when the state enters a turn, and goes on through a wait on the person', () => {
    const idle = status('idle', 100);
    const busy = status('busy', 200);
    const asking = status('needs-input', 300);
    const back = status('busy', 400);
    let start = nextTurnStart(null, undefined, idle);
    expect(start).toBeNull();
    start = nextTurnStart(start, idle, busy);
    expect(start).toBe(200);
    start = nextTurnStart(start, busy, asking);
    start = nextTurnStart(start, asking, back);
    expect(start).toBe(200);
    start = nextTurnStart(start, back, status('ready-for-review', 500));
    expect(start).toBeNull();
    expect(nextTurnStart(null, status('ready-for-review', 500), status('busy', 600))).toBe(600);
  });

  it('starts at the status when the view opens in the middle of one', () => {
    expect(nextTurnStart(null, undefined, status('busy', 700))).toBe(700);
  });
});

describe('the line above the composer', () => {
  it('says the tool, the time the turn has taken and the context used', () => {
    const d = doingNow(status('busy', 1_000, usage(43.4, 0.1234)), tool('b'), 1_000, 66_000);
    expect(d).toEqual({ what: 'Bash: npm test', tool: 'Bash', elapsed: '1m 05s', usage: '43% context · $0.12' });
    if (!d) throw new Error('no line');
    expect(doingNowText(d)).toBe('Bash: npm test · 1m 05s · 43% context · $0.12');
  });

  it('says Claude works when no tool runs, and leaves out what the status line did not report', () => {
    const d = doingNow(status('busy', 0), null, null, 12_500);
    expect(d).toEqual({ what: 'Working', tool: null, elapsed: '12s', usage: null });
    if (!d) throw new Error('no line');
    expect(doingNowText(d)).toBe('Working · 12s');
    expect(doingNow(status('busy', 0, usage(null, 1.5)), tool('t', false, 'Read', ''), 0, 0)?.what).toBe('Read');
    expect(doingNow(status('busy', 0, null, true), tool('t'), 0, 0)?.what).toBe('Compacting the conversation');
  });

  it('is hidden when Claude is not working', () => {
    for (const s of ['idle', 'needs-input', 'ready-for-review', 'unknown'] as const) expect(doingNow(status(s, 0), tool('t'), 0, 1)).toBeNull();
    expect(doingNow(undefined, null, null, 0)).toBeNull();
  });

  it('writes times and usage as people read them', () => {
    expect(elapsedText(-5)).toBe('0s');
    expect(elapsedText(59_999)).toBe('59s');
    expect(elapsedText(60_000)).toBe('1m 00s');
    expect(elapsedText(3_599_000)).toBe('59m 59s');
    expect(elapsedText(3_900_000)).toBe('1h 05m');
    expect(usageText(null)).toBeNull();
    expect(usageText(usage(null, null))).toBeNull();
    expect(usageText(usage(99.6, null))).toBe('100% context');
  });
});
