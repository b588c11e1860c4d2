/** Whether a session's composer can type into it, and if not, the reason it says instead. */
import { AGENT_NAMES } from '../../protocol/agents.js';
import type { TabView } from '../../protocol/api.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { parseSessionKey } from '../../protocol/session-key.js';
import type { TabStatus } from '../../protocol/status.js';

/** The agent a session's conversation is with: a Codex tab's is Codex, every other one a Claude. */
export function agentOf(tab: Pick<TabView, 'kind'> | undefined): string {
  return tab && tab.kind !== 'shell' ? AGENT_NAMES[tab.kind] : 'Claude';
}

/** Said for a Claude started outside tmux: there is no pane to type into. */
export const NO_TERMINAL_INPUT = 'No terminal to type into: started outside tmux';

export interface ComposerTarget {
  /** A tab's id, or an outside session's key. */
  key: string;
  tab: Pick<TabView, 'kind'> | undefined;
  outside: Pick<OutsideSessionView, 'terminal'> | undefined;
  status: Pick<TabStatus, 'claudeRunning'> | undefined;
  /** The timeline's socket was closed for good: the tab or the session is gone. */
  gone: boolean;
}

/**
 * Null when a prompt can be typed into the session; else why not. What is not known yet (no
 * status, the list not loaded) does not block: the agent refuses, saying why, if it must.
 */
export function inputBlock(t: ComposerTarget): string | null {
  const outside = parseSessionKey(t.key).kind === 'outside';
  if (t.gone) return outside ? 'This Claude session is gone: there is nothing to type into.' : 'This tab is gone: there is nothing to type into.';
  if (outside) {
    if (t.outside?.terminal === 'none') return NO_TERMINAL_INPUT;
    if (t.status && !t.status.claudeRunning) return 'Claude is no longer running in its pane.';
    return null;
  }
  // Without Claude the pane is a shell: a prompt typed there would run as a command.
  if (t.tab?.kind === 'shell' && !t.status?.claudeRunning) return 'Claude is not running in this tab: it is a shell, and a prompt would run as a command.';
  if (t.status && !t.status.claudeRunning) return `${agentOf(t.tab)} is not running in this tab: start it again in the terminal.`;
  return null;
}
