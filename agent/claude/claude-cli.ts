import { isClaudeSessionId } from '../../protocol/api.js';
import { readClaudeHook } from '../../protocol/hooks.js';
import type { AgentCli, AgentLaunch, ProcessRows } from '../agents/agent-cli.js';
import { readScreen, type ScreenReading } from '../approvals/screen-reader.js';
import { type ClaudeVersions, settingsFileFor } from './claude-version.js';
import type { HookSettingsFiles } from './hook-files.js';
import { findExecutable } from '../util/shell.js';
import { type ClaudeLaunchConfig, claudeShellCommand } from './launcher.js';
import { findClaude } from './process.js';

/** Claude Code behind the agent seam: launched with `--settings`, its hooks HTTP or the script. */
export class ClaudeCli implements AgentCli {
  readonly kind = 'claude';
  readonly product = 'Claude Code';
  readonly takesPromptContext = true;
  readonly readsTranscript = true;
  readonly dialogWaitsForHook = false;

  constructor(
    private readonly opts: {
      launch: Omit<ClaudeLaunchConfig, 'settingsPath'>;
      /** Which file a claude gets depends on the version of the binary that will run. */
      settings: HookSettingsFiles;
      versions: ClaudeVersions;
      /** Claude Code's config dir: a running claude keeps its session file there. */
      configDir: string;
    },
  ) {}

  missing(path: string): string | null {
    if (findExecutable(this.opts.launch.bin, path)) return null;
    return `claude ("${this.opts.launch.bin}") was not found on the login PATH; install Claude Code or start the agent with --claude-bin`;
  }

  /** claude gets the hook settings its version runs: HTTP hooks, or the script for every event. */
  async tabCommand(launch: AgentLaunch): Promise<string> {
    const settingsPath = settingsFileFor(await this.opts.versions.versionOf(this.opts.launch.bin), this.opts.settings);
    return claudeShellCommand({ ...this.opts.launch, settingsPath }, launch);
  }

  resumable(sessionId: string): boolean {
    return isClaudeSessionId(sessionId);
  }

  readHook(event: string, body: unknown) {
    return readClaudeHook(event, body);
  }

  runsIn(panePid: number, table: ProcessRows): boolean {
    return findClaude(panePid, this.opts.configDir, table) !== null;
  }

  readScreen(screen: string): ScreenReading {
    return readScreen(screen);
  }
}
