import type { TabRecord } from '../store/workspace-store.js';
import type { TabService } from '../tabs/tab-service.js';
import { tabTerminal } from '../terminal/terminal-targets.js';
import type { Tmux } from '../tmux/tmux.js';
import type { ClaudePane } from './claude-pane.js';

/** A tab's pane: its session on pocketmux's tmux server. */
export function tabPane(tab: TabRecord, tabs: TabService, tmux: Tmux): ClaudePane {
  return {
    key: { kind: 'tab', id: tab.id },
    screen: () => tabs.screen(tab.id),
    type: (text, enter) => tabs.sendInput(tab.id, text, enter),
    sendKey: (key) => tmux.pressKey(tab.tmuxSession, key),
    leaveCopyMode: () => tmux.leaveCopyMode(tab.tmuxSession),
    history: () => tmux.captureHistory(tab.tmuxSession),
    exists: () => tmux.hasSession(tab.tmuxSession),
    terminal: async () => tabTerminal(tab, tmux, tabs),
  };
}
