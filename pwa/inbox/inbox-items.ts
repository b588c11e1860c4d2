/**
 * What the inbox shows and the bell counts, worked out from the live state: the open
 * approvals, the tabs whose Claude waits in the terminal with no approval to answer, and the
 * tabs ready for review. Pure, so the order and the count are tested apart from the screen.
 */
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import { isUnmanagedKey } from '../../protocol/hook-contract.js';
import { visibleText } from '../../protocol/safe-text.js';
import type { TabStatus } from '../../protocol/status.js';
import { tabLabel } from '../sessions/labels.js';

/** Where a tab lives in the list. */
export interface TabPlace {
  workspace: WorkspaceView;
  tab: TabView;
}

export interface ApprovalEntry {
  approval: Approval;
  /** The tab that asks; undefined for a Claude outside pocketmux's tabs, or a tab not listed yet. */
  place: TabPlace | undefined;
  /** Set while a card settled elsewhere says so ("Already approved by Pixel 8") before it leaves. */
  note: string | null;
}

export interface TabEntry {
  place: TabPlace;
  status: TabStatus;
}

export interface Inbox {
  /** Questions Claude put to the person, oldest first. */
  approvals: ApprovalEntry[];
  /** Tabs that need input with no open approval: Claude waits in the terminal. Longest waiting first. */
  waiting: TabEntry[];
  /** Tabs whose Claude finished its turn, longest waiting first. */
  review: TabEntry[];
}

/** An approval this device learnt was settled elsewhere, shown a moment longer with a note. */
export interface SettlingApproval {
  approval: Approval;
  note: string;
}

export const EMPTY_INBOX: Inbox = { approvals: [], waiting: [], review: [] };

/** Oldest first; equal times keep their order, so cards never swap under a finger. */
function byAge<T>(items: T[], at: (item: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => at(a.item) - at(b.item) || a.i - b.i)
    .map(({ item }) => item);
}

export function tabPlaces(workspaces: readonly WorkspaceView[]): Map<string, TabPlace> {
  const places = new Map<string, TabPlace>();
  for (const workspace of workspaces) for (const tab of workspace.tabs) places.set(tab.id, { workspace, tab });
  return places;
}

/**
 * The inbox, in the order it reads: approvals (questions, plans, dialogs) oldest first; then
 * the tabs that wait in the terminal; then the tabs ready for review. A tab with an open
 * approval is on its card, not again as a waiting tab.
 */
export function buildInbox(
  workspaces: readonly WorkspaceView[],
  statuses: Readonly<Record<string, TabStatus>>,
  approvals: readonly Approval[],
  settling: readonly SettlingApproval[] = [],
): Inbox {
  const places = tabPlaces(workspaces);
  const open = new Set(approvals.map((a) => a.id));
  const asking = new Set(approvals.map((a) => a.tabId));
  const notes = new Map(settling.map((s) => [s.approval.id, s.note]));
  const shown: ApprovalEntry[] = [
    ...approvals.map((approval) => ({ approval, place: places.get(approval.tabId), note: notes.get(approval.id) ?? null })),
    ...settling.filter((s) => !open.has(s.approval.id)).map((s) => ({ approval: s.approval, place: places.get(s.approval.tabId), note: s.note })),
  ];
  const waiting: TabEntry[] = [];
  const review: TabEntry[] = [];
  for (const place of places.values()) {
    const status = statuses[place.tab.id];
    if (status?.state === 'needs-input' && !asking.has(place.tab.id)) waiting.push({ place, status });
    else if (status?.state === 'ready-for-review') review.push({ place, status });
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
 * The same count before the tab list has arrived: every tab the status channel knows of the
 * agent's own, with the approvals (a Claude outside pocketmux's tabs has no row, but its
 * approvals do have cards).
 */
export function countFromStatuses(statuses: Readonly<Record<string, TabStatus>>, approvals: readonly Approval[]): number {
  const asking = new Set(approvals.map((a) => a.tabId));
  let n = approvals.length;
  for (const [key, status] of Object.entries(statuses)) {
    if (isUnmanagedKey(key)) continue;
    if (status.state === 'ready-for-review' || (status.state === 'needs-input' && !asking.has(key))) n++;
  }
  return n;
}

/** The cards beside an open tab: that tab's first, then the others, each oldest first. */
export function approvalsBeside(entries: readonly ApprovalEntry[], tabId: string): ApprovalEntry[] {
  return [...entries.filter((e) => e.approval.tabId === tabId), ...entries.filter((e) => e.approval.tabId !== tabId)];
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
  workspace: string;
  tab: string;
}

export function placeNames(place: TabPlace | undefined, tabId: string): PlaceNames {
  if (!place) return isUnmanagedKey(tabId) ? { workspace: 'Outside pocketmux', tab: 'Claude' } : { workspace: 'pocketmux', tab: 'A tab' };
  const { workspace, tab } = place;
  // As the tab's row names it: a Claude tab the person did not name is "Claude".
  const name = tab.kind === 'claude' && !tab.name ? 'Claude' : tabLabel(tab).primary;
  return { workspace: visibleText(workspace.name), tab: name };
}
