/**
 * REST bodies and the shapes of workspaces and tabs as the agent reports them.
 * Every body the agent receives is parsed with one of these schemas at the boundary.
 */
import { z } from 'zod';
import { TAB_KINDS, type TabKind } from './agents.js';
import { BLOCK_OPTIONS, DECISIONS, DIALOG_OPTION_KEYS } from './approvals.js';
import { CLAUDE_MODES } from './claude-mode.js';
import { OUTSIDE_KEY_MAX, OUTSIDE_PREFIX } from './hook-contract.js';
import { CHANGE_SCOPES, CHANGES_LIMITS } from './changes.js';
import { COMMIT_MESSAGE_MAX, DECISION_LIMITS, GUARDRAIL_MINUTES, ID_MAX, INPUT_TEXT_MAX, NAME_MAX } from './limits.js';
import { unsafeLinesProblem, unsafeTextProblem, visibleText } from './safe-text.js';

const ID_PATTERN = new RegExp(`^[a-z0-9-]{1,${ID_MAX}}$`);

export const WorkspaceId = z.string().regex(ID_PATTERN, 'not a workspace id');
export const TabId = z.string().regex(ID_PATTERN, 'not a tab id');

/**
 * At most `max` UTF-16 code units, as the app's `maxlength` and the agent's own cuts count.
 * zod's `max` counts code points, which lets a string of emoji through at twice the length.
 */
const withinUnits = (max: number) => (s: string) => s.length <= max;

/**
 * A display name: trimmed, non-empty, one line, bounded, and shown as typed: no control
 * characters (C0, DEL, C1) and no bidirectional formatting characters, which would act on
 * a terminal or reorder what a person reads.
 */
export const DisplayName = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(NAME_MAX, `name must be at most ${NAME_MAX} characters`)
  .refine(withinUnits(NAME_MAX), `name must be at most ${NAME_MAX} characters`)
  .superRefine((s, ctx) => {
    const problem = unsafeTextProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: `name must not contain ${problem}` });
  });

/**
 * A valid display name made from text the person did not type (a directory's basename, a
 * tmux session name): unsafe characters written out as escapes, cut to length, or the
 * fallback when nothing is left.
 */
export function displayNameFrom(text: string, fallback: string): string {
  let name = '';
  for (const char of visibleText(text).trim()) {
    if (name.length + char.length > NAME_MAX) break;
    name += char;
  }
  name = name.trim();
  return name === '' ? fallback : name;
}

export const CreateWorkspaceBody = z.strictObject({
  name: DisplayName.optional(),
  /** Absolute path or one starting with `~`; must be an existing directory. */
  dir: z.string().min(1, 'dir must not be empty').max(4096),
});
export type CreateWorkspaceBody = z.infer<typeof CreateWorkspaceBody>;

export const RenameBody = z.strictObject({ name: DisplayName });
export type RenameBody = z.infer<typeof RenameBody>;

/**
 * A workspace's guardrail for when the person is away: a permission or question of its tabs
 * that waits `afterMinutes` with no answer is denied, and Claude is told why.
 */
export interface Guardrail {
  afterMinutes: number;
}
export const GuardrailSchema = z.strictObject({ afterMinutes: z.number().int().min(GUARDRAIL_MINUTES.min).max(GUARDRAIL_MINUTES.max) });

/** `PATCH /api/workspaces/:id`: its name, its guardrail (null: none), or both. */
export const WorkspacePatchBody = z
  .strictObject({ name: DisplayName.optional(), guardrail: GuardrailSchema.nullable().optional() })
  .refine((body) => body.name !== undefined || body.guardrail !== undefined, { message: 'name or guardrail is required' });
export type WorkspacePatchBody = z.infer<typeof WorkspacePatchBody>;

/** Claude Code's `--permission-mode` values. */
export const PermissionMode = z.enum(['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions', 'dontAsk']);
export type PermissionMode = z.infer<typeof PermissionMode>;

/**
 * Claude's session ids are UUIDs (its transcripts are named by them). Only such an id ever
 * reaches claude's command line: a hook's `session_id` is any text, and one like
 * `--dangerously-skip-permissions` would otherwise be read as an option of its own.
 */
