import { isClaudeSessionId } from '../../protocol/api.js';
import { CODEX_HOOK_EVENT_NAMES, type CodexHookEventName, readCodexHook } from '../../protocol/codex-hooks.js';
import type { AgentCli, AgentLaunch, ProcessRows } from '../agents/agent-cli.js';
import type { ScreenReading } from '../approvals/screen-reader.js';
import { EVENT_HOOK_TIMEOUT_S, PERMISSION_HOOK_TIMEOUT_S } from '../config/limits.js';
import { findExecutable, shellQuote as quote } from '../util/shell.js';
import { descendants } from '../util/process-tree.js';
import { type CodexCommandHook, codexHooksSetting } from './hook-trust.js';
import { readCodexScreen } from './screen-reader.js';

/**
 * The command hooks a Codex tab gets, one for every event Codex knows: the hook script with the
 * event's intake path (`codex/<event>`), which Codex runs through a shell.
 */
export function codexTabHooks(scriptPath: string): Record<CodexHookEventName, CodexCommandHook> {
  return Object.fromEntries(
    CODEX_HOOK_EVENT_NAMES.map((event) => [
      event,
      { command: `${quote(scriptPath)} codex/${event}`, timeoutSec: event === 'PermissionRequest' ? PERMISSION_HOOK_TIMEOUT_S : EVENT_HOOK_TIMEOUT_S },
    ]),
  ) as Record<CodexHookEventName, CodexCommandHook>;
}

export interface CodexLaunchConfig {
  /** The codex command: a path, or a name looked up on the login PATH. */
  bin: string;
  /** The hook script the agent writes (`hooks/hook.sh` in the data dir). */
  scriptPath: string;
  /** The person's login shell, which takes over the pane when codex exits. */
  shell: string;
  /** Set for the codex a tab starts, as for claude: global hooks step aside in it. */
  tabHooksEnv: string;
}

/**
 * The shell command a Codex tab starts with. The hooks and their trust are session flags
 * (`-c`): nothing is written to the person's `config.toml`, and only these hooks are trusted,
 * never the person's own unreviewed ones. When codex exits the pane becomes the login shell.
 */
export function codexShellCommand(config: CodexLaunchConfig, launch: AgentLaunch): string {
  const args = [config.bin, '-c', codexHooksSetting(codexTabHooks(config.scriptPath))];
  if (launch.resume) {
    if (!isClaudeSessionId(launch.resume)) throw new RangeError('a Codex session to resume is named by a UUID');
    args.push('resume', launch.resume);
  }
  return `env ${config.tabHooksEnv}=1 ${args.map(quote).join(' ')}; exec ${quote(config.shell)} -l`;
}

/**
 * Codex behind the agent seam. Its hooks are command hooks only, Claude-shaped, posted by the
 * hook script to `/hooks/codex/<event>`. npm's `codex` is a Node launcher whose child is the
 * native `codex` binary: that child is what runs in the pane.
 */
export class CodexCli implements AgentCli {
  readonly kind = 'codex';
  readonly product = 'Codex';
  /** Not yet known to read a UserPromptSubmit hook's added context: nothing is sent. */
  readonly takesPromptContext = false;
  /** Its rollout says when a turn ended (agent/codex/rollout-parser.ts); an interrupt is a hook of its own. */
  readonly readsTranscript = true;
  /** Codex shows "Running hook" while its PermissionRequest hook is held, and its dialog only after. */
  readonly dialogWaitsForHook = true;

  constructor(private readonly launch: CodexLaunchConfig) {}

  missing(path: string): string | null {
    if (findExecutable(this.launch.bin, path)) return null;
    return `codex ("${this.launch.bin}") was not found on the login PATH; install Codex (npm install -g @openai/codex) or start the agent with --codex-bin`;
  }

  async tabCommand(launch: AgentLaunch): Promise<string> {
    return codexShellCommand(this.launch, launch);
  }

  /** Codex names a session by a UUID (version 7), as Claude does. */
  resumable(sessionId: string): boolean {
    return isClaudeSessionId(sessionId);
  }

  readHook(event: string, body: unknown) {
    return readCodexHook(event, body);
  }

  runsIn(panePid: number, table: ProcessRows): boolean {
    return [panePid, ...descendants(table, panePid)].some((pid) => table.get(pid)?.comm === 'codex');
  }

  readScreen(screen: string): ScreenReading {
    return readCodexScreen(screen);
  }
}
