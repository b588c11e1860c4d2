import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Approval } from '../../../../protocol/approvals.js';
import { FOLLOWING_MAX, FollowingCards } from '../../../../pwa/core/following-cards.js';

function screen(id: string, follows?: string): Approval {
  return {
    id,
    tabId: 'tb-1',
    sessionId: null,
    kind: 'dialog',
    tool: null,
    summary: { title: 'Claude is waiting on a screen of its own', description: null, body: 'Resume session', diff: null, path: null },
    questions: [],
    options: [{ key: 'Enter', label: 'Enter' }],
    alwaysAllow: null,
    createdAt: 1,
    expiresAt: 2,
    denyAt: null,
    ...(follows === undefined ? {} : { follows }),
  };
}

describe('following cards', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keep an answered card until an approval that follows it is open, telling each change', () => {
    let changes = 0;
    const cards = new FollowingCards(() => changes++, 3_000);
    cards.hold(screen('ap-1'));
    expect(cards.list.map((a) => a.id)).toEqual(['ap-1']);
    cards.followedBy([screen('ap-other'), screen('ap-x', 'ap-elsewhere')]);
    expect(cards.list.map((a) => a.id)).toEqual(['ap-1']);
    cards.followedBy([screen('ap-2', 'ap-1')]);
    expect(cards.list).toEqual([]);
    expect(changes).toBe(2);
    // Its timer went with it.
    vi.runAllTimers();
    expect(changes).toBe(2);
  });

  it('let a card go when no screen follows it within the wait', () => {
    let changes = 0;
    const cards = new FollowingCards(() => changes++, 3_000);
    cards.hold(screen('ap-1'));
    vi.advanceTimersByTime(2_999);
    expect(cards.list).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(cards.list).toEqual([]);
    expect(changes).toBe(2);
  });

  it(`keep at most ${FOLLOWING_MAX}, the oldest going first, and none once cleared`, () => {
    const cards = new FollowingCards(() => undefined);
    for (let i = 0; i <= FOLLOWING_MAX; i++) cards.hold(screen(`ap-${i}`));
    expect(cards.list).toHaveLength(FOLLOWING_MAX);
    expect(cards.list[0]?.id).toBe('ap-1');
    cards.clear();
    expect(cards.list).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