const CLAUDE_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isClaudeSessionId(value: string): boolean {
  return CLAUDE_SESSION_ID.test(value);
}

/** A Claude session id to resume: a UUID. */
export const ClaudeSessionId = z.string().regex(CLAUDE_SESSION_ID, 'not a Claude session id (a UUID)');

export const CreateTabBody = z.strictObject({
  workspaceId: WorkspaceId,
  name: DisplayName.optional(),
  kind: z.enum(TAB_KINDS).default('shell'),
  /** For a Claude tab: a past session to resume, and the permission mode to start in. */
  claude: z
    .strictObject({
      resume: ClaudeSessionId.optional(),
      permissionMode: PermissionMode.optional(),
    })
    .optional(),
}).refine((body) => body.claude === undefined || body.kind === 'claude', { message: 'resume and permissionMode (claude) are for a Claude tab', path: ['claude'] });
export type CreateTabBody = z.infer<typeof CreateTabBody>;

/** `:key` in `/api/outside/:key/...`: an outside session's key (hook-contract.ts). */
export const OutsideKey = z.string().max(OUTSIDE_KEY_MAX).regex(new RegExp(`^${OUTSIDE_PREFIX}[A-Za-z0-9-]+$`), 'not an outside session key');

/** `POST /api/outside/:key/adopt`: into this workspace, else the one of its directory. */
export const AdoptBody = z.strictObject({ workspaceId: WorkspaceId.optional() });
export type AdoptBody = z.infer<typeof AdoptBody>;

/** `POST /api/tabs/:id/input`: text typed into the tab, then Enter unless `enter` is false. */
export const TabInputBody = z.strictObject({
  text: z
    .string()
    .max(INPUT_TEXT_MAX, 'text must be at most 64 KB')
    .refine(withinUnits(INPUT_TEXT_MAX), 'text must be at most 64 KB')
    .refine((s) => !s.includes('\u0000'), 'text must not contain a NUL character'),
  enter: z.boolean().default(true),
  /** Sent from a phone by a device that lets Claude know: the prompt carries a word on answering for a small screen. */
  phone: z.boolean().optional(),
});
export type TabInputBody = z.infer<typeof TabInputBody>;

/** `POST /api/pair`: the secret from a scanned `#pair=` URL, or a typed short code. */
/** The public half of the key a device proves its requests with (see `device-proof.ts`). */
export const DevicePublicKeyBody = z.strictObject({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a P-256 coordinate: 43 base64url characters'),
  y: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a P-256 coordinate: 43 base64url characters'),
});

export const PairBody = z
  .strictObject({
    secret: z.string().min(1).max(256).optional(),
    code: z.string().min(1).max(32).optional(),
    deviceName: DisplayName.optional(),
    /**
     * Every browser with WebCrypto (any secure context: HTTPS, or this machine's own address)
     * sends one; only a page on a plain-HTTP LAN address has none to send.
     */
    publicKey: DevicePublicKeyBody.optional(),
    /** Another pocketmux agent linking this one (`pocketmux machines add`), not a browser. */
    kind: z.literal('machine').optional(),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'machine' && (b.publicKey === undefined || b.secret === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'a machine links with the secret of a link code and a key of its own' });
    }
    if (b.secret === undefined && b.code === undefined) {
      ctx.addIssue({ code: 'custom', message: 'missing the pairing code (code) or the secret of a pairing link (secret): give one' });
    } else if (b.secret !== undefined && b.code !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'give the pairing code (code) or the secret of a pairing link (secret), not both' });
    }
  });
export type PairBody = z.infer<typeof PairBody>;

/** `GET /api/pair`: what pairing with this agent is like, for a browser that is not paired yet. */
export interface PairingTerms {
  /** How long a new pairing (link and code) works, in seconds. */
  validForSeconds: number;
}

