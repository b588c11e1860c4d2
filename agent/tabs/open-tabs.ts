import { homedir } from 'node:os';
import type { AgentClis } from '../agents/agent-cli.js';
import type { AgentConfig } from '../config/config.js';
import { type LoginEnvironment, noProxyWithLoopback } from '../config/login-env.js';
import { WorkspaceStore } from '../store/workspace-store.js';
import type { Tmux } from '../tmux/tmux.js';
import type { Logger } from '../util/log.js';
import { TabService } from './tab-service.js';

/**
 * The workspaces and their tabs, loaded from their file; a first start gets a Home workspace.
 * A tab's shell gets the login PATH, and its agent CLI the hooks of this data dir.
 */
export function openTabs(config: AgentConfig, paths: { workspaces: string }, clis: AgentClis, tmux: Tmux, login: LoginEnvironment, log: Logger): { store: WorkspaceStore; tabs: TabService } {
  const store = new WorkspaceStore(paths.workspaces, log, { workspaces: config.maxWorkspaces, tabs: config.maxTabs });
  if (!store.load()) store.addWorkspace('Home', homedir());
  const tabs = new TabService(store, tmux, { PATH: login.path, ...noProxyWithLoopback(process.env) }, log, { clis, resumeAfterReboot: config.resumeClaudeAfterReboot });
  return { store, tabs };
}
