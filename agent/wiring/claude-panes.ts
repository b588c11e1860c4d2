import { isOutsideKey } from '../../protocol/hook-contract.js';
import type { DialogPanes } from '../approvals/pane-dialogs.js';
import type { TabService } from '../tabs/tab-service.js';
import { type OutsideTmux, PaneUnreachableError } from './outside-tmux.js';
import type { OutsideSessions } from './outside-sessions.js';

/**
 * Every pane a Claude runs in, by the key its status goes by: a tab's on pocketmux's server,
 * or an outside session's on the person's own tmux server. An outside session with no tmux
 * has no pane: reading or typing there throws.
 */
export function claudePanes(tabs: TabService, outside: OutsideSessions, outsideTmux: OutsideTmux): DialogPanes {
  const paneOf = (key: string) => {
    const pane = outside.get(key)?.tmux;
    if (!pane) throw new PaneUnreachableError('no terminal: started outside tmux');
    return pane;
  };
  return {
    screen: (key) => (isOutsideKey(key) ? outsideTmux.capture(paneOf(key)) : tabs.screen(key)),
    sendInput: (key, text, enter) => (isOutsideKey(key) ? outsideTmux.type(paneOf(key), text, enter) : tabs.sendInput(key, text, enter)),
  };
}
