import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { parseSessionKey } from '../../protocol/session-key.js';
import type { OutsideSession, OutsideSessions } from '../outside/outside-sessions.js';
import type { TabRecord, WorkspaceStore } from '../store/workspace-store.js';

async function isDirectory(path: string | null | undefined): Promise<boolean> {
  if (!path || !isAbsolute(path)) return false;
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The directory a tab's session runs in: its pane's current directory, else its workspace's. Null when neither exists any more. */
export async function tabDir(store: Pick<WorkspaceStore, 'workspace'>, tab: Pick<TabRecord, 'cwd' | 'workspaceId'>): Promise<string | null> {
  if (await isDirectory(tab.cwd)) return tab.cwd;
  const dir = store.workspace(tab.workspaceId)?.dir;
  return (await isDirectory(dir)) ? (dir as string) : null;
}

/** The directory an outside session's hooks named, while it is one. */
export async function outsideDir(session: Pick<OutsideSession, 'cwd'>): Promise<string | null> {
  return (await isDirectory(session.cwd)) ? (session.cwd as string) : null;
}

/**
 * The directory a session works in, while it is one, by its key: a tab's (`tabDir`), an outside
 * session's (`outsideDir`). Null for no such session or no such directory.
 */
export function sessionDir(store: Pick<WorkspaceStore, 'tab' | 'workspace'>, outside: Pick<OutsideSessions, 'get'>): (key: string) => Promise<string | null> {
  return async (key) => {
    const session = parseSessionKey(key);
    if (session.kind === 'outside') {
      const found = outside.get(session.id);
      return found ? outsideDir(found) : null;
    }
    const tab = store.tab(session.id);
    return tab ? tabDir(store, tab) : null;
  };
}
