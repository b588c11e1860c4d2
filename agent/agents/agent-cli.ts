import type { AgentKind } from '../../protocol/agents.js';
import type { HookReading } from '../../protocol/hooks.js';
import type { ScreenReading } from '../approvals/screen-reader.js';

/** What the process table says of one process: its parent and its command name. */
export type ProcessRows = ReadonlyMap<number, { ppid: number; comm: string }>;

/** How a tab starts its agent: a past session to pick up, and the permission mode to start in. */
export interface AgentLaunch {
  resume?: string | null;
  permissionMode?: string | null;
}

/**
 * The seam between pocketmux and one agent CLI (Claude Code, Codex): everything that differs
 * between them, behind one shape. The tabs start a CLI through it, the hook intake reads its
 * payloads through it, and the status monitor asks it whether the CLI still runs in a pane.
 * A CLI lives in its own folder (`claude/`, `codex/`) and is listed once, in
 * `wiring/agent-clis.ts`.
 */
export interface AgentCli {
  readonly kind: AgentKind;
  /** The product's name, in messages: "Claude Code", "Codex". */
  readonly product: string;
  /** Why no tab of this CLI can start here (its binary is not on `path`), or null when one can. */
  missing(path: string): string | null;
  /**
   * The shell command a tab's tmux session starts: the CLI, with the hooks that report to this
   * agent, then the person's login shell once it exits.
   */
  tabCommand(launch: AgentLaunch): Promise<string>;
  /** Whether a session id learnt from a hook is one this CLI resumes after a reboot. */
  resumable(sessionId: string): boolean;
  /** A hook posted for `event`, read by this CLI's schemas. */
  readHook(event: string, body: unknown): HookReading;
  /**
   * Whether the words a phone sends with a prompt may go back in UserPromptSubmit's answer
   * (`additionalContext`), which this CLI is known to read.
   */
  readonly takesPromptContext: boolean;
  /**
   * Whether the status monitor reads the conversation log its hooks name (`transcript_path`)
   * to settle a restart (did the turn end?) and to see an interrupt no hook tells of.
   */
  readonly readsTranscript: boolean;
  /**
   * Whether the CLI draws its permission dialog only once its PermissionRequest hook has
   * answered (Codex: "Running hook" meanwhile), where Claude draws it beside the waiting hook.
   */
  readonly dialogWaitsForHook: boolean;
  /** Whether this CLI runs in the pane whose first process is `panePid`. */
  runsIn(panePid: number, table: ProcessRows): boolean;
  /** What its screen shows at the bottom: its prompt, a dialog it waits on (answered by keys), or neither. */
  readScreen(screen: string): ScreenReading;
}

/** Every agent CLI this agent runs, by kind. */
export type AgentClis = Readonly<Record<AgentKind, AgentCli>>;
