/**
 * A Claude session's permission mode, as pocketmux names it: what its footer says ("⏸ manual
 * mode on", "⏵⏵ auto mode on") and its hooks' `permission_mode` carries (`default`, `auto`).
 */
export const CLAUDE_MODES = ['manual', 'accept-edits', 'plan', 'auto', 'bypass', 'dont-ask'] as const;
export type ClaudeMode = (typeof CLAUDE_MODES)[number];

/** The words a person reads for each mode. */
export const CLAUDE_MODE_TEXT: Readonly<Record<ClaudeMode, string>> = {
  manual: 'Manual',
  'accept-edits': 'Accept edits',
  plan: 'Plan',
  auto: 'Auto',
  bypass: 'Bypass permissions',
  'dont-ask': "Don't ask",
};

/** The CLI's names (`--permission-mode`, the hooks' `permission_mode`) for each mode. */
const FROM_CLI: Readonly<Record<string, ClaudeMode>> = {
  default: 'manual',
  acceptEdits: 'accept-edits',
  plan: 'plan',
  auto: 'auto',
  bypassPermissions: 'bypass',
  dontAsk: 'dont-ask',
};

/** The mode a hook's `permission_mode` names, or null for a value this version does not know. */
export function claudeModeOf(cliValue: string | undefined): ClaudeMode | null {
  return cliValue !== undefined && Object.hasOwn(FROM_CLI, cliValue) ? (FROM_CLI[cliValue] as ClaudeMode) : null;
}

export interface ModeResponse {
  mode: ClaudeMode;
}
