import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialStatus, nextStatus, restoredStatus, type StatusEvent } from '../../../../agent/status/reducer.js';
import { type HookPayload, parseHookPayload } from '../../../../protocol/hooks.js';
import { highestPriority, LAST_MESSAGE_MAX, type TabStatus } from '../../../../protocol/status.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332');

/** The hook payloads of one real session, in firing order. */
const captured: HookPayload[] = readFileSync(join(FIXTURES, 'hooks.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => {
    const raw = JSON.parse(l) as { hook_event_name: string };
    const parsed = parseHookPayload(raw.hook_event_name, raw);
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.payload;
  });

function payload(event: string, extra: Record<string, unknown> = {}): HookPayload {
  const base = captured.find((p) => p.hook_event_name === event) ?? { session_id: 's-1', hook_event_name: event };
  const parsed = parseHookPayload(event, { ...base, ...extra });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.payload;
}

const hook = (event: string, at: number, extra?: Record<string, unknown>): StatusEvent => ({
  kind: 'hook',
  payload: payload(event, extra),
  at,
});

function inState(state: TabStatus['state'], seq = 5): TabStatus {
  return { ...initialStatus(0), state, seq, claudeRunning: true, lastHookAt: 100, sessionId: 's-1' };
}

describe('status reducer on the captured session', () => {
  it('walks the real hook sequence through the states of the design table', () => {
    const states: string[] = [];
    let status = initialStatus(0);
    captured.forEach((p, i) => {
      status = nextStatus(status, { kind: 'hook', payload: p, at: 1000 + i }).status;
      states.push(`${p.hook_event_name}:${status.state}`);
    });
    expect(states).toEqual([
      'SessionStart:idle',
      'UserPromptSubmit:busy',
      'PreToolUse:busy',
      'PermissionRequest:needs-input',
      'Notification:needs-input',
      'PostToolUse:busy',
      'Stop:ready-for-review',
      'UserPromptSubmit:busy',
      'PreToolUse:busy',
      'PermissionRequest:needs-input',
      // "No" in the dialog ends the turn without a hook; the next prompt settles it.
      'UserPromptSubmit:busy',
      'SessionEnd:idle',
    ]);
    expect(status.seq).toBe(captured.length);
    expect(status.claudeRunning).toBe(false);
    expect(status.sessionId).toBe(captured[0]?.session_id);
  });
});

