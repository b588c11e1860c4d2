/**
 * Approvals: Claude asking the person something (a tool permission, a question, a plan, any
 * dialog on its screen), as the agent offers it to every paired device, and the one answer
 * that settles it. Open → one resolution → gone.
 */
import { z } from 'zod/mini';

/**
 * - `permission`: a tool wants to run; answered through the held PermissionRequest hook.
 * - `question`: Claude's AskUserQuestion; answered through the hook with `answers`.
 * - `plan`: ExitPlanMode; Claude does not honour the hook's allow there, so answered by keys.
 * - `dialog`: a dialog on screen with no hook held for it; answered by keys.
 * - `block`: auto mode's classifier blocked a tool call (the PermissionDenied hook) and Claude
 *   went on without it. Nothing waits on it: it is offered so the person can let Claude retry
 *   that exact call (Claude's own "r to retry" in /permissions), or dismiss it.
 */
export const APPROVAL_KINDS = ['permission', 'question', 'plan', 'dialog', 'block'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/** Whether Claude waits on an approval of this kind; a `block` is a notice of what it did not do. */
export function claudeWaitsOn(kind: ApprovalKind): boolean {
  return kind !== 'block';
}

/** A block's answers: what Claude itself offers for one in /permissions, and letting it be. */
export const BLOCK_OPTIONS: readonly DialogOption[] = [
  { key: 'retry', label: 'Let Claude retry it' },
  { key: 'dismiss', label: 'Dismiss' },
];

export const APPROVAL_OUTCOMES = [
  'approved',
  'approved-always',
  'denied',
  'answered',
  'answered-in-terminal',
  'moved-to-terminal',
  'expired',
  'claude-exited',
  'agent-stopped',
] as const;
export type ApprovalOutcome = (typeof APPROVAL_OUTCOMES)[number];

/** What a card shows of the request, built by the agent from the tool input. */
export interface ApprovalSummary {
  /** One line: "Bash: npm test", "Edit src/app.ts", "WebFetch https://…", "MCP github › create_issue". */
  title: string;
  /** Claude's own words for it, when the tool gives any (Bash's description). */
  description: string | null;
  /** The full command, URL, or the input as compact JSON; bounded. */
  body: string | null;
  /** For file edits: unified-diff-like lines (`+`, `-`, ` ` prefixed), bounded. */
  diff: string[] | null;
  /** The file the tool touches, when it touches one. */
  path: string | null;
}

export interface QuestionOption {
  label: string;
  description: string | null;
}

export interface ApprovalQuestion {
  question: string;
  header: string | null;
  options: QuestionOption[];
  multiSelect: boolean;
}

/** The named keys a dialog's option may be chosen by (its footer's, or an unread screen's); other options are numbers. */
export const DIALOG_OPTION_KEYS = ['Enter', 'Esc', 'Tab', 'Shift+Tab', 'Up', 'Down'] as const;

/** An option of a dialog answered by keys; `key` is what chooses it: its number, or one of DIALOG_OPTION_KEYS. */
export interface DialogOption {
  key: string;
  label: string;
}

export interface Approval {
  id: string;
  /** The tab (or outside-session key) whose Claude asks. */
  tabId: string;
  sessionId: string | null;
  kind: ApprovalKind;
  tool: string | null;
  summary: ApprovalSummary;
  /** For `question`: what Claude asks, in order. */
  questions: ApprovalQuestion[];
  /** For `plan` and `dialog`: the options read from the screen, or none when it could not be read. */
  options: DialogOption[];
  /** Claude's "always allow" suggestion in words, when it made one; offered as a third choice. */
  alwaysAllow: string | null;
  createdAt: number;
  /** When the agent gives up holding the hook and leaves the dialog to the terminal. */
  expiresAt: number;
  /**
   * When a workspace's guardrail denies it if nobody answers first, or null when none will:
   * set when the hook is held, from the guardrail on at that moment. The agent's word, so a
   * card never counts down to a denial the agent will not make.
   */
  denyAt: number | null;
  /**
   * For the next screen of one the agent could not read, answered by a key from a device a
   * moment before: that screen's approval. Its card takes that one's place (and its
   * `createdAt`), so the card seems to follow the screen.
   */
  follows?: string;
  /** The linked machine whose Claude asks (see machine-key.ts); absent for the home agent's own. */
  machine?: string;
  /**
   * Offered without a notification: a dialog seen again after a restart, one the tab was
   * already waiting in, or one that follows an answer just given. A home agent following this
   * one pushes what it would push, so it reads this too. Absent when a notification is due.
   */
  quiet?: true;
}

/**
 * A dialog the agent could not read: offered as Claude drew it (its lines are the body, which
 * no dialog read off the screen has), with bare keys to press.
 */
export function isUnreadScreen(approval: Pick<Approval, 'kind' | 'summary'>): boolean {
  return approval.kind === 'dialog' && approval.summary.body !== null;
}

export const RESOLVER_KINDS = ['device', 'cli', 'terminal', 'agent'] as const;

/** The name a workspace's guardrail decides under (`by: {kind: 'agent', name}`): its card says so. */
export const GUARDRAIL_RESOLVER = 'guardrail';

export interface ApprovalResolver {
  /**
   * `device`: a paired device (`name` is its name); `cli`: the CLI on this machine; `terminal`:
   * the person at the terminal, or Claude itself moving on; `agent`: the agent gave up holding it
   * (expired, Claude gone, agent stopping).
   */
  kind: (typeof RESOLVER_KINDS)[number];
  name: string | null;
}

export interface ApprovalResolution {
  id: string;
  tabId: string;
  outcome: ApprovalOutcome;
  by: ApprovalResolver;
  at: number;
  /** The deny message sent to Claude, when there was one. */
  message: string | null;
}

export type ApprovalServerMessage =
  | { type: 'approval-opened'; approval: Approval }
  | { type: 'approval-resolved'; resolution: ApprovalResolution };

/**
 * Why text from a device was refused (409): it would land in a dialog Claude shows, answered
 * by its card instead.
 */
export const DIALOG_SHOWN_ERROR = 'Claude is showing a dialog: answer it first';

/**
 * The `code` of a 409 for a block's answer that could not be carried out now (Claude busy, the
 * call gone from its list): the block stays open. Any other 409 means someone answered first.
 */
export const NOT_CARRIED_OUT = 'not-carried-out';

export const DECISIONS = ['allow', 'allow-always', 'deny', 'answer'] as const;
export type Decision = (typeof DECISIONS)[number];

// Schemas of what the agent sends, for clients to parse it with.

const ApprovalSummarySchema = z.object({
  title: z.string(),
  description: z.nullable(z.string()),
  body: z.nullable(z.string()),
  diff: z.nullable(z.array(z.string())),
  path: z.nullable(z.string()),
}) satisfies z.ZodMiniType<ApprovalSummary>;

const ApprovalQuestionSchema = z.object({
  question: z.string(),
  header: z.nullable(z.string()),
  options: z.array(z.object({ label: z.string(), description: z.nullable(z.string()) })),
  multiSelect: z.boolean(),
}) satisfies z.ZodMiniType<ApprovalQuestion>;

export const ApprovalSchema = z.object({
  id: z.string(),
  tabId: z.string(),
  sessionId: z.nullable(z.string()),
  kind: z.enum(APPROVAL_KINDS),
  tool: z.nullable(z.string()),
  summary: ApprovalSummarySchema,
  questions: z.array(ApprovalQuestionSchema),
  options: z.array(z.object({ key: z.string(), label: z.string() })),
  alwaysAllow: z.nullable(z.string()),
  createdAt: z.number(),
  expiresAt: z.number(),
  denyAt: z.nullable(z.number()),
  follows: z.optional(z.string()),
  machine: z.optional(z.string()),
  quiet: z.optional(z.literal(true)),
}) satisfies z.ZodMiniType<Approval>;

export const ApprovalResolutionSchema = z.object({
  id: z.string(),
  tabId: z.string(),
  outcome: z.enum(APPROVAL_OUTCOMES),
  by: z.object({ kind: z.enum(RESOLVER_KINDS), name: z.nullable(z.string()) }),
  at: z.number(),
  message: z.nullable(z.string()),
}) satisfies z.ZodMiniType<ApprovalResolution>;

export const ApprovalServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('approval-opened'), approval: ApprovalSchema }),
  z.object({ type: z.literal('approval-resolved'), resolution: ApprovalResolutionSchema }),
]) satisfies z.ZodMiniType<ApprovalServerMessage>;