/** `POST /api/pairings`: a pairing for the next device. */
export interface PairingResponse {
  url: string;
  /** Formatted for reading: XXXX-XXXX. */
  code: string;
  expiresAt: string;
  /** How long it works from when it was made, in seconds: the agent's own limit, to say in words. */
  validForSeconds: number;
  /** The URL's QR code as an SVG document. */
  qrSvg: string;
}

export interface DeviceView {
  id: string;
  name: string;
  platform: string;
  pairedAt: string;
  lastSeenAt: string | null;
  /** The device making the request. */
  current: boolean;
  /**
   * How its requests are proven: `key`, by a key that never leaves its browser; `cookie`, by
   * its cookie alone (paired on a plain-HTTP LAN address, where a browser has no WebCrypto);
   * `pair-again`, paired before devices had keys: refused until it pairs again.
   */
  binding: DeviceBinding;
  kind: DeviceKind;
}

export type DeviceBinding = 'key' | 'cookie' | 'pair-again';

/** A browser, or another pocketmux agent that linked this one (see protocol/machines.ts). */
export type DeviceKind = 'browser' | 'machine';

export interface DevicesResponse {
  devices: DeviceView[];
}

/** What the pane runs now, from tmux's `pane_current_command` and `pane_current_path`. */
export interface PaneTitle {
  command: string;
  path: string;
}

export interface TabView {
  id: string;
  workspaceId: string;
  /** Name the person gave the tab, or null to show the live title. */
  name: string | null;
  kind: TabKind;
  /** For a Claude tab: the Claude session it runs or last ran, once known. */
  claudeSessionId: string | null;
  createdAt: string;
  /** Last known working directory (where the shell restarts after a reboot). */
  cwd: string;
  title: PaneTitle | null;
  /** True while the tab's tmux session exists. */
  alive: boolean;
}

export interface WorkspaceView {
  id: string;
  name: string;
  dir: string;
  createdAt: string;
  /** What happens to a question of its tabs nobody answers: null leaves it to the terminal. */
  guardrail: Guardrail | null;
  tabs: TabView[];
  /** The linked machine it is on (see machine-key.ts); absent for the home agent's own. */
  machine?: string;
}

export interface WorkspacesResponse {
  workspaces: WorkspaceView[];
}

export interface SessionResponse {
  deviceId: string;
  deviceName: string;
  agentVersion: string;
  /** The agent's home directory, so clients can show paths as `~/…`. */
  home: string;
}

export interface ApiError {
  error: string;
  /** Per-field details when a body failed its schema. */
  issues?: { path: string; message: string }[];
  /**
   * `proof-time` (PROOF_TIME_ERROR): the request's proof was signed at a time the agent's clock
   * does not share. A refused credential or pairing: one of `refusals.ts`.
   */
  code?: string;
}

/** One open terminal connection, as `GET /api/terminals` reports it. */
export interface TerminalConnectionView {
  tabId: string;
  openedAt: string;
  /** Output bytes sent to this client. */
  bytesOut: number;
  /** True while flow control holds the pty because the client reads too slowly. */
  paused: boolean;
  pauses: number;
  /** Most bytes ever queued for this client (the socket's buffer and the reads gathered for it). */
  peakBuffered: number;
  /** Bytes queued for this client now. */
  queued: number;
  /** Bytes queued when flow control last let the pty go again; -1 while it never held it. */
  queuedAtResume: number;
  /** Stdout frames sent to this client. */
  frames: number;
  /** Bursts of output during which reading stopped for a moment to gather one larger frame. */
  holds: number;
  /** Times tmux was asked to redraw this client once a held flood went quiet. */
  redraws: number;
}

/** One second of the agent's event-loop delay: how late a timer due every millisecond ran (ms). */
export interface LoopDelaySecond {
  /** When the second ended (epoch ms). */
  at: number;
  samples: number;
  p50: number;
  p99: number;
  max: number;
  /** V8's collections in that second, the longest one's pause (ms) and how many were full ones. */
  gcs: number;
  gcLongest: number;
  majorGcs: number;
}

