import { join } from 'node:path';
import { isAgentKind, type TabKind } from '../../protocol/agents.js';
import type { AgentCli, AgentClis } from '../agents/agent-cli.js';
import { type ConversationFolder, claudeConversations } from '../claude/open-transcripts.js';
import { ClaudeCli } from '../claude/claude-cli.js';
import { ClaudeVersions } from '../claude/claude-version.js';
import { hookSettingsPaths, TAB_HOOKS_ENV } from '../claude/hook-files.js';
import { CodexCli } from '../codex/codex-cli.js';
import { parseRolloutLine } from '../codex/rollout-parser.js';
import type { AgentConfig } from '../config/config.js';
import type { LoginEnvironment } from '../config/login-env.js';
import { dataPaths } from '../config/paths.js';
import type { Logger } from '../util/log.js';

/**
 * The one table of agent CLIs: each kind of tab (protocol/agents.ts) and the CLI that runs in
 * it. A new CLI is its own folder beside `claude/` and `codex/`, and one line here.
 */
export function openAgentClis(config: AgentConfig, dataDir: string, login: LoginEnvironment, log: Logger): AgentClis {
  return {
    claude: new ClaudeCli({
      launch: { bin: config.claudeBin, extraArgs: config.claudeArgs, shell: login.shell },
      settings: hookSettingsPaths(dataDir),
      versions: new ClaudeVersions({ PATH: login.path }, log),
      configDir: config.claudeConfigDir,
    }),
    codex: new CodexCli({ bin: config.codexBin, scriptPath: dataPaths(dataDir).hookScript, shell: login.shell, tabHooksEnv: TAB_HOOKS_ENV }),
  };
}

/** Where each agent CLI keeps its conversation logs, Claude's first: the timeline and the status monitor read them. */
export function conversationFolders(config: Pick<AgentConfig, 'claudeConfigDir' | 'codexHome'>): [ConversationFolder, ...ConversationFolder[]] {
  return [claudeConversations(config.claudeConfigDir), { root: join(config.codexHome, 'sessions'), parseLine: parseRolloutLine }];
}

/**
 * The agent CLI of a session, by its key: a Claude or Codex tab's own; any other (a claude
 * typed in a shell tab, a session outside the tabs) is a Claude.
 */
export function sessionCli(clis: AgentClis, kindOf: (key: string) => TabKind | undefined): (key: string) => AgentCli {
  return (key) => {
    const kind = kindOf(key);
    return kind !== undefined && isAgentKind(kind) ? clis[kind] : clis.claude;
  };
}
