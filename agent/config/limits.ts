/**
 * Limits other rooms agree on, with nothing of ours beneath them: the config checks its
 * settings against them and the hooks are written with them.
 */

/**
 * How long Claude may wait on a PermissionRequest hook: an approval from a phone takes time,
 * and a workspace's guardrail may wait up to 29 minutes before it denies.
 */
export const PERMISSION_HOOK_TIMEOUT_S = 1800;
/** Every other event is reported and forgotten. */
export const EVENT_HOOK_TIMEOUT_S = 10;

/**
 * How long Claude's UserPromptSubmit hook waits while the directory is recorded as the turn's
 * start (agent/changes/), so an edit Claude makes at once is counted to this turn. A larger
 * repository's first record may take longer: the prompt then goes on, and the record follows.
 */
export const TURN_RECORD_WAIT_MS = 2000;
