/**
 * What the inbox shows and the bell counts, worked out from the live state: the open
 * approvals, the sessions whose Claude waits in the terminal with no approval to answer, and
 * the sessions ready for review. A session is a tab, or a Claude started outside pocketmux
 * that reports through the user hooks. Pure, so the order and the count are tested apart
 * from the screen.
 */
import { AGENT_NAMES } from '../../protocol/agents.js';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import type { MachineSummary } from '../../protocol/machine-key.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { visibleText } from '../../protocol/safe-text.js';
import { parseSessionKey } from '../../protocol/session-key.js';
import type { TabStatus } from '../../protocol/status.js';
import { awayMachine, groupName, OUTSIDE_GROUP, outsideLabel, tabLabel } from './labels.js';
import { hasTimeline } from './tab-status.js';

/** Where a tab lives in the list. */
export interface TabPlace {
  workspace: WorkspaceView;
  tab: TabView;
}

/** A Claude started outside pocketmux, as the sync channel lists it. */
export interface OutsidePlace {
  outside: OutsideSessionView;
}

/** Where a session lives in the list: a workspace's tab, or the "Outside pocketmux" group. */
export type SessionPlace = TabPlace | OutsidePlace;

/** What the list is made of: the workspaces with their tabs, and the sessions outside them. */
export interface SessionLists {
  workspaces: readonly WorkspaceView[];
  outside: readonly OutsideSessionView[];
  /** The linked machines some of them are on; none for an agent that links none. */
  machines?: readonly MachineSummary[];
}

/** A linked machine that does not answer (since when), as its cards say instead of offering answers. */
export type AwayMachine = Pick<MachineSummary, 'name' | 'since'>;

export function isOutsidePlace(place: SessionPlace | undefined): place is OutsidePlace {
  return place !== undefined && 'outside' in place;
}

export interface ApprovalEntry {
  approval: Approval;
  /** The session that asks; undefined for one the list does not show (yet). */
  place: SessionPlace | undefined;
  /** Set while a card settled elsewhere says so ("Already approved by Pixel 8") before it leaves. */
  note: string | null;
  /** A settled card that stays until the person puts it away (a guardrail decided for them). */
  kept?: boolean;
  /** An unread screen answered by a key, in its place while the screen that follows is awaited. */
  following?: boolean;
  /** Its machine does not answer: the card is read, not answered, until it is back. */
  away?: AwayMachine | undefined;
}

export interface TabEntry {
  /** The tab's id, or the outside session's key: what its status, terminal and timeline go by. */
  key: string;
  place: SessionPlace;
  status: TabStatus;
  /** Its machine does not answer: nothing is sent to it until it is back. */
  away?: AwayMachine | undefined;
}

export interface Inbox {
  /** Questions Claude put to the person, oldest first. */
  approvals: ApprovalEntry[];
  /** Sessions that need input with no open approval: Claude waits in the terminal. Longest waiting first. */
  waiting: TabEntry[];
  /** Sessions whose Claude finished its turn, longest waiting first. */
  review: TabEntry[];
}

/** An approval this device learnt was settled elsewhere, shown a moment longer with a note. */
export interface SettlingApproval {
  approval: Approval;
  note: string;
  /** Stays until put away, rather than a moment. */
  kept?: boolean;
}

/**
 * The settling cards with `approval` kept (until put away) with `note`: one card an approval,
 * and past `max` kept cards the oldest kept one goes, so an absent person's inbox stays bounded.
 */
export function withKept(settling: readonly SettlingApproval[], approval: Approval, note: string, max: number): SettlingApproval[] {
  const others = settling.filter((s) => s.approval.id !== approval.id);
  const kept = others.filter((s) => s.kept);
  const past = new Set(kept.slice(0, Math.max(0, kept.length - max + 1)));
  return [...others.filter((s) => !past.has(s)), { approval, note, kept: true }];
}

export const EMPTY_INBOX: Inbox = { approvals: [], waiting: [], review: [] };

/** Said on a card of the offline view, where its answers would be. */
export const OFFLINE_CARD_NOTE = 'Offline: answer it here once pocketmux is back.';

/** Said on a card of a machine that does not answer, where its answers would be: `act` is what waits ("answer it"). */
export function awayNote(away: AwayMachine, act: string, now = new Date()): string {
  const at = new Date(away.since);
  // A clock time today, with the day before.
  const when = at.toLocaleString(undefined, { ...(at.toDateString() === now.toDateString() ? {} : { month: 'short', day: 'numeric' }), hour: '2-digit', minute: '2-digit' });
  return `${visibleText(away.name)} has not answered since ${when}: ${act} here once it is back.`;
}

/** Oldest first; equal times keep their order, so cards never swap under a finger. */
function byAge<T>(items: T[], at: (item: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => at(a.item) - at(b.item) || a.i - b.i)
    .map(({ item }) => item);
}

/** Every session of the list by its key: the tabs, then the sessions outside pocketmux. */
export function sessionPlaces(lists: SessionLists): Map<string, SessionPlace> {
  const places = new Map<string, SessionPlace>();
  for (const workspace of lists.workspaces) for (const tab of workspace.tabs) places.set(tab.id, { workspace, tab });
  for (const outside of lists.outside) if (!places.has(outside.key)) places.set(outside.key, { outside });
  return places;
}

/**
 * The inbox, in the order it reads: approvals (questions, plans, dialogs) oldest first; then
 * the sessions that wait in the terminal; then the sessions ready for review, tabs and
 * sessions outside pocketmux alike. A session with an open approval is on its card, not again
 * as a waiting one.
 */
