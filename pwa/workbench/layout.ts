/**
 * The desktop split: which tabs stand side by side (or stacked) in the main area, how much room
 * each has, and which one has the keyboard. Pure: the workbench element keeps one of these,
 * every change makes a new one, and it is remembered on this device between visits.
 */
import type { TabViewMode } from '../core/router.js';
import { isTabKey } from '../core/tab-key.js';

/** `row`: side by side; `column`: stacked. */
export type SplitDirection = 'row' | 'column';

/** One pane: a tab (or an outside session's key) and which of its views shows. */
export interface PaneSpec {
  tabId: string;
  view: TabViewMode;
}

export interface Layout {
  panes: PaneSpec[];
  /** Index of the pane with the keyboard; the address bar names its tab. */
  focused: number;
  direction: SplitDirection;
  /** Each pane's share of the main area, in pane order; they add up to 1. */
  sizes: number[];
}

/** Four terminals already share a laptop screen at about 80 columns each. */
export const MAX_PANES = 4;
/** A pane never gets narrower (or lower) than this share: enough for a prompt line. */
export const MIN_SHARE = 0.15;
/** One arrow key press on a divider moves it by this share. */
export const KEY_STEP = 0.05;

export function singlePane(spec: PaneSpec): Layout {
  return { panes: [{ ...spec }], focused: 0, direction: 'row', sizes: [1] };
}

function equalSizes(n: number): number[] {
  return Array.from({ length: n }, () => 1 / n);
}

function indexOf(layout: Layout, tabId: string): number {
  return layout.panes.findIndex((p) => p.tabId === tabId);
}

/**
 * A tab asked for in the focused pane (a row in the sidebar, a shortcut, the address): where
 * it already shows, that pane takes the focus and shows the asked view; else it replaces what
 * the focused pane showed. A tab is never in two panes: two terminals of one tmux session
 * would fight over its size.
 */
export function openInFocused(layout: Layout, spec: PaneSpec): Layout {
  const at = indexOf(layout, spec.tabId);
  const target = at >= 0 ? at : layout.focused;
  const panes = layout.panes.map((p, i) => (i === target ? { ...spec } : p));
  return { ...layout, panes, focused: target };
}

/**
 * A tab opened beside the focused pane, which gives it half its room. With four panes up,
 * or where the tab already shows, it is opened as `openInFocused` would.
 */
export function openBeside(layout: Layout, spec: PaneSpec): Layout {
  if (indexOf(layout, spec.tabId) >= 0 || layout.panes.length >= MAX_PANES) return openInFocused(layout, spec);
  const at = layout.focused;
  const half = (layout.sizes[at] ?? 1 / layout.panes.length) / 2;
  const panes = [...layout.panes.slice(0, at + 1), { ...spec }, ...layout.panes.slice(at + 1)];
  const sizes = [...layout.sizes.slice(0, at), half, half, ...layout.sizes.slice(at + 1)];
  return { ...layout, panes, focused: at + 1, sizes: fitSizes(sizes) };
}

/** Closes a pane; its room goes to the pane before it (or after, for the first). The last pane stays. */
export function closePane(layout: Layout, index: number): Layout {
  if (layout.panes.length <= 1 || index < 0 || index >= layout.panes.length) return layout;
  const freed = layout.sizes[index] ?? 0;
  const heir = index > 0 ? index - 1 : 1;
  const sizes = layout.sizes.map((s, i) => (i === heir ? s + freed : s)).filter((_, i) => i !== index);
  const panes = layout.panes.filter((_, i) => i !== index);
  const focused = layout.focused === index ? (index > 0 ? index - 1 : 0) : layout.focused > index ? layout.focused - 1 : layout.focused;
  return { ...layout, panes, sizes: fitSizes(sizes), focused };
}

export function focusPane(layout: Layout, index: number): Layout {
  if (index < 0 || index >= layout.panes.length || index === layout.focused) return layout;
  return { ...layout, focused: index };
}

export function setDirection(layout: Layout, direction: SplitDirection): Layout {
  return direction === layout.direction ? layout : { ...layout, direction };
}

export function equalize(layout: Layout): Layout {
  return { ...layout, sizes: equalSizes(layout.panes.length) };
}

