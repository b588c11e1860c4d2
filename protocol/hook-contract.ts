/**
 * How Claude Code's hooks reach the agent, declared once: the hook script and settings the
 * agent writes, the intake that receives them, the CLI (which authenticates the same way) and
 * the app (which tells outside sessions from tabs) all read it from here.
 */
import type { AgentKind } from './agents.js';
import { ID_MAX } from './limits.js';

/** Where hooks are posted: `POST /hooks/<event>`, and the statusLine report beside them. */
export const HOOK_PATH_PREFIX = '/hooks';
export const STATUSLINE_HOOK = 'statusline';

export function hookPath(event: string): string {
  return `${HOOK_PATH_PREFIX}/${event}`;
}

/**
 * Where an agent CLI's hook for `event` is posted. Claude's keep the path they always had
 * (`/hooks/<event>`: hooks installed by earlier versions still arrive); any other CLI's go
 * under its own name (`/hooks/codex/<event>`), so the intake knows whose payload it reads.
 */
export function agentHookPath(agent: AgentKind, event: string): string {
  return hookPath(agent === 'claude' ? event : `${agent}/${event}`);
}

/**
 * Headers a hook carries, as written. Header names are case-blind: Node hands them to the
 * agent in lower case (`receivedHeader`).
 */
export const HOOK_HEADERS = {
  /** The hook token from the data dir; the CLI and scripts on this machine send it too. */
  token: 'X-Pocketmux-Token',
  /** `$TMUX_PANE` of the reporting claude: which tab it runs in. */
  pane: 'X-Pocketmux-Pane',
  /** `$TMUX` of the reporting claude: which tmux server that pane belongs to. */
  tmux: 'X-Pocketmux-Tmux',
} as const;

/** A header's name as Node's `req.headers` holds it. */
export function receivedHeader(name: (typeof HOOK_HEADERS)[keyof typeof HOOK_HEADERS]): string {
  return name.toLowerCase();
}

/**
 * A Claude session whose pane is not one of the agent's tabs is kept under a key of its own:
 * this prefix and the session id, cut to characters that are safe in a URL and a file, and
 * to a length that fits wherever a tab id goes (64 characters: the app's paths, the status
 * channel's messages). Claude's ids are UUIDs (36 characters).
 */
export const OUTSIDE_PREFIX = 'outside-';
export const OUTSIDE_KEY_MAX = ID_MAX;

export function outsideSessionKey(sessionId: string): string {
  return `${OUTSIDE_PREFIX}${sessionId.replace(/[^A-Za-z0-9-]/g, '').slice(0, OUTSIDE_KEY_MAX - OUTSIDE_PREFIX.length)}`;
}

export function isOutsideKey(key: string): boolean {
  return key.startsWith(OUTSIDE_PREFIX);
}

/** The prefix versions up to 0.1 wrote for the same sessions, read from their status and outside files. */
const EARLIER_OUTSIDE_PREFIX = 'unmanaged-';

/** A key read from a file an earlier version wrote, under the prefix of today. */
export function currentSessionKey(key: string): string {
  return key.startsWith(EARLIER_OUTSIDE_PREFIX) ? `${OUTSIDE_PREFIX}${key.slice(EARLIER_OUTSIDE_PREFIX.length)}` : key;
}
