/**
 * pocketmux's hooks in Codex's user hooks file (`$CODEX_HOME/hooks.json`, Claude's JSON shape),
 * so a codex started anywhere on this machine reports to the agent, as `pocketmux hooks
 * install` does for Claude. The file is merged by the same code as Claude's settings
 * (`claude/user-hooks.ts`); each entry runs `'<dataDir>/hooks/hook.sh' --global codex/<Event>`,
 * which steps aside in a pocketmux Codex tab (its hooks come from the tab's flags).
 *
 * Codex runs a hook from that file only once it is trusted: `hooks.state."<key>".trusted_hash`
 * in config.toml, where the key is `<file>:<event_label>:<group>:<handler>`. Verified with Codex
 * 0.169.0 (tests/fixtures/codex-0.169.0/hooks-list-user.json).
 */
import { CODEX_HOOK_EVENT_NAMES, type CodexHookEventName } from '../../protocol/codex-hooks.js';
import { EVENT_HOOK_TIMEOUT_S, PERMISSION_HOOK_TIMEOUT_S } from '../config/limits.js';
import { globalHookCommand, ourEntryIndex, type UserHookSet } from '../claude/user-hooks.js';
import { codexEventLabel, codexHookHash, codexTimeout } from './hook-trust.js';

export const CODEX_USER_HOOKS: UserHookSet = {
  events: CODEX_HOOK_EVENT_NAMES,
  argument: (event) => `codex/${event}`,
  // What Codex itself would give the hook (3 s for SessionEnd and Interrupt): the timeout it hashes.
  timeout: (event) => codexTimeout(event as CodexHookEventName, event === 'PermissionRequest' ? PERMISSION_HOOK_TIMEOUT_S : EVENT_HOOK_TIMEOUT_S),
  matcher: undefined,
  statusLine: false,
};

/** One of our hooks as Codex keys its trust. */
export interface CodexTrust {
  event: CodexHookEventName;
  key: string;
  hash: string;
}

/**
 * The trust each of our hooks in `settings` (the hooks.json at `file`, as it will be written)
 * needs: its key, from where our entry stands in its event's list, and its hash.
 */
export function codexTrustOf(settings: Record<string, unknown>, file: string, scriptPath: string): CodexTrust[] {
  const hooks = typeof settings.hooks === 'object' && settings.hooks !== null ? (settings.hooks as Record<string, unknown>) : {};
  const out: CodexTrust[] = [];
  for (const event of CODEX_HOOK_EVENT_NAMES) {
    const index = ourEntryIndex(hooks[event], scriptPath, event, CODEX_USER_HOOKS);
    if (index < 0) continue;
    const command = globalHookCommand(scriptPath, CODEX_USER_HOOKS.argument(event));
    out.push({ event, key: `${file}:${codexEventLabel(event)}:${index}:0`, hash: codexHookHash(event, { command, timeoutSec: CODEX_USER_HOOKS.timeout(event) }) });
  }
  return out;
}