export interface TerminalsResponse {
  terminals: TerminalConnectionView[];
  /** The last ten minutes of event-loop delay, oldest first; null unless the agent measures it (`POCKETMUX_MEASURE_LOOP_DELAY=1`). */
  loopDelay: LoopDelaySecond[] | null;
}

/** A past Claude session of a workspace, from `~/.claude/projects/<slug>/<id>.jsonl`. */
export interface ClaudeSessionSummary {
  id: string;
  /** When the transcript was last written (ISO). */
  modifiedAt: string;
  /** The first prompt the person typed, shortened; null if none was found. */
  firstPrompt: string | null;
  sizeBytes: number;
}

/** `GET /api/workspaces/:id/claude-sessions`: newest first. */
export interface ClaudeSessionsResponse {
  sessions: ClaudeSessionSummary[];
}

/**
 * Text a device sends to Claude, which Claude reads and screens show: the rule of names, but
 * on several lines (tab and newline are text). No other C0 control, no DEL or C1 control, no
 * line or paragraph separator, no bidirectional control; the refusal names the character.
 */
const SendableText = (max: number) =>
  z
    .string()
    .max(max)
    .refine(withinUnits(max), `must be at most ${max} characters`)
    .superRefine((s, ctx) => {
      const problem = unsafeLinesProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', message: `must not contain ${problem}` });
    });

/**
 * Question text → answer. Read into a Map and checked there, then given back as an object
 * with those keys as its own: a question may be called `__proto__` (which zod leaves out of
 * a record, and assigning sets a plain object's prototype) or `toString`.
 */
const Answers = z
  .preprocess(
    (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map) ? new Map(Object.entries(value)) : value),
    // A question's text as its card shows it: written out by the same rule, so it passes it.
    z.map(SendableText(DECISION_LIMITS.answer), SendableText(DECISION_LIMITS.answer), { error: 'answers must be an object of question → answer' }),
  )
  .refine((a) => a.size <= DECISION_LIMITS.answers, `at most ${DECISION_LIMITS.answers} answers`)
  .transform((a): Record<string, string> => Object.fromEntries(a));

/**
 * `POST /api/approvals/:id`: one decision on an open approval. `message` goes with a deny, as
 * the reason Claude is told; `answers` with an answer to a question (question text → chosen
 * label, several joined by ", ", or free text); `option` with an answer to a dialog answered by
 * keys (the option's number, or the key its footer names), or to a block (`retry`, `dismiss`).
 */
export const DecisionBody = z
  .strictObject({
    decision: z.enum(DECISIONS),
    message: SendableText(DECISION_LIMITS.message).optional(),
    answers: Answers.optional(),
    option: z
      .string()
      .refine(
        (o) => /^[0-9]{1,2}$/.test(o) || (DIALOG_OPTION_KEYS as readonly string[]).includes(o) || BLOCK_OPTIONS.some((b) => b.key === o),
        "an option number, a dialog key, or a block's retry or dismiss",
      )
      .optional(),
  })
  .refine((b) => b.decision !== 'answer' || b.answers !== undefined || b.option !== undefined, '"answer" needs answers or an option');
export type DecisionBody = z.infer<typeof DecisionBody>;

/**
 * `POST /api/push/subscription`: a browser's `PushSubscription.toJSON()`. The endpoint is a URL
 * the agent will POST to, so which hosts it may name is checked by the agent, not here.
 */
export const PushSubscriptionBody = z.object({
  endpoint: z.string().max(2048).url(),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, 'not a P-256 public key'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,24}={0,2}$/, 'not an auth secret'),
  }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/** `PUT /api/push/settings`: any of the three; the others stay as they are. */
export const PushSettingsBody = z.strictObject({
  approvals: z.boolean().optional(),
  needsInput: z.boolean().optional(),
  review: z.boolean().optional(),
});
export type PushSettingsBody = z.infer<typeof PushSettingsBody>;

/**
 * `POST /api/tabs/:id/keys` and `POST /api/outside/:key/keys`: a named key pressed in the
 * pane, for what a composer needs without a terminal: Escape interrupts Claude (Stop).
 */
