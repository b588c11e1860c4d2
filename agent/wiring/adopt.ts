/**
 * "Adopt": a Claude started outside pocketmux becomes a Claude tab of its own. A running
 * process cannot move between tmux servers (or out of a terminal window), so the conversation
 * moves: its claude is asked to end (SIGTERM, as closing its terminal would), and once it has,
 * a Claude tab resumes the same session (`claude --resume=<id>`) in the workspace of its
 * directory. Only between turns: a claude that works or waits on a question is left alone.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';
import { AGENT_NAMES } from '../../protocol/agents.js';
import { displayNameFrom, isClaudeSessionId } from '../../protocol/api.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { StatusManager } from '../status/status-manager.js';
import type { TabRecord, WorkspaceRecord, WorkspaceStore } from '../store/workspace-store.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Logger } from '../util/log.js';
import { processAlive } from '../util/process-alive.js';
import type { OutsideSessions } from '../outside/outside-sessions.js';

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

/** Sessions being adopted now: a second request for one (a double tap) is refused. */
const adopting = new Set<string>();

export async function adoptOutside(deps: AdoptDeps, key: string, workspaceId?: string): Promise<TabRecord> {
  if (adopting.has(key)) throw new AdoptError(409, 'this session is already being adopted');
  adopting.add(key);
  try {
    return await adopt(deps, key, workspaceId);
  } finally {
    adopting.delete(key);
  }
}

async function adopt(deps: AdoptDeps, key: string, workspaceId?: string): Promise<TabRecord> {
  const session = deps.outside.get(key);
  if (!session) throw new AdoptError(404, `no Claude session ${key} outside the tabs`);
  // Adopting ends the process and resumes its session in a tab: Claude's session files say
  // which process that is; Codex keeps none, so a codex found only by its pane is not ended.
  if (session.agent !== 'claude') throw new AdoptError(409, `only a Claude session can be adopted; this ${AGENT_NAMES[session.agent]} session stays where it runs (its status, approvals and timeline are here all the same)`);
  const state = deps.status.get(key)?.state;
  if (state === 'busy' || state === 'needs-input' || deps.approvals.forTab(key).length > 0) {
    throw new AdoptError(409, 'Claude is working or waiting on an answer: adopt it when its turn has ended');
  }
  // Its id came in a hook and goes on claude's command line: only an id claude resumes.
  if (!isClaudeSessionId(session.sessionId)) throw new AdoptError(409, 'its session id is not one Claude gives (a UUID), so no tab can resume it');
  const pid = session.pid;
  if (pid === null) throw new AdoptError(409, 'its claude process is not known yet (no session file of it found); try again in a moment');
  let workspace: WorkspaceRecord | null = null;
  let newWorkspaceDir: string | null = null;
  if (workspaceId !== undefined) {
    workspace = deps.store.workspace(workspaceId) ?? null;
    if (!workspace) throw new AdoptError(404, `no workspace ${workspaceId}`);
  } else {
    // The directory came in a hook: only an absolute path to a directory that is there.
    const dir = session.cwd && isAbsolute(session.cwd) ? resolve(session.cwd) : null;
    if (!dir || !isDirectory(dir)) throw new AdoptError(409, 'its directory is not known or no longer exists: choose a workspace');
    workspace = workspaceFor(deps.store.workspaces(), dir);
    if (!workspace) {
      newWorkspaceDir = dir;
      deps.store.assertRoomForWorkspace();
    }
  }
  // Everything that can refuse is asked before its claude is ended.
  deps.store.assertRoomForTab();
  deps.tabs.assertAvailable('claude');
  // Asked again just before the signal: the pid must still be this session's claude, proven
  // by its start time and what it runs, not only named by a file.
  if (!deps.outside.isItsClaude(session, pid)) throw new AdoptError(409, 'its claude is no longer running');
  if (!(await deps.outside.isProvenClaude(session, pid))) {
    throw new AdoptError(409, 'its process cannot be proven to be its claude (no start time in its session file, or another program): end it in its terminal');
  }

  const alive = deps.alive ?? processAlive;
  const signal = deps.signal ?? ((target, sig) => process.kill(target, sig));
  try {
    signal(pid, 'SIGTERM');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw new AdoptError(409, `could not end its claude: ${(err as Error).message}`);
  }
  const deadline = Date.now() + (deps.exitTimeoutMs ?? 10_000);
  while (alive(pid)) {
    if (Date.now() > deadline) throw new AdoptError(409, 'its claude was asked to exit and has not yet; try again in a moment, or end it in its terminal');
    await new Promise((r) => setTimeout(r, 50));
  }
  deps.outside.forget(key, 'adopted');
  const resume = `claude --resume=${session.sessionId}`;
  try {
    workspace ??= deps.store.addWorkspace(displayNameFrom(basename(newWorkspaceDir as string) || (newWorkspaceDir as string), 'Workspace'), newWorkspaceDir as string);
    const tab = await deps.tabs.createTab(workspace.id, null, { kind: 'claude', resume: session.sessionId });
    deps.log.info('adopted a Claude session started outside pocketmux', { key, tab: tab.id, workspace: workspace.id });
    return tab;
  } catch (err) {
    // Its claude has ended: say how to carry the conversation on by hand.
    throw new AdoptError(409, `its claude has ended, but no tab could be started (${(err as Error).message}); resume it with ${resume}`);
  }
}
