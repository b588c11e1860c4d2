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

/**
 * When the pane of each session of `keys` was last written to, in seconds (tmux's
 * `window_activity`): one tmux run on pocketmux's server when tabs are asked for, and one on
 * each of the person's servers outside sessions are asked for on. A server that cannot be
 * read leaves its sessions out: unknown, which the dialogs take as written.
 */
export type PaneActivity = (keys: readonly string[]) => Promise<Map<string, number>>;

export function paneActivity(tabs: Pick<TabService, 'activity'>, outside: Pick<OutsideSessions, 'get'>, outsideTmux: Pick<OutsideTmux, 'paneActivity'>): PaneActivity {
  return async (keys) => {
    const written = new Map<string, number>();
    const onServer = new Map<string, { key: string; pane: string }[]>();
    let anyTab = false;
    for (const key of keys) {
      const { kind } = parseSessionKey(key);
      if (kind === 'tab') anyTab = true;
      const pane = kind === 'outside' ? outside.get(key)?.tmux : null;
      if (pane) onServer.set(pane.socketPath, [...(onServer.get(pane.socketPath) ?? []), { key, pane: pane.pane }]);
    }
    const wanted = new Set(keys);
    if (anyTab) {
      const byTab = await tabs.activity().catch(() => new Map<string, number>());
      for (const [key, at] of byTab) if (wanted.has(key)) written.set(key, at);
    }
    for (const [socketPath, sessions] of onServer) {
      const byPane = await outsideTmux.paneActivity(socketPath).catch(() => new Map<string, number>());
      for (const { key, pane } of sessions) {
        const at = byPane.get(pane);
        if (at !== undefined) written.set(key, at);
      }
    }
    return written;
  };
}

/** The panes as the dialogs read and answer them; a key with no session throws, as a pane that is gone does. */
export function dialogPanes(panes: ClaudePanes, activity?: PaneActivity, readerOf?: DialogPanes['readerOf']): DialogPanes {
  const paneOf = (key: string): ClaudePane => {
    const pane = panes.of(key);
    if (!pane) throw new PaneUnreachableError(`no such session: ${key}`);
    return pane;
  };
  return {
    screen: async (key) => paneOf(key).screen(),
    sendInput: async (key, text, enter) => paneOf(key).type(text, enter),
    pressKey: async (key, name) => paneOf(key).sendKey(name),
    ...(activity ? { activity } : {}),
    ...(readerOf ? { readerOf } : {}),
  };
}