describe('status reducer, row by row', () => {
  it('SessionStart → idle, claude running', () => {
    const t = nextStatus(initialStatus(0), hook('SessionStart', 10));
    expect(t.status).toMatchObject({ state: 'idle', claudeRunning: true, seq: 1, lastHookAt: 10 });
    expect(t.effects).toEqual([]);
  });

  it('UserPromptSubmit → busy, from any state', () => {
    for (const from of ['idle', 'ready-for-review', 'unknown', 'busy'] as const) {
      expect(nextStatus(inState(from), hook('UserPromptSubmit', 200)).status.state).toBe('busy');
    }
  });

  it('PermissionRequest → needs-input at once, notifying', () => {
    const t = nextStatus(inState('busy'), hook('PermissionRequest', 200));
    expect(t.status.state).toBe('needs-input');
    expect(t.effects).toEqual([{ kind: 'notify', state: 'needs-input' }]);
  });

  it('an approval still open keeps a running Claude in needs-input, without a second notification', () => {
    const t = nextStatus(inState('busy'), { kind: 'approval-open', at: 300 });
    expect(t.status).toMatchObject({ state: 'needs-input', since: 300, seq: 5 });
    expect(t.effects).toEqual([]);
    const waiting = inState('needs-input');
    expect(nextStatus(waiting, { kind: 'approval-open', at: 300 }).status).toBe(waiting);
    const gone = { ...inState('idle'), claudeRunning: false };
    expect(nextStatus(gone, { kind: 'approval-open', at: 300 }).status).toBe(gone);
  });

  it('a dialog read off the screen gone puts the tab back where it was, silently, unless a hook moved it meanwhile', () => {
    const t = nextStatus(inState('needs-input'), { kind: 'dialog-closed', state: 'ready-for-review', at: 400 });
    expect(t.status).toMatchObject({ state: 'ready-for-review', since: 400 });
    expect(t.effects).toEqual([]);
    const busy = inState('busy');
    expect(nextStatus(busy, { kind: 'dialog-closed', state: 'idle', at: 400 }).status).toBe(busy);
    const waiting = inState('needs-input');
    expect(nextStatus(waiting, { kind: 'dialog-closed', state: 'needs-input', at: 400 }).status).toBe(waiting);
  });

  it('Notification of a permission prompt → needs-input; every other type changes nothing', () => {
    for (const type of ['permission_prompt', 'worker_permission_prompt']) {
      expect(nextStatus(inState('busy'), hook('Notification', 200, { notification_type: type })).status.state).toBe('needs-input');
    }
    for (const type of ['idle_prompt', 'auth_success', 'elicitation_dialog', undefined]) {
      const t = nextStatus(inState('busy'), hook('Notification', 200, { notification_type: type }));
      expect(t.status.state).toBe('busy');
      expect(t.effects).toEqual([]);
      // Still a hook event: the sequence moves on.
      expect(t.status.seq).toBe(6);
    }
  });

  it('a repeated needs-input does not notify twice', () => {
    const t = nextStatus(inState('needs-input'), hook('Notification', 200, { notification_type: 'permission_prompt' }));
    expect(t.effects).toEqual([]);
  });

  it('PostToolUse / PostToolUseFailure while needs-input → busy, settling the approval', () => {
    for (const event of ['PostToolUse', 'PostToolUseFailure']) {
      const t = nextStatus(inState('needs-input'), hook(event, 200, { tool_name: 'Bash' }));
      expect(t.status.state).toBe('busy');
      expect(t.effects).toEqual([{ kind: 'permission-settled', reason: 'tool-ran' }]);
    }
    // Outside needs-input they change nothing.
    expect(nextStatus(inState('busy'), hook('PostToolUse', 200)).status.state).toBe('busy');
    expect(nextStatus(inState('idle'), hook('PostToolUse', 200)).status.state).toBe('idle');
  });

  it('Stop and StopFailure → ready-for-review, notifying', () => {
    for (const event of ['Stop', 'StopFailure']) {
      const t = nextStatus(inState('busy'), hook(event, 200));
      expect(t.status.state).toBe('ready-for-review');
      expect(t.effects).toEqual([{ kind: 'notify', state: 'ready-for-review' }]);
    }
  });

  it('keeps Claude’s last answer from Stop, bounded, until the next prompt', () => {
    const done = nextStatus(inState('busy'), hook('Stop', 200, { last_assistant_message: '  All done: the command ran.\n' })).status;
    expect(done.lastMessage).toBe('All done: the command ran.');
    const long = nextStatus(inState('busy'), hook('Stop', 200, { last_assistant_message: 'x'.repeat(LAST_MESSAGE_MAX + 50) })).status;
    expect(long.lastMessage).toHaveLength(LAST_MESSAGE_MAX);
    expect(long.lastMessage?.endsWith('…')).toBe(true);
    expect(nextStatus(inState('busy'), hook('Stop', 200, { last_assistant_message: '   ' })).status.lastMessage).toBeNull();
    expect(nextStatus(done, hook('UserPromptSubmit', 300)).status.lastMessage).toBeNull();
    // A failed turn says nothing of Claude's; what it said before is not its answer to this one.
    expect(nextStatus(inState('busy'), hook('StopFailure', 200)).status.lastMessage).toBeNull();
  });

  it('PreCompact / PostCompact show and clear the compacting mark, state unchanged', () => {
    const on = nextStatus(inState('busy'), hook('PreCompact', 200, { trigger: 'auto' })).status;
    expect(on).toMatchObject({ state: 'busy', compacting: true });
    const off = nextStatus(on, hook('PostCompact', 300, { trigger: 'auto' })).status;
    expect(off).toMatchObject({ state: 'busy', compacting: false });
  });

  it('the synthetic interrupt → idle, only when newer than the last hook', () => {
    const t = nextStatus(inState('busy'), { kind: 'interrupt', at: 150 });
    expect(t.status.state).toBe('idle');
    expect(t.effects).toEqual([]);
    expect(nextStatus(inState('busy'), { kind: 'interrupt', at: 100 }).status.state).toBe('busy');
    expect(nextStatus(inState('busy'), { kind: 'interrupt', at: 50 }).status.state).toBe('busy');
    // An interrupt of a permission dialog (Esc) settles the approval.
    expect(nextStatus(inState('needs-input'), { kind: 'interrupt', at: 150 }).effects).toEqual([
      { kind: 'permission-settled', reason: 'turn-ended' },
    ]);
    // A reviewed tab is not moved by an old interrupt line.
    expect(nextStatus(inState('ready-for-review'), { kind: 'interrupt', at: 150 }).status.state).toBe('ready-for-review');
  });

  it('SessionEnd → idle, claude not running', () => {
    const t = nextStatus(inState('busy'), hook('SessionEnd', 200));
    expect(t.status).toMatchObject({ state: 'idle', claudeRunning: false });
  });

  it('claude gone from the pane → idle, claude not running', () => {
    const t = nextStatus(inState('needs-input'), { kind: 'process-gone', at: 500 });
    expect(t.status).toMatchObject({ state: 'idle', claudeRunning: false });
    expect(t.effects).toEqual([{ kind: 'permission-settled', reason: 'claude-gone' }]);
    // Process events do not count as hooks.
    expect(t.status.seq).toBe(5);
  });

  it('opening or dismissing a reviewed tab → idle; other states ignore it', () => {
    expect(nextStatus(inState('ready-for-review'), { kind: 'dismissed', at: 500 }).status.state).toBe('idle');
    for (const from of ['busy', 'needs-input', 'idle', 'unknown'] as const) {
      expect(nextStatus(inState(from), { kind: 'dismissed', at: 500 }).status.state).toBe(from);
    }
  });

  it('every hook bumps the sequence by one', () => {
    let status = inState('idle', 0);
    for (const [i, event] of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PreCompact', 'Stop'].entries()) {
      status = nextStatus(status, hook(event, 200 + i)).status;
      expect(status.seq).toBe(i + 1);
    }
  });
});