export function buildInbox(
  lists: SessionLists,
  statuses: Readonly<Record<string, TabStatus>>,
  approvals: readonly Approval[],
  settling: readonly SettlingApproval[] = [],
  following: readonly Approval[] = [],
): Inbox {
  const places = sessionPlaces(lists);
  const open = new Set(approvals.map((a) => a.id));
  // A card waits for the screen that follows until that screen's approval is here: never both.
  const followed = new Set(approvals.flatMap((a) => (a.follows === undefined ? [] : [a.follows])));
  // A card waiting for the screen that follows stands for its session, as an open one does.
  const asking = new Set([...approvals, ...following].map((a) => a.tabId));
  const notes = new Map(settling.map((s) => [s.approval.id, s.note]));
  const awayOf = (machine: string | undefined) => awayMachine(machine, lists.machines ?? []);
  const shown: ApprovalEntry[] = [
    ...approvals.map((approval) => ({ approval, place: places.get(approval.tabId), note: notes.get(approval.id) ?? null, away: awayOf(approval.machine) })),
    ...settling
      .filter((s) => !open.has(s.approval.id))
      .map((s) => ({ approval: s.approval, place: places.get(s.approval.tabId), note: s.note, ...(s.kept ? { kept: true } : {}) })),
    ...following
      .filter((a) => !open.has(a.id) && !followed.has(a.id) && !notes.has(a.id))
      .map((approval) => ({ approval, place: places.get(approval.tabId), note: null, following: true })),
  ];
  const waiting: TabEntry[] = [];
  const review: TabEntry[] = [];
  for (const [key, place] of places) {
    const status = statuses[key];
    if (status?.state === 'needs-input' && !asking.has(key)) waiting.push({ key, place, status });
    else if (status?.state === 'ready-for-review') review.push({ key, place, status, away: awayOf(isOutsidePlace(place) ? place.outside.machine : place.workspace.machine) });
  }
  return {
    approvals: byAge(shown, (e) => e.approval.createdAt),
    waiting: byAge(waiting, (e) => e.status.since),
    review: byAge(review, (e) => e.status.since),
  };
}

/** How many things wait on the person: the bell's number and the document title's. */
export function inboxCount(inbox: Inbox): number {
  return inbox.approvals.filter((e) => e.note === null).length + inbox.waiting.length + inbox.review.length;
}

/**
 * The same count before the list has arrived: every session the status channel knows of, the
 * agent's tabs and the Claude sessions outside pocketmux, with the approvals.
 */
export function countFromStatuses(statuses: Readonly<Record<string, TabStatus>>, approvals: readonly Approval[]): number {
  const asking = new Set(approvals.map((a) => a.tabId));
  let n = approvals.length;
  for (const [key, status] of Object.entries(statuses)) {
    if (status.state === 'ready-for-review' || (status.state === 'needs-input' && !asking.has(key))) n++;
  }
  return n;
}

/** "just now", "2 min", "3 h", "4 d": how long something has waited, short enough for a card. */
export function ageText(since: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

export type DiffLineKind = 'added' | 'removed' | 'gap' | 'context';

/** How a summary's diff line is drawn: `+` added, `-` removed, `…` lines left out, else context. */
export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  if (line.startsWith('…')) return 'gap';
  return 'context';
}

/** A card's words for where it comes from, with control and bidi characters spelled out. */
export interface PlaceNames {
  /** The workspace's name, or the group of the sessions outside pocketmux. */
  workspace: string;
  /** The tab's name, or the outside session's project. */
  tab: string;
}

/** Which agent asks or answers in a place: a Codex tab's is Codex; every other one is a Claude. */
export function agentName(place: SessionPlace | undefined): string {
  if (place && isOutsidePlace(place)) return AGENT_NAMES[place.outside.agent ?? 'claude'];
  return place && place.tab.kind !== 'shell' ? AGENT_NAMES[place.tab.kind] : 'Claude';
}

export function placeNames(place: SessionPlace | undefined, key: string): PlaceNames {
  if (!place) return parseSessionKey(key).kind === 'outside' ? { workspace: OUTSIDE_GROUP, tab: 'Claude' } : { workspace: 'pocketmux', tab: 'A tab' };
  if (isOutsidePlace(place)) return { workspace: groupName(OUTSIDE_GROUP, place.outside.machine), tab: outsideLabel(place.outside.cwd).primary };
  const { workspace, tab } = place;
  // As the tab's row names it: a Claude tab the person did not name is "Claude", a Codex tab "Codex".
  const name = tab.kind !== 'shell' && !tab.name ? AGENT_NAMES[tab.kind] : tabLabel(tab).primary;
  return { workspace: groupName(workspace.name, workspace.machine), tab: name };
}

/**
 * Whether a card may offer the session's terminal: a tab's always; an outside session's only
 * when it runs in tmux, and never while the list does not say how it runs.
 */
export function canOpenTerminal(place: SessionPlace | undefined, key: string): boolean {
  if (isOutsidePlace(place)) return place.outside.terminal === 'tmux';
  return parseSessionKey(key).kind === 'tab';
}

/** Whether a card may offer the session's conversation: every Claude outside pocketmux has one. */
export function placeHasTimeline(place: SessionPlace | undefined, status: TabStatus | undefined): boolean {
  if (!place) return false;
  if (isOutsidePlace(place)) return true;
  return hasTimeline(place.tab, status);
}

/**
 * Where a reply to a finished turn is typed: a tab's pane, the pane of an outside session in
 * tmux, or nowhere (an outside session started outside tmux has no terminal to type into).
 */
export type ReplyTarget = 'tab' | 'outside' | 'none';

export function replyTarget(place: SessionPlace): ReplyTarget {
  if (!isOutsidePlace(place)) return 'tab';
  return place.outside.terminal === 'tmux' ? 'outside' : 'none';
}
