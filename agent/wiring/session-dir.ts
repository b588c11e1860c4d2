import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { parseSessionKey } from '../../protocol/session-key.js';
import type { OutsideSessions } from '../outside/outside-sessions.js';
import type { WorkspaceStore } from '../store/workspace-store.js';

async function isDirectory(path: string | null | undefined): Promise<boolean> {
  if (!path || !isAbsolute(path)) return false;
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The directory a session works in, while it is one: a tab's pane directory (else its
 * workspace's), an outside session's as its hooks named it. Null for no such session or no
 * such directory.
 */
export function sessionDir(store: Pick<WorkspaceStore, 'tab' | 'workspace'>, outside: Pick<OutsideSessions, 'get'>): (key: string) => Promise<string | null> {
  return async (key) => {
    const session = parseSessionKey(key);
    if (session.kind === 'outside') {
      const cwd = outside.get(session.id)?.cwd;
      return (await isDirectory(cwd)) ? (cwd as string) : null;
    }
    const tab = store.tab(session.id);
    if (!tab) return null;
    if (await isDirectory(tab.cwd)) return tab.cwd;
    const dir = store.workspace(tab.workspaceId)?.dir;
    return (await isDirectory(dir)) ? (dir as string) : null;
  };
}
