import { describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../../../protocol/api.js';
import type { Approval } from '../../../../protocol/approvals.js';
import type { MachineSummary } from '../../../../protocol/machine-key.js';
import type { OutsideSessionView } from '../../../../protocol/outside.js';
import type { ClaudeState, TabStatus } from '../../../../protocol/status.js';
import {
  agentName,
  ageText,
  awayNote,
  buildInbox,
  canOpenTerminal,
  countFromStatuses,
  diffLineKind,
  EMPTY_INBOX,
  inboxCount,
  placeHasTimeline,
  placeNames,
  replyTarget,
  type SessionLists,
} from '../../../../pwa/core/inbox-items.js';

function status(state: ClaudeState, since = 1, fields: Partial<TabStatus> = {}): TabStatus {
  return {
    state,
    seq: 1,
    claudeRunning: true,
    compacting: false,
    sessionId: 's-1',
    lastHookAt: 1,
    since,
    transcriptPath: null,
    usage: null,
    lastMessage: null,
    permissionMode: null,
    turnChanges: null,
    ...fields,
  };
}

function tab(id: string, fields: Partial<TabView> = {}): TabView {
  return { id, workspaceId: 'w', name: null, kind: 'claude', claudeSessionId: null, createdAt: '', cwd: '/', title: null, alive: true, ...fields };
}

function workspace(id: string, ...tabs: TabView[]): WorkspaceView {
  return { id, name: `Workspace ${id}`, dir: '/', createdAt: '', guardrail: null, tabs };
}

function outside(sessionId: string, fields: Partial<OutsideSessionView> = {}): OutsideSessionView {
  return { key: `outside-${sessionId}`, sessionId, cwd: `/home/ada/${sessionId}`, terminal: 'tmux', pane: '%1', pid: null, firstSeenAt: 1, ...fields };
}

/** The list as the sync channel gives it. */
function lists(workspaces: WorkspaceView[], ...outsides: OutsideSessionView[]): SessionLists {
  return { workspaces, outside: outsides };
}

function approval(id: string, tabId: string, createdAt: number, fields: Partial<Approval> = {}): Approval {
  return {
    id,
    tabId,
    sessionId: null,
    kind: 'permission',
    tool: 'Bash',
    summary: { title: `Bash: ${id}`, description: null, body: null, diff: null, path: null },
    questions: [],
    options: [],
    alwaysAllow: null,
    createdAt,
    expiresAt: createdAt + 590_000,
    denyAt: null,
    ...fields,
  };
}

const ids = (entries: { approval: Approval }[]) => entries.map((e) => e.approval.id);
const keys = (entries: { key: string }[]) => entries.map((e) => e.key);

describe('buildInbox', () => {
  const list = [workspace('w1', tab('a'), tab('b'), tab('c')), workspace('w2', tab('d'), tab('e', { kind: 'shell' }), tab('f'))];

  it('puts approvals first, oldest first, then the tabs that wait in the terminal, then those to review', () => {
    const inbox = buildInbox(lists(list),
      {
        a: status('needs-input', 50),
        b: status('needs-input', 10),
        c: status('ready-for-review', 30),
        d: status('ready-for-review', 20),
        e: status('busy'),
        f: status('needs-input', 5),
      },
      [approval('late', 'a', 300), approval('early', 'outside-xyz', 100), approval('middle', 'f', 200)],
    );
    expect(ids(inbox.approvals)).toEqual(['early', 'middle', 'late']);
    // a and f have open approvals: they are on their cards, not again as waiting tabs.
    expect(keys(inbox.waiting)).toEqual(['b']);
    expect(keys(inbox.review)).toEqual(['d', 'c']);
    expect(inbox.approvals[0]?.place).toBeUndefined();
    expect(inbox.approvals[1]?.place).toMatchObject({ workspace: { id: 'w2' } });
    expect(inboxCount(inbox)).toBe(6);
  });

  it('keeps the order of equal times, so cards never swap', () => {
    const inbox = buildInbox(lists(list), {}, [approval('x', 'a', 5), approval('y', 'b', 5), approval('z', 'c', 5)]);
    expect(ids(inbox.approvals)).toEqual(['x', 'y', 'z']);
  });

  it('is empty when nothing waits, and counts nothing', () => {
    const inbox = buildInbox(lists(list), { a: status('idle'), b: status('busy'), c: status('unknown') }, []);
    expect(inbox).toEqual(EMPTY_INBOX);
    expect(inboxCount(inbox)).toBe(0);
  });

  it('leaves out tabs the list does not show, but not their approvals', () => {
    const inbox = buildInbox(lists(list), { gone: status('ready-for-review'), 'outside-x': status('needs-input') }, [approval('p', 'outside-x', 1)]);
    expect(inbox.review).toEqual([]);
    expect(inbox.waiting).toEqual([]);
    expect(inboxCount(inbox)).toBe(1);
  });

  it('shows an approval settled elsewhere a moment longer, with its note, without counting it', () => {
    const settled = approval('gone', 'b', 150);
    const inbox = buildInbox(lists(list), { b: status('needs-input') }, [approval('open', 'a', 200)], [{ approval: settled, note: 'Already approved by Pixel 8' }]);
    expect(inbox.approvals.map((e) => [e.approval.id, e.note])).toEqual([
      ['gone', 'Already approved by Pixel 8'],
      ['open', null],
    ]);
    // With its approval gone, tab b waits in the terminal as far as anyone knows.
    expect(keys(inbox.waiting)).toEqual(['b']);
    expect(inboxCount(inbox)).toBe(2);
  });

  it("keeps an unread screen answered by a key in its place, counted, until the screen that follows is open; then that one there", () => {
    const screen = { summary: { title: 'Claude is waiting on a screen of its own', description: null, body: 'Resume session', diff: null, path: null }, kind: 'dialog' as const };
    const answered = approval('first', 'b', 150, screen);
    const statuses = { b: status('needs-input') };
    const waiting = buildInbox(lists(list), statuses, [approval('open', 'a', 100), approval('later', 'c', 200)], [], [answered]);
    expect(waiting.approvals.map((e) => [e.approval.id, e.following === true])).toEqual([
      ['open', false],
      ['first', true],
      ['later', false],
    ]);
    // Its session is on its card, not again as one waiting in the terminal.
    expect(keys(waiting.waiting)).toEqual([]);
    expect(inboxCount(waiting)).toBe(3);

    const next = approval('next', 'b', 150, { ...screen, follows: 'first' });
    const followed = buildInbox(lists(list), statuses, [approval('open', 'a', 100), next, approval('later', 'c', 200)], [], [answered]);
    expect(ids(followed.approvals)).toEqual(['open', 'next', 'later']);
    expect(followed.approvals.some((e) => e.following)).toBe(false);
  });

  it('marks the cards of a linked machine that does not answer, since when, and no other machine’s', () => {
    const since = new Date(2026, 11, 4, 10, 42).getTime();
    const machines: MachineSummary[] = [
      { id: 'mc-down', name: 'Build box', reach: 'unreachable', since, problem: 'connection refused' },
      { id: 'mc-up', name: 'Laptop', reach: 'ok', since: 1, problem: null },
      { id: 'mc-new', name: 'Studio', reach: 'unknown', since: 1, problem: null },
    ];
    const on = (machine: string, ...tabs: TabView[]) => ({ ...workspace(machine, ...tabs), machine });
    const all = [on('mc-down', tab('mc-down~a')), on('mc-up', tab('mc-up~b')), on('mc-new', tab('mc-new~c')), workspace('own', tab('d'))];
    const outsider = { ...outside('x'), key: 'mc-down~outside-x', machine: 'mc-down' };
    const review = status('ready-for-review');
    const inbox = buildInbox(
      { workspaces: all, outside: [outsider], machines },
      { 'mc-down~a': review, 'mc-up~b': review, 'mc-new~c': review, d: review, 'mc-down~outside-x': review },
      [approval('mc-down~p', 'mc-down~a', 1, { machine: 'mc-down' }), approval('mc-up~p', 'mc-up~b', 2, { machine: 'mc-up' }), approval('own', 'd', 3)],
    );
    const away = machines[0];
    expect(inbox.approvals.map((e) => [e.approval.id, e.away])).toEqual([
      ['mc-down~p', away],
      ['mc-up~p', undefined],
      ['own', undefined],
    ]);
    expect(inbox.review.map((e) => [e.key, e.away])).toEqual([
      ['mc-down~a', away],
      ['mc-up~b', undefined],
      ['mc-new~c', undefined],
      ['d', undefined],
      ['mc-down~outside-x', away],
    ]);
    // Still counted: it waits on the person all the same.
    expect(inboxCount(inbox)).toBe(8);
    expect(awayNote({ name: 'Build box', since }, 'answer it', new Date(since + 60_000))).toMatch(/^Build box has not answered since 10:42 ?(AM)?: answer it here once it is back\.$/);
  });

  it('spells out control and bidi characters of a machine’s name in its note', () => {
    expect(awayNote({ name: 'box\u202etxt', since: Date.now() }, 'reply')).toContain('box\\u202etxt has not answered');
  });
});

describe('countFromStatuses', () => {
  it('counts before the list arrives as the inbox will once it has, outside sessions too', () => {
    const statuses = {
      a: status('needs-input'),
      b: status('needs-input'),
      c: status('ready-for-review'),
      d: status('busy'),
      'outside-x': status('ready-for-review'),
      'outside-z': status('needs-input'),
    };
    const approvals = [approval('1', 'a', 1), approval('2', 'outside-y', 2), approval('3', 'outside-z', 3)];
    expect(countFromStatuses(statuses, approvals)).toBe(6);
    const list = [workspace('w', tab('a'), tab('b'), tab('c'), tab('d'))];
    expect(inboxCount(buildInbox(lists(list, outside('x'), outside('y'), outside('z')), statuses, approvals))).toBe(6);
    expect(countFromStatuses({}, [])).toBe(0);
  });
});

describe('outside sessions in the inbox', () => {
  const list = [workspace('w1', tab('a'), tab('b'))];
  const tmux = outside('in-tmux', { cwd: '/home/ada/api' });
  const plain = outside('plain', { cwd: '/home/ada/web/', terminal: 'none', pane: null });

  it('puts them among the tabs that wait and those to review, by how long they waited', () => {
    const inbox = buildInbox(
      lists(list, tmux, plain),
      {
        a: status('ready-for-review', 30),
        b: status('needs-input', 40),
        [tmux.key]: status('ready-for-review', 10),
        [plain.key]: status('needs-input', 20),
      },
      [],
    );
    expect(keys(inbox.waiting)).toEqual([plain.key, 'b']);
    expect(keys(inbox.review)).toEqual([tmux.key, 'a']);
    expect(inbox.review[0]?.place).toEqual({ outside: tmux });
    expect(inboxCount(inbox)).toBe(4);
  });

  it('gives an outside approval its session, and leaves it out of those waiting in the terminal', () => {
    const inbox = buildInbox(lists(list, plain), { [plain.key]: status('needs-input') }, [approval('q', plain.key, 1)]);
    expect(inbox.approvals[0]?.place).toEqual({ outside: plain });
    expect(inbox.waiting).toEqual([]);
    expect(inboxCount(inbox)).toBe(1);
  });

  it('leaves out a session the list does not show', () => {
    const inbox = buildInbox(lists(list), { [tmux.key]: status('ready-for-review') }, []);
    expect(inbox.review).toEqual([]);
  });

  it('names its cards by the group and the project', () => {
    expect(placeNames({ outside: tmux }, tmux.key)).toEqual({ workspace: 'Outside pocketmux', tab: 'api' });
    expect(placeNames({ outside: plain }, plain.key)).toEqual({ workspace: 'Outside pocketmux', tab: 'web' });
    expect(placeNames({ outside: outside('n', { cwd: null }) }, 'outside-n').tab).toBe('Claude');
    expect(placeNames({ outside: outside('s', { cwd: '/srv/report\u202etxt' }) }, 'outside-s').tab).toBe('report\\u202etxt');
  });

  it('offers the terminal only where there is one, the timeline always, and a reply only into tmux', () => {
    expect(canOpenTerminal({ outside: tmux }, tmux.key)).toBe(true);
    expect(canOpenTerminal({ outside: plain }, plain.key)).toBe(false);
    // Not listed (yet): a tab's terminal is still there to open; an outside one's is not known.
    expect(canOpenTerminal(undefined, 'a')).toBe(true);
    expect(canOpenTerminal(undefined, 'outside-q')).toBe(false);
    const ws = workspace('w', tab('a'));
    expect(canOpenTerminal({ workspace: ws, tab: tab('a') }, 'a')).toBe(true);

    expect(placeHasTimeline({ outside: plain }, undefined)).toBe(true);
    expect(placeHasTimeline({ workspace: ws, tab: tab('s', { kind: 'shell' }) }, undefined)).toBe(false);
    expect(placeHasTimeline(undefined, status('idle'))).toBe(false);

    expect(replyTarget({ workspace: ws, tab: tab('a') })).toBe('tab');
    expect(replyTarget({ outside: tmux })).toBe('outside');
    expect(replyTarget({ outside: plain })).toBe('none');
  });
});

describe('placeNames', () => {
  it('names a card as the list names its tab, control and bidi characters spelled out', () => {
    const ws = workspace('w', tab('a'));
    ws.name = 'report\u202etxt';
    expect(placeNames({ workspace: ws, tab: tab('a') }, 'a')).toEqual({ workspace: 'report\\u202etxt', tab: 'Claude' });
    expect(placeNames({ workspace: ws, tab: tab('a', { name: 'fix\u001b[2J' }) }, 'a').tab).toBe('fix\\x1b[2J');
    expect(placeNames({ workspace: ws, tab: tab('a', { kind: 'shell', title: { command: 'bash', path: '/' } }) }, 'a').tab).toBe('bash');
    expect(placeNames(undefined, 'outside-abc')).toEqual({ workspace: 'Outside pocketmux', tab: 'Claude' });
  });
});

describe('ageText', () => {
  it('says how long, short', () => {
    const now = 10_000_000;
    expect(ageText(now - 5_000, now)).toBe('just now');
    expect(ageText(now + 5_000, now)).toBe('just now');
    expect(ageText(now - 120_000, now)).toBe('2 min');
    expect(ageText(now - 59 * 60_000, now)).toBe('59 min');
    expect(ageText(now - 3 * 3_600_000, now)).toBe('3 h');
    expect(ageText(now - 50 * 3_600_000, now)).toBe('2 d');
  });
});

describe('diffLineKind', () => {
  it('reads the prefix the agent gave each line', () => {
    expect(['+a', '-b', ' c', '…', '… 12 more lines', ''].map(diffLineKind)).toEqual(['added', 'removed', 'context', 'gap', 'gap', 'context']);
  });
});

describe('which agent a place names', () => {
  const outside = (agent?: OutsideSessionView['agent']): OutsideSessionView => ({ key: 'outside-s', ...(agent ? { agent } : {}), sessionId: 's', cwd: null, terminal: 'none', pane: null, pid: null, firstSeenAt: 0 });
  it('names an outside session by the CLI it runs, a Claude when an older agent did not say', () => {
    expect(agentName({ outside: outside('codex') })).toBe('Codex');
    expect(agentName({ outside: outside('claude') })).toBe('Claude');
    expect(agentName({ outside: outside() })).toBe('Claude');
    expect(agentName(undefined)).toBe('Claude');
  });
});