/**
 * Moves the divider after pane `divider` by `delta` (a share of the whole: positive grows the
 * pane before it). Only the two panes beside the divider change, and neither goes below
 * MIN_SHARE.
 */
export function moveDivider(layout: Layout, divider: number, delta: number): Layout {
  const before = layout.sizes[divider];
  const after = layout.sizes[divider + 1];
  if (before === undefined || after === undefined || !Number.isFinite(delta)) return layout;
  const pair = before + after;
  const grown = Math.min(Math.max(before + delta, MIN_SHARE), pair - MIN_SHARE);
  if (grown === before) return layout;
  const sizes = [...layout.sizes];
  sizes[divider] = grown;
  sizes[divider + 1] = pair - grown;
  return { ...layout, sizes };
}

/** Drops the panes whose tab is gone (closed on another device), keeping at least one. */
export function keepPanes(layout: Layout, exists: (tabId: string) => boolean): Layout {
  let next = layout;
  for (let i = next.panes.length - 1; i >= 0 && next.panes.length > 1; i--) {
    const pane = next.panes[i];
    if (pane && !exists(pane.tabId)) next = closePane(next, i);
  }
  return next;
}

/**
 * Shares that add up to 1 with none under MIN_SHARE (what a stored layout or a split of a small
 * pane may break). Anything not a finite positive number makes them equal.
 */
export function fitSizes(sizes: readonly number[]): number[] {
  const n = sizes.length;
  if (n === 0) return [];
  if (sizes.some((s) => !Number.isFinite(s) || s <= 0)) return equalSizes(n);
  const total = sizes.reduce((a, b) => a + b, 0);
  const raised = sizes.map((s) => Math.max(s / total, MIN_SHARE));
  // Raising the small ones took room from the whole; take it back from the others in proportion.
  const extra = raised.reduce((a, b) => a + b, 0) - 1;
  if (extra <= 1e-9) return raised;
  const spare = raised.reduce((a, s) => a + (s - MIN_SHARE), 0);
  return raised.map((s) => s - ((s - MIN_SHARE) / spare) * extra);
}

/** localStorage, per device: the layout the person left, the next time a tab opens wide. */
export const LAYOUT_STORAGE_KEY = 'pm.workbench.layout';
const LAYOUT_VERSION = 1;

function isView(value: unknown): value is TabViewMode {
  return value === 'terminal' || value === 'timeline' || value === 'changes';
}

/**
 * A stored layout, or null for anything that is not one written by this version (another
 * version's, edited by hand, or cut short): the workbench then starts from the open tab alone.
 */
export function parseLayout(raw: unknown): Layout | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (r.version !== LAYOUT_VERSION || !Array.isArray(r.panes) || !Array.isArray(r.sizes)) return null;
  if (r.panes.length < 1 || r.panes.length > MAX_PANES || r.sizes.length !== r.panes.length) return null;
  const panes: PaneSpec[] = [];
  for (const p of r.panes as unknown[]) {
    if (typeof p !== 'object' || p === null) return null;
    const { tabId, view } = p as Record<string, unknown>;
    if (typeof tabId !== 'string' || !isTabKey(tabId) || !isView(view)) return null;
    if (panes.some((q) => q.tabId === tabId)) return null;
    panes.push({ tabId, view });
  }
  if (r.direction !== 'row' && r.direction !== 'column') return null;
  if (!r.sizes.every((s) => typeof s === 'number')) return null;
  const focused = typeof r.focused === 'number' && Number.isInteger(r.focused) && r.focused >= 0 && r.focused < panes.length ? r.focused : 0;
  return { panes, focused, direction: r.direction, sizes: fitSizes(r.sizes as number[]) };
}

export function loadLayout(storage: Pick<Storage, 'getItem'>): Layout | null {
  try {
    const text = storage.getItem(LAYOUT_STORAGE_KEY);
    return text === null ? null : parseLayout(JSON.parse(text));
  } catch {
    // Storage refused (a private window) or the text is not JSON: start afresh.
    return null;
  }
}

export function saveLayout(storage: Pick<Storage, 'setItem'>, layout: Layout): void {
  try {
    storage.setItem(LAYOUT_STORAGE_KEY, JSON.stringify({ version: LAYOUT_VERSION, ...layout }));
  } catch {
    // Full or refused: the layout is simply not remembered.
  }
}
