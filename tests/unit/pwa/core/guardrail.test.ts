import { describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../../../protocol/api.js';
import type { Approval, ApprovalResolution } from '../../../../protocol/approvals.js';
import {
  deadlineText,
  deniedInText,
  guardrailChoices,
  guardrailMark,
  guardrailNote,
  guardrailOfTab,
  isGuardrailDecision,
} from '../../../../pwa/core/guardrail.js';
import { buildInbox, inboxCount, type SettlingApproval, withKept } from '../../../../pwa/core/inbox-items.js';

function tab(id: string): TabView {
  return { id, workspaceId: 'w', name: null, kind: 'claude', claudeSessionId: null, createdAt: '', cwd: '/', title: null, alive: true };
}

function workspace(id: string, afterMinutes: number | null, ...tabs: TabView[]): WorkspaceView {
  return { id, name: id, dir: '/', createdAt: '', guardrail: afterMinutes === null ? null : { afterMinutes }, tabs };
}

function resolution(by: ApprovalResolution['by']): ApprovalResolution {
  return { id: 'ap', tabId: 'a', outcome: 'denied', by, at: 1, message: null };
}

function approval(id: string): Approval {
  return {
    id,
    tabId: 'a',
    sessionId: null,
    kind: 'permission',
    tool: 'Bash',
    summary: { title: 'Bash: rm -rf build', description: null, body: null, diff: null, path: null },
    questions: [],
    options: [],
    alwaysAllow: null,
    createdAt: 1,
    expiresAt: 2,
    denyAt: null,
  };
}

describe('the guardrail setting', () => {
  it('offers leaving it in the terminal first, then the usual waits, with none pressed off the list', () => {
    expect(guardrailChoices(null)).toEqual([
      { afterMinutes: null, label: 'Leave it in the terminal' },
      { afterMinutes: 5, label: 'Deny after 5 min' },
      { afterMinutes: 10, label: 'Deny after 10 min' },
      { afterMinutes: 15, label: 'Deny after 15 min' },
      { afterMinutes: 20, label: 'Deny after 20 min' },
    ]);
  });

  it('offers a wait set through the API in its place, so the menu shows what is on', () => {
    expect(guardrailChoices({ afterMinutes: 7 }).map((c) => c.afterMinutes)).toEqual([null, 5, 7, 10, 15, 20]);
    expect(guardrailChoices({ afterMinutes: 29 }).map((c) => c.afterMinutes)).toEqual([null, 5, 10, 15, 20, 29]);
    expect(guardrailChoices({ afterMinutes: 10 }).map((c) => c.afterMinutes)).toEqual([null, 5, 10, 15, 20]);
  });

  it('never offers a wait the agent refuses', () => {
    expect(guardrailChoices({ afterMinutes: 45 }).map((c) => c.afterMinutes)).toEqual([null, 5, 10, 15, 20]);
    expect(guardrailChoices({ afterMinutes: 0 }).map((c) => c.afterMinutes)).toEqual([null, 5, 10, 15, 20]);
  });

  it('marks a workspace whose guardrail is on, and says nothing when it is off', () => {
    expect(guardrailMark({ afterMinutes: 10 })).toBe('Denies after 10 min unanswered');
    expect(guardrailMark(null)).toBeNull();
  });

  it('finds the guardrail of the workspace a tab is in', () => {
    const workspaces = [workspace('w1', null, tab('a')), workspace('w2', 15, tab('b'))];
    expect(guardrailOfTab(workspaces, 'b')).toEqual({ afterMinutes: 15 });
    expect(guardrailOfTab(workspaces, 'a')).toBeNull();
    expect(guardrailOfTab(workspaces, 'outside-s1')).toBeNull();
  });
});

describe('a card under a guardrail', () => {
  it("counts down to the agent's denyAt, and says nothing of a card the agent will not deny, whatever its workspace holds now", () => {
    const now = 1_000_000;
    expect(deadlineText({ denyAt: now + 5 * 60_000 }, now)).toBe('Denied automatically in 5 min');
    expect(deadlineText({ denyAt: now + 30_000 }, now)).toBe('Denied automatically within a minute');
    expect(deadlineText({ denyAt: null }, now)).toBeNull();
  });

  it('says in whole minutes, rounded up, when it will be denied', () => {
    const now = 1_000_000;
    expect(deniedInText(now + 9 * 60_000, now)).toBe('Denied automatically in 9 min');
    expect(deniedInText(now + 8 * 60_000 + 1, now)).toBe('Denied automatically in 9 min');
    expect(deniedInText(now + 60_000, now)).toBe('Denied automatically in 1 min');
    expect(deniedInText(now + 59_999, now)).toBe('Denied automatically within a minute');
    expect(deniedInText(now - 5_000, now)).toBe('Denied automatically within a minute');
  });
});

describe("the guardrail's decision", () => {
  it("is the agent's, under the guardrail's name; no other resolution is", () => {
    expect(isGuardrailDecision(resolution({ kind: 'agent', name: 'guardrail' }))).toBe(true);
    expect(isGuardrailDecision(resolution({ kind: 'agent', name: null }))).toBe(false);
    expect(isGuardrailDecision(resolution({ kind: 'device', name: 'guardrail' }))).toBe(false);
    expect(isGuardrailDecision(resolution({ kind: 'terminal', name: null }))).toBe(false);
  });

  it('is noted on its card with the wait it kept', () => {
    expect(guardrailNote({ afterMinutes: 10 })).toBe('Denied by the guardrail: no answer within 10 minutes');
    expect(guardrailNote({ afterMinutes: 1 })).toBe('Denied by the guardrail: no answer within 1 minute');
    expect(guardrailNote(null)).toBe('Denied by the guardrail: no answer in time');
  });

  it('stays in the inbox as a kept card that is not counted', () => {
    const ws = workspace('w', 10, tab('a'));
    const denied = approval('ap');
    const inbox = buildInbox({ workspaces: [ws], outside: [] }, {}, [], [{ approval: denied, note: guardrailNote(ws.guardrail), kept: true }]);
    expect(inbox.approvals).toEqual([{ approval: denied, place: { workspace: ws, tab: ws.tabs[0] }, note: 'Denied by the guardrail: no answer within 10 minutes', kept: true }]);
    expect(inboxCount(inbox)).toBe(0);
  });

  it('keeps at most so many denied cards, the oldest going first, and a brief note apart', () => {
    const brief: SettlingApproval = { approval: approval('brief'), note: 'Already approved by Pixel 8' };
    let settling: SettlingApproval[] = [brief];
    for (const id of ['a1', 'a2', 'a3', 'a4']) settling = withKept(settling, approval(id), `denied ${id}`, 3);
    expect(settling.map((s) => [s.approval.id, s.kept ?? false])).toEqual([
      ['brief', false],
      ['a2', true],
      ['a3', true],
      ['a4', true],
    ]);
    // The same approval twice is one card, with the newer note.
    settling = withKept(settling, approval('a3'), 'again', 3);
    expect(settling.map((s) => [s.approval.id, s.note])).toEqual([
      ['brief', 'Already approved by Pixel 8'],
      ['a2', 'denied a2'],
      ['a4', 'denied a4'],
      ['a3', 'again'],
    ]);
  });
});
