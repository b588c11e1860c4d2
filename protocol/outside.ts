/**
 * Claude sessions that pocketmux did not start: a claude in the person's own tmux, in a VS Code
 * terminal or in a plain terminal window, reporting through the user hooks (`pocketmux hooks
 * install`). Each is kept under its outside key (hook-contract.ts), with what its hooks told
 * of it; its status, approvals and timeline go by that key like a tab's by its id.
 */
import { z } from 'zod/mini';
import { AGENT_KINDS, type AgentKind } from './agents.js';
import { safeParse } from './safe-parse.js';

/**
 * Where an outside session's terminal is: `tmux`, a pane on a tmux server this agent can attach
 * to and type into (the person's own server, or pocketmux's); `none`, started outside tmux, so
 * there is no terminal to open and nothing to type into from here.
 */
export const OUTSIDE_TERMINALS = ['tmux', 'none'] as const;
export type OutsideTerminal = (typeof OUTSIDE_TERMINALS)[number];

export interface OutsideSessionView {
  /** The key its status, approvals, timeline and terminal go by. */
  key: string;
  /** The CLI it runs; absent from agents before Codex, for a Claude. */
  agent?: AgentKind;
  /** The CLI's session id. */
  sessionId: string;
  /** Claude's working directory, as its hooks report it; the app names the session by it. */
  cwd: string | null;
  terminal: OutsideTerminal;
  /** The tmux pane (`%N`) it runs in, when in tmux. */
  pane: string | null;
  /** The claude process, from Claude's own session file, once found. */
  pid: number | null;
  /** When it was first heard of (ms since epoch). */
  firstSeenAt: number;
  /** The linked machine it runs on; absent for the home agent's own. */
  machine?: string;
}

export interface OutsideSessionsResponse {
  sessions: OutsideSessionView[];
}

export const OutsideSessionViewSchema = z.object({
  key: z.string(),
  agent: z.optional(z.enum(AGENT_KINDS)),
  sessionId: z.string(),
  cwd: z.nullable(z.string()),
  terminal: z.enum(OUTSIDE_TERMINALS),
  pane: z.nullable(z.string()),
  pid: z.nullable(z.number()),
  firstSeenAt: z.number(),
  machine: z.optional(z.string()),
}) satisfies z.ZodMiniType<OutsideSessionView>;

/**
 * The outside sessions of a snapshot a client can read: one that does not parse (a field
 * changed by a newer agent) is left out, and an older agent sends none.
 */
export const SyncedOutsideSessions = z._default(
  z.pipe(
    z.array(z.unknown()),
    z.transform((items) =>
      items.flatMap((item) => {
        const parsed = safeParse(OutsideSessionViewSchema, item);
        return parsed.success ? [parsed.data] : [];
      }),
    ),
  ),
  [],
);

/**
 * `GET /api/hooks`: whether Claude's user settings hold pocketmux's hooks, so claude started
 * anywhere on the machine reports. `some`: only part of them (an older install); `unknown`:
 * the settings could not be read (the reason is in `detail`).
 */
export const USER_HOOKS_STATES = ['installed', 'some', 'none', 'unknown'] as const;
export type UserHooksInstallState = (typeof USER_HOOKS_STATES)[number];

export interface UserHooksView {
  state: UserHooksInstallState;
  /** Claude's user settings file the agent looked at. */
  settingsPath: string;
  /** The command that installs them, as it can be run on the agent's machine. */
  installCommand: string;
  /** Why the state is `unknown`, else null. */
  detail: string | null;
}

export const UserHooksViewSchema = z.object({
  state: z.enum(USER_HOOKS_STATES),
  settingsPath: z.string(),
  installCommand: z.string(),
  detail: z.nullable(z.string()),
}) satisfies z.ZodMiniType<UserHooksView>;
