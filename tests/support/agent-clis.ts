import type { AgentClis } from '../../agent/agents/agent-cli.js';
import { ClaudeCli } from '../../agent/claude/claude-cli.js';
import { ClaudeVersions } from '../../agent/claude/claude-version.js';
import { hookSettingsPaths, TAB_HOOKS_ENV } from '../../agent/claude/hook-files.js';
import { CodexCli } from '../../agent/codex/codex-cli.js';
import { dataPaths } from '../../agent/config/paths.js';
import type { Logger } from '../../agent/util/log.js';

/** The agent's table of CLIs (wiring/agent-clis.ts) for a service built in a test, without a whole config. */
export function testAgentClis(opts: { dataDir: string; claudeConfigDir: string; log: Logger; claudeBin?: string; codexBin?: string; path?: string }): AgentClis {
  const path = opts.path ?? process.env.PATH ?? '';
  return {
    claude: new ClaudeCli({
      launch: { bin: opts.claudeBin ?? 'claude', extraArgs: [], shell: '/bin/sh' },
      settings: hookSettingsPaths(opts.dataDir),
      versions: new ClaudeVersions({ PATH: path }, opts.log),
      configDir: opts.claudeConfigDir,
    }),
    codex: new CodexCli({ bin: opts.codexBin ?? 'codex', scriptPath: dataPaths(opts.dataDir).hookScript, shell: '/bin/sh', tabHooksEnv: TAB_HOOKS_ENV }),
  };
}
