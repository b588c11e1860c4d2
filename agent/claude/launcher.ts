import { isClaudeSessionId } from '../../protocol/api.js';
import { shellQuote as quote } from '../util/shell.js';
import { TAB_HOOKS_ENV } from './hook-files.js';

export interface ClaudeLaunchConfig {
  /** The claude command: a path, or a name looked up on the login PATH. */
  bin: string;
  /** The hook settings the agent installed (`--settings`). */
  settingsPath: string;
  extraArgs: readonly string[];
  /** The person's login shell, which takes over the pane when claude exits. */
  shell: string;
}

export interface ClaudeLaunch {
  resume?: string | null;
  permissionMode?: string | null;
}

/**
 * The shell command a Claude tab's tmux session starts with. claude runs first; when it
 * exits (`/exit`, a crash) the pane becomes the person's login shell rather than closing,
 * so the tab stays and says Claude is not running. The person's own settings still apply:
 * `--settings` adds our hooks to theirs. claude alone gets TAB_HOOKS_ENV (through `env`, which
 * every shell runs alike), so the global hooks of `pocketmux hooks install` step aside in it.
 */
export function claudeShellCommand(config: ClaudeLaunchConfig, launch: ClaudeLaunch): string {
  const args = [config.bin, '--settings', config.settingsPath];
  if (launch.resume) {
    // Callers check the id where it comes in; a caller that did not is a bug, not a fresh claude.
    if (!isClaudeSessionId(launch.resume)) throw new RangeError('a Claude session to resume is named by a UUID');
    // One argument: even an id that began with `-` could not be read as an option.
    args.push(`--resume=${launch.resume}`);
  }
  if (launch.permissionMode) args.push('--permission-mode', launch.permissionMode);
  args.push(...config.extraArgs);
  return `env ${TAB_HOOKS_ENV}=1 ${args.map(quote).join(' ')}; exec ${quote(config.shell)} -l`;
}
