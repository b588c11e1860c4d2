import { describe, expect, it } from 'vitest';
import type { Approval } from '../../../../protocol/approvals.js';
import { RecentIds, syncedApprovals, withOpened, withoutApproval } from '../../../../pwa/core/open-approvals.js';

function approval(id: string, createdAt: number): Approval {
  return {
    id,
    tabId: 't',
    sessionId: null,
    kind: 'permission',
    tool: 'Bash',
    summary: { title: id, description: null, body: null, diff: null, path: null },
    questions: [],
    options: [],
    alwaysAllow: null,
    createdAt,
    expiresAt: createdAt + 1,
    denyAt: null,
  };
}

const ids = (list: readonly Approval[]) => list.map((a) => a.id);
const none = new Set<string>();

describe('the open approvals', () => {
  it('takes a sync oldest first, leaving out what this socket saw resolved', () => {
    expect(ids(syncedApprovals([approval('b', 2), approval('a', 1), approval('c', 3)], none))).toEqual(['a', 'b', 'c']);
    expect(ids(syncedApprovals([approval('b', 2), approval('a', 1)], new Set(['a'])))).toEqual(['b']);
  });

  it('adds an opened approval in its place, once', () => {
    const list = syncedApprovals([approval('a', 1), approval('c', 3)], none);
    const next = withOpened(list, approval('b', 2), none);
    expect(ids(next)).toEqual(['a', 'b', 'c']);
    expect(list).toHaveLength(2);
    // A repeat, or one already resolved here, changes nothing: the same array comes back.
    expect(withOpened(next, approval('b', 2), none)).toBe(next);
    expect(withOpened(next, approval('d', 4), new Set(['d']))).toBe(next);
  });

  it('drops a resolved approval in a new array, and returns the same one when it was not there', () => {
    const list = syncedApprovals([approval('a', 1), approval('b', 2)], none);
    const next = withoutApproval(list, 'a');
    expect(ids(next)).toEqual(['b']);
    expect(ids(list)).toEqual(['a', 'b']);
    expect(withoutApproval(next, 'a')).toBe(next);
  });

  it('remembers a bounded number of resolved ids, forgetting the oldest', () => {
    const recent = new RecentIds(2);
    recent.add('a');
    recent.add('b');
    recent.add('a');
    recent.add('c');
    expect([...recent.set]).toEqual(['a', 'c']);
    recent.clear();
    expect(recent.set.size).toBe(0);
  });
});
