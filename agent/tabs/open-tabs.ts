import { homedir } from 'node:os';
import { ClaudeVersions } from '../claude/claude-version.js';
import { hookSettingsPaths } from '../claude/hook-files.js';
import type { AgentConfig } from '../config/config.js';
import { type LoginEnvironment, noProxyWithLoopback } from '../config/login-env.js';
import { WorkspaceStore } from '../store/workspace-store.js';
import type { Tmux } from '../tmux/tmux.js';
import type { Logger } from '../util/log.js';
import { TabService } from './tab-service.js';

/**
 * The workspaces and their tabs, loaded from their file; a first start gets a Home workspace.
 * A tab's shell gets the login PATH, and its claude the hooks of this data dir.
 */
export function openTabs(config: AgentConfig, paths: { workspaces: string; dataDir: string }, tmux: Tmux, login: LoginEnvironment, log: Logger): { store: WorkspaceStore; tabs: TabService } {
  const store = new WorkspaceStore(paths.workspaces, log, { workspaces: config.maxWorkspaces, tabs: config.maxTabs });
  if (!store.load()) store.addWorkspace('Home', homedir());
  const tabs = new TabService(store, tmux, { PATH: login.path, ...noProxyWithLoopback(process.env) }, log, {
    launch: { bin: config.claudeBin, extraArgs: config.claudeArgs, shell: login.shell },
    settings: hookSettingsPaths(paths.dataDir),
    versions: new ClaudeVersions({ PATH: login.path }, log),
    resumeAfterReboot: config.resumeClaudeAfterReboot,
  });
  return { store, tabs };
}
