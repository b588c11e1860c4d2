import { ID_MAX } from '../../protocol/limits.js';

/** What a tab's id (or an outside session's key) may look like in a path: the agent's ids and keys all fit. */
const TAB_KEY = `[a-z0-9-]{1,${ID_MAX}}`;

export const TAB_PATH = new RegExp(`^/t/(${TAB_KEY})(/timeline|/changes)?/?$`);

export function isTabKey(value: string): boolean {
  return new RegExp(`^${TAB_KEY}$`).test(value);
}
