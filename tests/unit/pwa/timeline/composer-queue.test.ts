import { describe, expect, it } from 'vitest';
import type { ClaudeState } from '../../../../protocol/status.js';
import { inTurn, PromptQueue, promptText, QUEUE_FULL, takesPrompt } from '../../../../pwa/timeline/composer-queue.js';
import { inputBlock, NO_TERMINAL_INPUT } from '../../../../pwa/timeline/composer-target.js';

describe('a prompt queued while Claude works', () => {
  /** What the composer does with each state the status channel reports: the prompts it sends. */
  function run(queue: PromptQueue, states: (ClaudeState | undefined)[], claudeRunning = true): string[] {
    const sent: string[] = [];
    for (const s of states) {
      const due = queue.due(s, claudeRunning);
      if (due !== null) sent.push(due);
    }
    return sent;
  }

  it('waits while the turn goes on and is sent once when it ends', () => {
    const q = new PromptQueue();
    expect(q.offer('now the docs')).toEqual({ kind: 'queued' });
    expect(q.queued).toBe('now the docs');
    expect(run(q, ['busy', 'needs-input', 'busy', 'busy'])).toEqual([]);
    expect(run(q, ['ready-for-review', 'ready-for-review', 'idle'])).toEqual(['now the docs']);
    expect(q.queued).toBeNull();
  });

  it('is sent when the turn ends at idle too (after Esc, or a dismissed review)', () => {
    const q = new PromptQueue();
    q.offer('next');
    expect(run(q, ['busy', 'idle'])).toEqual(['next']);
  });

  it('holds while the state is unknown, or when Claude is not running', () => {
    const q = new PromptQueue();
    q.offer('next');
    expect(run(q, ['unknown', undefined])).toEqual([]);
    expect(run(q, ['idle'], false)).toEqual([]);
    expect(q.queued).toBe('next');
    expect(run(q, ['idle'])).toEqual(['next']);
  });

  it('waits while Claude shows a dialog (the tab needs the person) and goes once it is gone and the tab idle', () => {
    const q = new PromptQueue();
    q.offer('after the dialog');
    expect(run(q, ['needs-input', 'needs-input'])).toEqual([]);
    expect(q.queued).toBe('after the dialog');
    expect(run(q, ['idle'])).toEqual(['after the dialog']);
  });

  it('takes one prompt: a second is refused, and the first stays', () => {
    const q = new PromptQueue();
    q.offer('first');
    expect(q.offer('second')).toEqual({ kind: 'refused', reason: QUEUE_FULL });
    expect(q.queued).toBe('first');
  });

  it('is cancelled by taking it back: nothing is sent when the turn ends', () => {
    const q = new PromptQueue();
    q.offer('never mind');
    expect(q.take()).toBe('never mind');
    expect(q.take()).toBeNull();
    expect(run(q, ['busy', 'ready-for-review'])).toEqual([]);
    expect(q.offer('another')).toEqual({ kind: 'queued' });
  });

  it('knows a turn from the states between turns', () => {
    expect(inTurn('busy')).toBe(true);
    expect(inTurn('needs-input')).toBe(true);
    for (const s of ['idle', 'ready-for-review', 'unknown', undefined] as const) expect(inTurn(s)).toBe(false);
    expect(takesPrompt('idle')).toBe(true);
    expect(takesPrompt('ready-for-review')).toBe(true);
    for (const s of ['busy', 'needs-input', 'unknown', undefined] as const) expect(takesPrompt(s)).toBe(false);
  });
});

describe('what a prompt becomes before it is typed', () => {
  it('keeps its lines, with LF endings, and trims blank lines around it', () => {
    expect(promptText('\n\n  first line\r\nsecond\rthird\n\n  ')).toBe('  first line\nsecond\nthird');
    expect(promptText('   \n \n')).toBe('');
  });

  it('turns tabs into spaces and leaves out control characters a terminal would act on', () => {
    expect(promptText('a\tb')).toBe('a    b');
    expect(promptText('red\u001b[31m\u0007 text\u007f\u0000')).toBe('red[31m text');
  });
});

describe('whether the composer can type into a session', () => {
  const running = { claudeRunning: true };
  const gone = { claudeRunning: false };

  it('types into a Claude tab, and into a shell tab where Claude runs', () => {
    expect(inputBlock({ key: 't1', tab: { kind: 'claude' }, outside: undefined, status: running, gone: false })).toBeNull();
    expect(inputBlock({ key: 't1', tab: { kind: 'shell' }, outside: undefined, status: running, gone: false })).toBeNull();
    // Not known yet: the agent has the last word.
    expect(inputBlock({ key: 't1', tab: undefined, outside: undefined, status: undefined, gone: false })).toBeNull();
  });

  it('refuses a shell tab without Claude, and a Claude tab whose Claude has gone', () => {
    expect(inputBlock({ key: 't1', tab: { kind: 'shell' }, outside: undefined, status: undefined, gone: false })).toMatch(/it is a shell/);
    expect(inputBlock({ key: 't1', tab: { kind: 'shell' }, outside: undefined, status: gone, gone: false })).toMatch(/it is a shell/);
    expect(inputBlock({ key: 't1', tab: { kind: 'claude' }, outside: undefined, status: gone, gone: false })).toMatch(/Claude is not running in this tab/);
    expect(inputBlock({ key: 't1', tab: { kind: 'claude' }, outside: undefined, status: running, gone: true })).toMatch(/This tab is gone/);
  });

  it('types into an outside session in tmux, never into one started outside tmux', () => {
    const key = 'outside-0f1e2d3c';
    expect(inputBlock({ key, tab: undefined, outside: { terminal: 'tmux' }, status: running, gone: false })).toBeNull();
    expect(inputBlock({ key, tab: undefined, outside: { terminal: 'none' }, status: running, gone: false })).toBe(NO_TERMINAL_INPUT);
    expect(NO_TERMINAL_INPUT).toBe('No terminal to type into: started outside tmux');
    expect(inputBlock({ key, tab: undefined, outside: { terminal: 'tmux' }, status: gone, gone: false })).toMatch(/no longer running/);
  });
});