describe('restart recovery', () => {
  it('turns a persisted busy into unknown and keeps the other states', () => {
    expect(restoredStatus(inState('busy')).state).toBe('unknown');
    for (const s of ['idle', 'needs-input', 'ready-for-review'] as const) expect(restoredStatus(inState(s)).state).toBe(s);
  });

  it('settles an unknown tab without notifying', () => {
    for (const to of ['idle', 'ready-for-review', 'needs-input'] as const) {
      const t = nextStatus(inState('unknown'), { kind: 'recovered', state: to, claudeRunning: to !== 'idle', at: 900 });
      expect(t.status.state).toBe(to);
      expect(t.effects).toEqual([]);
    }
  });
});

describe('hook payload parsing', () => {
  it('accepts every captured payload, unknown fields included', () => {
    expect(captured).toHaveLength(12);
    expect((captured[0] as Record<string, unknown>).model).toBe('claude-opus-5-5');
  });

  it('refuses what it cannot use, with a message', () => {
    const cases: [string, unknown, RegExp][] = [
      ['Bogus', { session_id: 's', hook_event_name: 'Bogus' }, /unknown hook event/],
      ['Stop', null, /invalid Stop payload/],
      ['Stop', { hook_event_name: 'Stop' }, /session_id/],
      ['UserPromptSubmit', { session_id: 's', hook_event_name: 'UserPromptSubmit' }, /prompt/],
      ['PermissionRequest', { session_id: 's', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: 'rm' }, /tool_input/],
      ['Stop', { session_id: 's', hook_event_name: 'SessionEnd' }, /posted to Stop/],
      ['__proto__', { session_id: 's', hook_event_name: '__proto__' }, /unknown hook event/],
    ];
    for (const [event, body, message] of cases) {
      const r = parseHookPayload(event, body);
      expect(r.ok, `${event} ${JSON.stringify(body)}`).toBe(false);
      if (!r.ok) expect(r.error).toMatch(message);
    }
  });
});

describe('workspace dot', () => {
  it('shows the state that most needs the person', () => {
    expect(highestPriority(['idle', 'busy', 'ready-for-review'])).toBe('ready-for-review');
    expect(highestPriority(['ready-for-review', 'needs-input', 'busy'])).toBe('needs-input');
    expect(highestPriority(['idle', 'unknown'])).toBe('unknown');
    expect(highestPriority([])).toBe('idle');
  });
});

describe('a turn\u2019s changes', () => {
  const total = { files: 3, added: 40, removed: 12 };

  it('are kept once compared, with no notification, and cleared by the next prompt', () => {
    const reviewed = nextStatus(inState('ready-for-review'), { kind: 'turn-changes', total, at: 200 });
    expect(reviewed.status.turnChanges).toEqual(total);
    expect(reviewed.status.state).toBe('ready-for-review');
    expect(reviewed.effects).toEqual([]);
    // Seen and dismissed: the card is gone, the total stays until a new turn.
    expect(nextStatus(reviewed.status, { kind: 'dismissed', at: 300 }).status.turnChanges).toEqual(total);
    expect(nextStatus(reviewed.status, hook('UserPromptSubmit', 400)).status.turnChanges).toBeNull();
  });

  it('of a turn already followed by another are not taken', () => {
    const busy = inState('busy');
    expect(nextStatus(busy, { kind: 'turn-changes', total, at: 200 }).status).toBe(busy);
  });
});
