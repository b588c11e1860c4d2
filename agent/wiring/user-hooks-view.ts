import type { UserHooksView } from '../../protocol/outside.js';
import { userHooksInstall } from '../claude/user-hooks-file.js';
import { advisedCommand } from '../config/command-name.js';

/** Whether claude started anywhere reports: the app's settings show it, with the command that installs the hooks. */
export function userHooksView(claudeConfigDir: string, dataDir: string): UserHooksView {
  // The hooks run this data dir's script: another data dir than the default must be named.
  const installCommand = advisedCommand('hooks install', dataDir);
  try {
    const found = userHooksInstall(claudeConfigDir, dataDir);
    return { state: found.state, settingsPath: found.path, installCommand, detail: null };
  } catch (err) {
    return { state: 'unknown', settingsPath: `${claudeConfigDir}/settings.json`, installCommand, detail: (err as Error).message };
  }
}