export const PANE_KEYS = ['Escape'] as const;
export const PaneKeyBody = z.strictObject({ key: z.enum(PANE_KEYS) });
export type PaneKeyBody = z.infer<typeof PaneKeyBody>;

/** `POST /api/tabs/:id/mode` and `/api/outside/:key/mode`: bypass only with `confirm`. */
export const ModeBody = z.strictObject({ mode: z.enum(CLAUDE_MODES), confirm: z.boolean().optional() });
export type ModeBody = z.infer<typeof ModeBody>;

/** One of Claude's slash commands, as the composer offers it when `/` is typed. */
export interface SlashCommandView {
  /** Without the slash: `compact`, `frontend:review`. */
  name: string;
  description: string | null;
  /** Built into Claude Code, the workspace's `.claude/commands/`, or the user's `~/.claude/commands/`. */
  source: 'builtin' | 'project' | 'user';
}

/** `GET /api/tabs/:id/commands` and `GET /api/outside/:key/commands`. */
export interface SlashCommandsResponse {
  commands: SlashCommandView[];
}

/**
 * `POST /api/tabs/:id/uploads` (and `/api/outside/:key/uploads`): the file is the raw body,
 * its name in the `X-Pocketmux-Filename` header (percent-encoded UTF-8). It is saved in the
 * session's directory under `.pocketmux/uploads/`, and its path comes back to be inserted into
 * the prompt. Its limit and header name are in limits.ts, where the app reads them.
 */
export interface UploadResponse {
  /** Absolute path of the saved file, as claude in that directory can read it. */
  path: string;
  /** The same, relative to the session's directory (what is inserted into the prompt). */
  relativePath: string;
  bytes: number;
}

/** The query of `GET /api/changes/:key`: `?scope=turn|session|head` (turn when absent). */
export const ChangesQuery = z.object({ scope: z.enum(CHANGE_SCOPES).optional() });

/** The query of `GET /api/changes/:key/file`: the file's path now, its scope, and the first diff line wanted. */
export const FileDiffQuery = z.object({
  path: z.string().min(1).max(CHANGES_LIMITS.path),
  scope: z.enum(CHANGE_SCOPES).optional(),
  from: z.coerce.number().int().min(0).optional(),
});

/** `POST /api/changes/:key/revert`: one file put back as it was at the start of the turn (or the session). */
export const RevertBody = z.strictObject({
  path: z.string().min(1).max(CHANGES_LIMITS.path),
  scope: z.enum(['turn', 'session']).default('turn'),
});
export type RevertBody = z.infer<typeof RevertBody>;

/** `POST /api/changes/:key/undo`: a revert taken back, by the id its answer gave. */
export const UndoBody = z.strictObject({ undo: z.string().regex(/^[0-9a-f]{24}$/, 'not an undo id') });
export type UndoBody = z.infer<typeof UndoBody>;

/** What a revert or an undo put back, and (a revert) the id that takes it back. */
export interface RevertResponse {
  restored: string[];
  undo?: string;
}

/** `POST /api/changes/:key/commit`: these changed files (against HEAD), staged and committed with this message. */
export const CommitBody = z.strictObject({
  message: z
    .string()
    .max(COMMIT_MESSAGE_MAX, `a commit message is at most ${COMMIT_MESSAGE_MAX} characters`)
    .refine(withinUnits(COMMIT_MESSAGE_MAX), `a commit message is at most ${COMMIT_MESSAGE_MAX} characters`)
    .refine((s) => s.trim() !== '', 'a commit needs a message')
    .refine((s) => !s.includes('\u0000'), 'a commit message cannot hold a NUL character'),
  paths: z.array(z.string().min(1).max(CHANGES_LIMITS.path)).min(1).max(CHANGES_LIMITS.files),
});
export type CommitBody = z.infer<typeof CommitBody>;

/** The commit made, and how many files it holds. */
export interface CommitResponse {
  commit: string;
  files: number;
}

/** The query of `GET /api/changes/:key/read`: a file's path, relative to the session's repository (or directory). */
export const ReadFileQuery = z.object({ path: z.string().min(1).max(CHANGES_LIMITS.path) });
