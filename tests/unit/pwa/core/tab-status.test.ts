import { describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../../../protocol/api.js';
import { CLAUDE_STATES, type ClaudeState, type TabStatus } from '../../../../protocol/status.js';
import {
  attentionCount,
  canAdopt,
  describeStatus,
  hasTimeline,
  needsPerson,
  outsideAttentionCount,
  outsideGroupState,
  STATE_LABEL,
  workspaceState,
} from '../../../../pwa/core/tab-status.js';

function status(state: ClaudeState, fields: Partial<TabStatus> = {}): TabStatus {
  return {
    state,
    seq: 1,
    claudeRunning: true,
    compacting: false,
    sessionId: 's-1',
    lastHookAt: 1,
    since: 1,
    transcriptPath: null,
    usage: null,
    lastMessage: null,
    permissionMode: null,
    turnChanges: null,
    ...fields,
  };
}

function tab(id: string, kind: TabView['kind']): TabView {
  return { id, workspaceId: 'w', name: null, kind, claudeSessionId: null, createdAt: '', cwd: '/', title: null, alive: true };
}

function workspace(...tabs: TabView[]): WorkspaceView {
  return { id: 'w', name: 'Home', dir: '/', createdAt: '', guardrail: null, tabs };
}

const claude = { kind: 'claude' } as const;
const shell = { kind: 'shell' } as const;

describe('describeStatus', () => {
  it('words every state, and marks only those that wait on the person', () => {
    for (const state of CLAUDE_STATES) {
      expect(describeStatus(claude, status(state))).toEqual({
        state,
        text: STATE_LABEL[state],
        attention: state === 'needs-input' || state === 'ready-for-review',
        compacting: false,
      });
      expect(needsPerson(state)).toBe(state === 'needs-input' || state === 'ready-for-review');
    }
  });

  it('says a Claude tab has no status yet until its first hook, and a shell tab nothing', () => {
    expect(describeStatus(claude, undefined)).toEqual({ state: 'unknown', text: 'No status yet', attention: false, compacting: false });
    expect(describeStatus(shell, undefined)).toBeNull();
  });

  it('says when claude is not running in a Claude tab', () => {
    expect(describeStatus(claude, status('idle', { claudeRunning: false }))?.text).toBe('Claude not running');
    expect(describeStatus(claude, status('ready-for-review', { claudeRunning: false }))?.text).toBe('Ready for review, Claude not running');
  });

  it('is silent for a shell tab where claude ran and left, but not while it still asks for something', () => {
    expect(describeStatus(shell, status('idle', { claudeRunning: false }))).toBeNull();
    expect(describeStatus(shell, status('idle'))?.text).toBe('Idle');
    expect(describeStatus(shell, status('ready-for-review', { claudeRunning: false }))?.text).toBe('Ready for review');
  });

  it('adds compacting to the words', () => {
    expect(describeStatus(claude, status('busy', { compacting: true }))).toEqual({
      state: 'busy',
      text: 'Working, compacting',
      attention: false,
      compacting: true,
    });
  });
});

describe('workspaceState', () => {
  it('shows the most urgent state among the tabs that speak', () => {
    const ws = workspace(tab('a', 'claude'), tab('b', 'claude'), tab('c', 'shell'));
    expect(workspaceState(ws, { a: status('busy'), b: status('needs-input') })).toBe('needs-input');
    expect(workspaceState(ws, { a: status('busy'), b: status('ready-for-review') })).toBe('ready-for-review');
    // A Claude tab with no status yet reads as unknown.
    expect(workspaceState(ws, { a: status('idle') })).toBe('unknown');
  });

  it('is null when no tab has anything to say', () => {
    expect(workspaceState(workspace(tab('c', 'shell')), {})).toBeNull();
    expect(workspaceState(workspace(), {})).toBeNull();
  });
});

describe('attentionCount', () => {
  it('counts the tabs of the workspaces given that wait on the person (a workspace card\'s "N waiting")', () => {
    const list = [workspace(tab('a', 'claude'), tab('b', 'claude')), workspace(tab('c', 'shell'), tab('d', 'claude'))];
    const statuses = {
      a: status('needs-input'),
      b: status('busy'),
      c: status('ready-for-review'),
      d: status('idle'),
      // A session outside the agent's tabs has no row, so it does not count.
      'outside-x': status('needs-input'),
    };
    expect(attentionCount(list, statuses)).toBe(2);
    expect(attentionCount([], statuses)).toBe(0);
  });
});

describe('the group of Claude sessions outside pocketmux', () => {
  it('shows the most urgent state, an outside session without a status yet as unknown', () => {
    expect(outsideGroupState([], {})).toBeNull();
    expect(outsideGroupState(['outside-a'], {})).toBe('unknown');
    expect(outsideGroupState(['outside-a', 'outside-b'], { 'outside-a': status('busy'), 'outside-b': status('ready-for-review') })).toBe('ready-for-review');
    expect(outsideGroupState(['outside-a', 'outside-b'], { 'outside-a': status('needs-input'), 'outside-b': status('ready-for-review') })).toBe('needs-input');
  });

  it('counts the sessions that wait on the person', () => {
    const statuses = { 'outside-a': status('needs-input'), 'outside-b': status('ready-for-review'), 'outside-c': status('busy'), other: status('needs-input') };
    expect(outsideAttentionCount(['outside-a', 'outside-b', 'outside-c', 'outside-d'], statuses)).toBe(2);
  });
});

describe('canAdopt', () => {
  it('offers adopting between turns and while nothing is known, never while Claude works or waits on an answer', () => {
    expect(canAdopt(undefined)).toBe(true);
    expect(canAdopt(status('idle'))).toBe(true);
    expect(canAdopt(status('ready-for-review'))).toBe(true);
    expect(canAdopt(status('unknown'))).toBe(true);
    expect(canAdopt(status('busy'))).toBe(false);
    expect(canAdopt(status('needs-input'))).toBe(false);
    // Any state added later is offered unless it is said here not to be.
    expect(CLAUDE_STATES.filter((s) => !canAdopt(status(s))).sort()).toEqual(['busy', 'needs-input']);
  });

  it('never offers it for a Codex session, which the agent does not adopt', () => {
    expect(CLAUDE_STATES.some((s) => canAdopt(status(s), 'codex'))).toBe(false);
    expect(canAdopt(undefined, 'codex')).toBe(false);
    expect(canAdopt(undefined, 'claude')).toBe(true);
  });
});

describe('hasTimeline', () => {
  it('offers the conversation for Claude tabs, and for shells with a transcript', () => {
    expect(hasTimeline(claude, undefined)).toBe(true);
    expect(hasTimeline(shell, undefined)).toBe(false);
    expect(hasTimeline(shell, status('idle'))).toBe(false);
    expect(hasTimeline(shell, status('idle', { transcriptPath: '/t.jsonl' }))).toBe(true);
    expect(hasTimeline(undefined, undefined)).toBe(false);
  });
});
