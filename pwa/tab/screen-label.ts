import { AGENT_NAMES } from '../../protocol/agents.js';
import type { PaneTitle, TabView } from '../../protocol/api.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { outsideLabel, shortPath, tabLabel } from '../core/labels.js';

/** The two lines of a tab screen's header: what runs there, and where. */
export interface ScreenLabel {
  primary: string;
  secondary: string;
}

/** What the screen knows of the session it shows, for its header. */
export interface LabelFacts {
  /** The tab's id, or the outside session's key. */
  key: string;
  /** The key names a Claude started outside pocketmux. */
  isOutside: boolean;
  /** The agent has no session by this key. */
  missing: boolean;
  /** The outside session on screen, as last listed. */
  outside: OutsideSessionView | undefined;
  /** The tab as last listed, kept after it closed. */
  knownTab: TabView | undefined;
  knownOutside: OutsideSessionView | undefined;
  /** The pane's title as tmux last set it, newer than the agent's polled one. */
  liveTitle: PaneTitle | null;
}

export function screenLabel(f: LabelFacts): ScreenLabel {
  if (f.missing && !f.knownTab && !f.knownOutside) return { primary: f.isOutside ? 'No such session' : 'No such tab', secondary: '' };
  if (f.isOutside) {
    const l = outsideLabel(f.outside?.cwd ?? null);
    return { primary: l.primary, secondary: l.path };
  }
  if (f.knownTab?.id === f.key) {
    const l = tabLabel(f.knownTab, f.liveTitle);
    // Whatever runs in a Claude tab (claude, or the shell after it exits), it is "Claude"; a Codex tab's, "Codex".
    if (f.knownTab.kind !== 'shell' && !f.knownTab.name) return { primary: AGENT_NAMES[f.knownTab.kind], secondary: l.path };
    return { primary: l.primary, secondary: l.command ? `${l.command} · ${l.path}` : l.path };
  }
  if (f.liveTitle) return { primary: f.liveTitle.command, secondary: shortPath(f.liveTitle.path) };
  return { primary: 'Terminal', secondary: '' };
}
