import { type OutsidePane, type OutsideTmux, PaneUnreachableError } from '../outside/outside-tmux.js';
import type { OutsideSession, OutsideSessions } from '../outside/outside-sessions.js';
import { outsideTerminal } from '../terminal/terminal-targets.js';
import type { ClaudePane } from './claude-pane.js';

/**
 * An outside session's pane, on the person's own tmux server. One started outside tmux has
 * none: reading or typing there throws. Its terminal opens only while its claude still runs
 * in the pane (OutsideSessions.paneToDrive), so nothing typed reaches whatever ran there next.
 */
export function outsidePane(session: OutsideSession, outside: OutsideSessions, outsideTmux: OutsideTmux): ClaudePane {
  const pane = (): OutsidePane => {
    if (!session.tmux) throw new PaneUnreachableError('no terminal: started outside tmux');
    return session.tmux;
  };
  return {
    key: { kind: 'outside', id: session.key },
    screen: async () => outsideTmux.capture(pane()),
    type: async (text, enter) => outsideTmux.type(pane(), text, enter),
    sendKey: async (key) => outsideTmux.sendKey(pane(), key),
    leaveCopyMode: async () => outsideTmux.leaveCopyMode(pane()),
    history: async () => outsideTmux.captureHistory(pane()),
    exists: async () => session.tmux !== null && (await outsideTmux.paneExists(session.tmux)),
    terminal: async () => outsideTerminal(session.key, await outside.paneToDrive(session), outsideTmux),
  };
}
