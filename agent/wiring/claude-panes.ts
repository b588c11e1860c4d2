import { parseSessionKey } from '../../protocol/session-key.js';
import type { DialogPanes } from '../approvals/pane-dialogs.js';
import type { OutsideSessions } from '../outside/outside-sessions.js';
import { type OutsideTmux, PaneUnreachableError } from '../outside/outside-tmux.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Tmux } from '../tmux/tmux.js';
import type { ClaudePane, ClaudePanes } from './claude-pane.js';
import { outsidePane } from './outside-pane.js';
import { tabPane } from './tab-pane.js';

/** Every pane a Claude runs in, by the key its status goes by: the key's kind says which server holds it. */
export function claudePanes(tabs: TabService, tmux: Tmux, outside: OutsideSessions, outsideTmux: OutsideTmux): ClaudePanes {
  const drivers: Record<ReturnType<typeof parseSessionKey>['kind'], (id: string) => ClaudePane | null> = {
    tab: (id) => {
      const tab = tabs.tab(id);
      return tab ? tabPane(tab, tabs, tmux) : null;
    },
    outside: (id) => {
      const session = outside.get(id);
      return session ? outsidePane(session, outside, outsideTmux) : null;
    },
  };
  return {
    of: (key) => {
      const { kind, id } = parseSessionKey(key);
      return drivers[kind](id);
    },
  };
}

/** The panes as the dialogs read and answer them; a key with no session throws, as a pane that is gone does. */
export function dialogPanes(panes: ClaudePanes): DialogPanes {
  const paneOf = (key: string): ClaudePane => {
    const pane = panes.of(key);
    if (!pane) throw new PaneUnreachableError(`no such session: ${key}`);
    return pane;
  };
  return {
    screen: async (key) => paneOf(key).screen(),
    sendInput: async (key, text, enter) => paneOf(key).type(text, enter),
    pressKey: async (key, name) => paneOf(key).sendKey(name),
  };
}
