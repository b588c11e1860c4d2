/**
 * "Adopt": a Claude started outside pocketmux becomes a Claude tab of its own. A running
 * process cannot move between tmux servers (or out of a terminal window), so the conversation
 * moves: its claude is asked to end (SIGTERM, as closing its terminal would), and once it has,
 * a Claude tab resumes the same session (`claude --resume <id>`) in the workspace of its
 * directory. Only between turns: a claude that works or waits on a question is left alone.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename } from 'node:path';
import { displayNameFrom } from '../../protocol/api.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { StatusManager } from '../status/status-manager.js';
import type { TabRecord, WorkspaceRecord, WorkspaceStore } from '../store/workspace-store.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Logger } from '../util/log.js';
import { type OutsideSessions, processAlive } from './outside-sessions.js';

/** Why a session cannot be adopted now: 404 unknown, 409 not now (the message says why). */
export class AdoptError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export interface AdoptDeps {
  outside: OutsideSessions;
  status: StatusManager;
  approvals: ApprovalStore;
  store: WorkspaceStore;
  tabs: TabService;
  log: Logger;
  /** How long its claude may take to exit after SIGTERM. */
  exitTimeoutMs?: number;
  alive?: (pid: number) => boolean;
  signal?: (pid: number, signal: NodeJS.Signals) => void;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The workspace for a session started in `dir`: the one of that directory, else the deepest
 * one holding it, but not a catch-all (the home directory or `/`, which hold everything and
 * would gather every project); null when there is none, and a workspace is made for `dir`.
 */
export function workspaceFor(workspaces: readonly WorkspaceRecord[], dir: string, home = homedir()): WorkspaceRecord | null {
  const trim = (d: string) => d.replace(/\/+$/, '') || '/';
  const exact = workspaces.find((ws) => trim(ws.dir) === trim(dir));
  if (exact) return exact;
  const holds = (ws: WorkspaceRecord) => trim(ws.dir) !== trim(home) && trim(ws.dir) !== '/' && dir.startsWith(`${trim(ws.dir)}/`);
  return [...workspaces].filter(holds).sort((a, b) => b.dir.length - a.dir.length)[0] ?? null;
}

export async function adoptOutside(deps: AdoptDeps, key: string, workspaceId?: string): Promise<TabRecord> {
  const session = deps.outside.get(key);
  if (!session) throw new AdoptError(404, `no Claude session ${key} outside the tabs`);
  const state = deps.status.get(key)?.state;
  if (state === 'busy' || state === 'needs-input' || deps.approvals.forTab(key).length > 0) {
    throw new AdoptError(409, 'Claude is working or waiting on an answer: adopt it when its turn has ended');
  }
  if (session.pid === null) throw new AdoptError(409, 'its claude process is not known yet (no session file of it found); try again in a moment');
  let workspace: WorkspaceRecord | null;
  if (workspaceId !== undefined) {
    workspace = deps.store.workspace(workspaceId) ?? null;
    if (!workspace) throw new AdoptError(404, `no workspace ${workspaceId}`);
  } else {
    if (!session.cwd || !isDirectory(session.cwd)) throw new AdoptError(409, 'its directory is not known or no longer exists: choose a workspace');
    workspace = workspaceFor(deps.store.workspaces(), session.cwd);
  }
  // Everything that can refuse is asked before its claude is ended.
  deps.store.assertRoomForTab();
  deps.tabs.assertClaudeAvailable();
  if (!workspace && session.cwd) workspace = deps.store.addWorkspace(displayNameFrom(basename(session.cwd) || session.cwd, 'Workspace'), session.cwd);
  if (!workspace) throw new AdoptError(409, 'choose a workspace');

  const alive = deps.alive ?? processAlive;
  const signal = deps.signal ?? ((pid, sig) => process.kill(pid, sig));
  const pid = session.pid;
  try {
    signal(pid, 'SIGTERM');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw new AdoptError(409, `could not end its claude: ${(err as Error).message}`);
  }
  const deadline = Date.now() + (deps.exitTimeoutMs ?? 10_000);
  while (alive(pid)) {
    if (Date.now() > deadline) throw new AdoptError(409, 'its claude did not exit; end it in its terminal and try again');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  deps.outside.forget(key, 'adopted');
  const tab = await deps.tabs.createTab(workspace.id, null, { kind: 'claude', resume: session.sessionId });
  deps.log.info('adopted a Claude session started outside pocketmux', { key, tab: tab.id, workspace: workspace.id });
  return tab;
}
