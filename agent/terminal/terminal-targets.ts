import type { TabRecord } from '../store/workspace-store.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Tmux } from '../tmux/tmux.js';
import { checkSocket, type OutsidePane, type OutsideTmux } from '../outside/outside-tmux.js';
import type { TerminalTarget } from './terminal-bridge.js';

/** A tab's terminal: its session on pocketmux's tmux server; a kill frame closes the tab. */
export function tabTerminal(tab: TabRecord, tmux: Tmux, tabs: TabService): TerminalTarget {
  return {
    id: tab.id,
    spawn: { file: tmux.bin, args: tmux.commands.attach(tab.tmuxSession) },
    leaveCopyMode: () => tmux.leaveCopyMode(tab.tmuxSession),
    kill: () => tabs.closeTab(tab.id),
    ended: () => tabs.sessionMayHaveEnded(tab.id),
    redraw: (clientTty) => tmux.redrawClient(clientTty),
  };
}

/**
 * The pane of a Claude started outside the tabs, through its own tmux server. The socket is
 * checked (a socket, the agent's own user's) before anything is spawned; the pane is the
 * person's, so a kill frame does not end it.
 */
export function outsideTerminal(key: string, pane: OutsidePane, outsideTmux: OutsideTmux): TerminalTarget {
  checkSocket(pane.socketPath);
  return {
    id: key,
    spawn: { file: outsideTmux.bin, args: outsideTmux.attachArgs(pane) },
    leaveCopyMode: () => outsideTmux.leaveCopyMode(pane),
    kill: null,
    ended: async () => !(await outsideTmux.paneExists(pane)),
    redraw: (clientTty) => outsideTmux.redrawClient(pane, clientTty),
  };
}
