import { describe, expect, it } from 'vitest';
import type { TabStatus, TabUsage } from '../../../../protocol/status.js';
import type { MessageUsage, PromptEntry, TimelineEntry, ToolCallEntry } from '../../../../protocol/timeline.js';
import {
  currentTool,
  doingNow,
  doingNowText,
  elapsedText,
  nextTurnStart,
  tokenCountText,
  tokensText,
  turnOutputTokens,
  usageParts,
} from '../../../../pwa/timeline/doing-now.js';

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
const spent = (outputTokens: number): MessageUsage => ({ inputTokens: 10, outputTokens, cacheReadTokens: 5_000, cacheCreationTokens: 0 });
const saidIn = (id: string, messageId: string, usage?: MessageUsage): TimelineEntry => ({
  ...base,
  id,
  kind: 'assistant-text',
  messageId,
  text: 'ok',
  truncated: false,
  aborted: false,
  ...(usage ? { usage } : {}),
});

function status(state: TabStatus['state'], since: number, usage: TabUsage | null = null, compacting = false): TabStatus {
  return { state, seq: 1, claudeRunning: true, compacting, sessionId: 's', lastHookAt: since, since, transcriptPath: null, usage, lastMessage: null, permissionMode: null, turnChanges: null };
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

describe('the tokens Claude wrote this turn', () => {
  it('adds up the output tokens of each message since the last prompt', () => {
    const entries: TimelineEntry[] = [
      saidIn('old', 'msg_old', spent(9_000)),
      prompt('p1'),
      saidIn('a', 'msg_a', spent(300)),
      { ...tool('t', true), messageId: 'msg_a', usage: spent(300) },
      { ...base, id: 'th', kind: 'thinking', messageId: 'msg_b', usage: spent(900), length: 5, firstLine: 'hmm', redacted: false },
      saidIn('b', 'msg_b', spent(900)),
    ];
    expect(turnOutputTokens(entries)).toBe(1_200);
  });

  it('counts a message once, with the usage of its latest line', () => {
    expect(turnOutputTokens([prompt('p'), saidIn('a', 'm', spent(1)), saidIn('b', 'm', spent(20)), saidIn('c', 'm', spent(250))])).toBe(250);
  });

  it('is unknown until a message of the turn reports its usage', () => {
    expect(turnOutputTokens([])).toBeNull();
    expect(turnOutputTokens([saidIn('old', 'msg_old', spent(40)), prompt('p')])).toBeNull();
    expect(turnOutputTokens([prompt('p'), saidIn('a', 'msg_a')])).toBeNull();
    expect(turnOutputTokens([prompt('p'), saidIn('a', 'msg_a'), saidIn('b', 'msg_b', spent(0))])).toBe(0);
  });

  it('writes counts short, as Claude Code does', () => {
    expect([0, 950, 999, 1_000, 1_234, 9_949, 9_950, 34_400, 999_499, 999_500, 1_250_000].map(tokenCountText)).toEqual([
      '0',
      '950',
      '999',
      '1k',
      '1.2k',
      '9.9k',
      '10k',
      '34k',
      '999k',
      '1M',
      '1.3M',
    ]);
    expect(tokensText(1)).toBe('1 token');
    expect(tokensText(1_234)).toBe('1.2k tokens');
    expect(tokensText(null)).toBeNull();
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
  it('says the tool, the time the turn has taken, the tokens written and the context used', () => {
    const d = doingNow(status('busy', 1_000, usage(43.4, 0.1234)), tool('b'), 1_000, 66_000, 1_234);
    expect(d).toEqual({ what: 'Bash: npm test', tool: 'Bash', elapsed: '1m 05s', tokens: '1.2k tokens', usage: ['43% context', '$0.12'] });
    if (!d) throw new Error('no line');
    expect(doingNowText(d)).toBe('Bash: npm test · 1m 05s · 1.2k tokens · 43% context · $0.12');
  });

  it('says Claude works when no tool runs, and leaves out what neither the transcript nor the status line reported', () => {
    const d = doingNow(status('busy', 0), null, null, 12_500, null);
    expect(d).toEqual({ what: 'Working', tool: null, elapsed: '12s', tokens: null, usage: [] });
    if (!d) throw new Error('no line');
    expect(doingNowText(d)).toBe('Working · 12s');
    expect(doingNow(status('busy', 0, usage(null, 1.5)), tool('t', false, 'Read', ''), 0, 0, null)?.what).toBe('Read');
    expect(doingNow(status('busy', 0, null, true), tool('t'), 0, 0, null)?.what).toBe('Compacting the conversation');
  });

  it('is hidden when Claude is not working', () => {
    for (const s of ['idle', 'needs-input', 'ready-for-review', 'unknown'] as const) expect(doingNow(status(s, 0), tool('t'), 0, 1, 50)).toBeNull();
    expect(doingNow(undefined, null, null, 0, null)).toBeNull();
  });

  it('writes times and usage as people read them', () => {
    expect(elapsedText(-5)).toBe('0s');
    expect(elapsedText(59_999)).toBe('59s');
    expect(elapsedText(60_000)).toBe('1m 00s');
    expect(elapsedText(3_599_000)).toBe('59m 59s');
    expect(elapsedText(3_900_000)).toBe('1h 05m');
    expect(usageParts(null)).toEqual([]);
    expect(usageParts(usage(null, null))).toEqual([]);
    expect(usageParts(usage(99.6, null))).toEqual(['100% context']);
  });
});
