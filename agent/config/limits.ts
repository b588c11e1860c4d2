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
