import { AGENT_NAMES, type AgentKind } from '../../protocol/agents.js';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { type ClaudeState, highestPriority, type TabStatus } from '../../protocol/status.js';

/** Words for each state, as the dot's accessible name and the row's visible text. */
export const STATE_LABEL: Record<ClaudeState, string> = {
  'needs-input': 'Needs input',
  'ready-for-review': 'Ready for review',
  busy: 'Working',
  unknown: 'Status unknown',
  idle: 'Idle',
};

/** The states that wait on the person: they count in the title and stand out in the list. */
export function needsPerson(state: ClaudeState): boolean {
  return state === 'needs-input' || state === 'ready-for-review';
}

export interface StatusDescription {
  /** Which dot to draw. */
  state: ClaudeState;
  /** What the dot means, in words: visible next to it and read by screen readers. */
  text: string;
  attention: boolean;
  compacting: boolean;
}

/**
 * How a tab's agent status reads, or null for a tab that has nothing to say: a shell tab
 * where Claude never ran, or ran and is gone (it is a shell again).
 */
export function describeStatus(tab: Pick<TabView, 'kind'>, status: TabStatus | undefined): StatusDescription | null {
  const shell = tab.kind === 'shell';
  if (!status) {
    if (shell) return null;
    // A Claude or Codex tab reports once its first hook fires (Codex's with the first prompt); until then nothing is known.
    return { state: 'unknown', text: 'No status yet', attention: false, compacting: false };
  }
  if (shell && !status.claudeRunning && status.state === 'idle') return null;
  let text = STATE_LABEL[status.state];
  if (!status.claudeRunning && tab.kind !== 'shell') {
    const gone = `${AGENT_NAMES[tab.kind]} not running`;
    text = status.state === 'idle' ? gone : `${text}, ${gone}`;
  }
  if (status.compacting) text = `${text}, compacting`;
  return { state: status.state, text, attention: needsPerson(status.state), compacting: status.compacting };
}

/** The one state a workspace's dot shows: the most urgent among its tabs, or null if none speaks. */
export function workspaceState(ws: WorkspaceView, statuses: Readonly<Record<string, TabStatus>>): ClaudeState | null {
  const states: ClaudeState[] = [];
  for (const tab of ws.tabs) {
    const d = describeStatus(tab, statuses[tab.id]);
    if (d) states.push(d.state);
  }
  return states.length === 0 ? null : highestPriority(states);
}

/** How many tabs of these workspaces wait on the person: a workspace card's "N waiting". */
export function attentionCount(workspaces: readonly WorkspaceView[], statuses: Readonly<Record<string, TabStatus>>): number {
  let n = 0;
  for (const ws of workspaces) {
    for (const tab of ws.tabs) {
      const s = statuses[tab.id];
      if (s && needsPerson(s.state)) n++;
    }
  }
  return n;
}

/**
 * The same for the Claude sessions started outside pocketmux, by their keys: each is a Claude,
 * so one without a status yet counts as unknown. The group's dot, and its "N waiting".
 */
export function outsideGroupState(keys: readonly string[], statuses: Readonly<Record<string, TabStatus>>): ClaudeState | null {
  const states = keys.map((key) => describeStatus({ kind: 'claude' }, statuses[key])?.state ?? 'unknown');
  return states.length === 0 ? null : highestPriority(states);
}

export function outsideAttentionCount(keys: readonly string[], statuses: Readonly<Record<string, TabStatus>>): number {
  return keys.filter((key) => {
    const s = statuses[key];
    return s !== undefined && needsPerson(s.state);
  }).length;
}

/** Whether a tab has a conversation to show beside its terminal: a Claude or Codex tab, or a claude reporting from a shell tab. */
export function hasTimeline(tab: Pick<TabView, 'kind'> | undefined, status: TabStatus | undefined): boolean {
  return (tab !== undefined && tab.kind !== 'shell') || !!status?.transcriptPath;
}

/**
 * Whether a Claude started outside pocketmux may be adopted now, by the status last reported:
 * between turns (idle, ready for review) or while nothing is known of it, never while it works
 * or waits on an answer. The agent has the last word; it refuses, saying why, what it cannot do.
 */
export function canAdopt(status: TabStatus | undefined, agent: AgentKind = 'claude'): boolean {
  // Only a Claude's session moves into a tab (the agent refuses the others, and says why).
  if (agent !== 'claude') return false;
  return status === undefined || status.state === 'idle' || status.state === 'ready-for-review' || status.state === 'unknown';
}
