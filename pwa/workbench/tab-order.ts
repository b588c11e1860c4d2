import { AGENT_NAMES } from '../../protocol/agents.js';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { outsideLabel, tabLabel } from '../core/labels.js';

/** A tab that can be opened beside a pane, as the split menu lists it. */
export interface PaneCandidate {
  tabId: string;
  name: string;
  /** Its directory, or what runs in it. */
  detail: string;
}

/**
 * Every tab as the list shows them, top to bottom: each workspace's tabs in their order, then
 * the Claude sessions outside pocketmux. What "next tab" and "tab 3" count through.
 */
export function tabOrder(workspaces: readonly WorkspaceView[], outside: readonly OutsideSessionView[]): string[] {
  return [...workspaces.flatMap((ws) => ws.tabs.map((t) => t.id)), ...outside.map((s) => s.key)];
}

/**
 * The tab a step away from `current` in `order`, wrapping around at either end; from a tab not
 * in the list (or none), the first for a step forward and the last for a step back.
 */
export function stepTab(order: readonly string[], current: string | null, step: 1 | -1): string | null {
  if (order.length === 0) return null;
  const at = current === null ? -1 : order.indexOf(current);
  if (at < 0) return (step === 1 ? order[0] : order[order.length - 1]) ?? null;
  return order[(at + step + order.length) % order.length] ?? null;
}

function describeTab(t: TabView): PaneCandidate {
  const label = tabLabel(t);
  // Whatever runs in a Claude or Codex tab, it is "Claude" or "Codex" unless the person named it.
  if (t.kind !== 'shell') return { tabId: t.id, name: t.name ? label.primary : AGENT_NAMES[t.kind], detail: label.path };
  return { tabId: t.id, name: label.primary, detail: label.command ? `${label.command} · ${label.path}` : label.path };
}

function describeOutside(s: OutsideSessionView): PaneCandidate {
  const label = outsideLabel(s.cwd);
  return { tabId: s.key, name: label.primary, detail: `Outside pocketmux · ${label.path}` };
}

/** A tab or outside session by its key, named as the list names it; null when the list does not hold it. */
export function describePane(workspaces: readonly WorkspaceView[], outside: readonly OutsideSessionView[], key: string): PaneCandidate | null {
  for (const ws of workspaces) {
    const tab = ws.tabs.find((t) => t.id === key);
    if (tab) return describeTab(tab);
  }
  const session = outside.find((s) => s.key === key);
  return session ? describeOutside(session) : null;
}

/** The tabs that may open beside the panes up now, named as the list names them. */
export function paneCandidates(
  workspaces: readonly WorkspaceView[],
  outside: readonly OutsideSessionView[],
  shown: ReadonlySet<string>,
): PaneCandidate[] {
  return [
    ...workspaces.flatMap((ws) => ws.tabs.filter((t) => !shown.has(t.id)).map(describeTab)),
    ...outside.filter((s) => !shown.has(s.key)).map(describeOutside),
  ];
}
