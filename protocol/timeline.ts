/**
 * `/api/timeline`: the conversation of one Claude tab, as typed entries the agent derives from
 * the session's transcript. Entries are bounded in size so a client can hold hundreds of them
 * whatever the session did (a 5 MB tool output or a huge file write arrives as an excerpt).
 */
import { z } from 'zod/mini';
import { safeParse } from './safe-parse.js';

/** Size bounds, in UTF-16 code units, applied by the agent before an entry leaves it. */
export const TIMELINE_LIMITS = {
  /** A prompt or an assistant text. */
  text: 16_000,
  /** A tool result's text. */
  toolResult: 2_000,
  /** Each string inside a tool call's input object. */
  inputString: 2_000,
  /** The one-line summary of a tool call's input. */
  summary: 200,
  /** The first line of a thinking block. */
  thinkingLine: 200,
  /**
   * Each token count of a message's usage. Far above any real message (a context window holds
   * about a million tokens), so a count beyond it is a broken line, not a big turn.
   */
  tokens: 1_000_000_000,
} as const;

/**
 * What one API message cost in tokens, as the transcript reported it. Claude Code writes one
 * line per content block of a message and repeats the message's usage on each, so the entries
 * of one `messageId` carry the same message's usage: count it once per message id.
 */
export interface MessageUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

export interface TimelineEntryBase {
  /**
   * Stable across reads of the same transcript: the transcript line's uuid (with `:<n>` for
   * the n-th block of a line holding several), or the tool_use_id for a tool call.
   */
  id: string;
  /** ISO timestamp the transcript line carries. */
  at: string;
  /** Byte offset in the transcript file of the line this entry came from. */
  offset: number;
  /**
   * The reader's change counter when this entry was added or last changed (a tool call gets a
   * new one when its result arrives). A client that asks for entries after a seq it holds
   * upserts them by `id`.
   */
  seq: number;
}

/** What the person typed. */
export interface PromptEntry extends TimelineEntryBase {
  kind: 'prompt';
  text: string;
  truncated: boolean;
}

/** Text Claude wrote. */
export interface AssistantTextEntry extends TimelineEntryBase {
  kind: 'assistant-text';
  /** The API message id; one message spans several entries when it holds several blocks. */
  messageId: string;
  /** The message's token use, when its transcript line reported a valid one. */
  usage?: MessageUsage;
  text: string;
  truncated: boolean;
  /** The person pressed Esc while this message was streaming; the text is what arrived. */
  aborted: boolean;
}

export interface ToolResult {
  status: 'ok' | 'error';
  /** The start of the result's text; images and other non-text parts appear as placeholders. */
  text: string;
  truncated: boolean;
  at: string;
  offset: number;
}

/** A tool Claude called, with its result once the transcript has it. */
export interface ToolCallEntry extends TimelineEntryBase {
  kind: 'tool-call';
  messageId: string;
  /** The message's token use, when its transcript line reported a valid one. */
  usage?: MessageUsage;
  toolUseId: string;
  name: string;
  /** One readable line: the command, the file, the pattern... */
  summary: string;
  /** The input object, with every long string inside cut to `TIMELINE_LIMITS.inputString`. */
  input: unknown;
  result?: ToolResult;
}

/** Claude thought; folded to its size and first line. */
export interface ThinkingEntry extends TimelineEntryBase {
  kind: 'thinking';
  messageId: string;
  /** The message's token use, when its transcript line reported a valid one. */
  usage?: MessageUsage;
  /** Length of the thinking text (0 when the API redacted or omitted it). */
  length: number;
  firstLine: string;
  redacted: boolean;
}

/**
 * The synthetic `[Request interrupted by user...]` line: Esc while Claude worked, or "No" in a
 * permission dialog (`forToolUse`). Claude fires no hook for it, so it ends a turn silently.
 */
export interface InterruptEntry extends TimelineEntryBase {
  kind: 'interrupt';
  forToolUse: boolean;
}

/** Something Claude Code itself reported: compaction, an API error, a local command. */
export interface NoticeEntry extends TimelineEntryBase {
  kind: 'notice';
  subtype: string;
  level: 'info' | 'warning' | 'error';
  text: string;
}

export type TimelineEntry =
  | PromptEntry
  | AssistantTextEntry
  | ToolCallEntry
  | ThinkingEntry
  | InterruptEntry
  | NoticeEntry;

export type TimelineEntryKind = TimelineEntry['kind'];

export interface ClippedText {
  text: string;
  truncated: boolean;
}

/** Cuts `text` to at most `max` code units, never splitting a surrogate pair. */
export function clipText(text: string, max: number): ClippedText {
  if (text.length <= max) return { text, truncated: false };
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return { text: text.slice(0, end), truncated: true };
}

/** The first non-empty line of `text`, cut to `max`, with `…` when anything was left out. */
export function firstLine(text: string, max: number): string {
  const trimmed = text.trim();
  const nl = trimmed.indexOf('\n');
  const line = (nl === -1 ? trimmed : trimmed.slice(0, nl)).trimEnd();
  const clipped = clipText(line, max);
  return clipped.truncated || nl !== -1 ? `${clipped.text}…` : clipped.text;
}

const MAX_INPUT_DEPTH = 8;
const MAX_INPUT_ITEMS = 100;

/**
 * A copy of a tool's input small enough to ship: long strings cut, deep nesting and long
 * arrays or objects elided. A Write of a multi-megabyte file keeps its path and the start of
 * its content.
 */
export function clipToolInput(value: unknown, maxString: number = TIMELINE_LIMITS.inputString): unknown {
  return clipValue(value, maxString, 0);
}

function clipValue(value: unknown, maxString: number, depth: number): unknown {
  if (typeof value === 'string') {
    const clipped = clipText(value, maxString);
    return clipped.truncated ? `${clipped.text}… [${value.length - clipped.text.length} more chars]` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_INPUT_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_INPUT_ITEMS).map((v) => clipValue(v, maxString, depth + 1));
    if (value.length > MAX_INPUT_ITEMS) items.push(`[${value.length - MAX_INPUT_ITEMS} more items]`);
    return items;
  }
  // Built from entries: a key `__proto__` stays a key, where assigning it would set the prototype.
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(value)) {
    if (out.length === MAX_INPUT_ITEMS) {
      out.push(['…', 'more keys left out']);
      break;
    }
    out.push([k, clipValue(v, maxString, depth + 1)]);
  }
  return Object.fromEntries(out);
}

/** Which input field best says what a tool call does, for the tools Claude Code ships. */
const SUMMARY_FIELDS: Record<string, readonly string[]> = {
  Bash: ['command'],
  BashOutput: ['bash_id'],
  KillShell: ['shell_id'],
  Read: ['file_path'],
  Write: ['file_path'],
  Edit: ['file_path'],
  MultiEdit: ['file_path'],
  NotebookEdit: ['notebook_path'],
  Glob: ['pattern', 'path'],
  Grep: ['pattern', 'path'],
  WebFetch: ['url'],
  WebSearch: ['query'],
  Task: ['description'],
  Agent: ['description'],
  Skill: ['skill', 'command'],
  SlashCommand: ['command'],
};

/** Fields worth showing for a tool this table does not know (MCP tools, future ones). */
const GENERIC_FIELDS = ['command', 'file_path', 'path', 'url', 'query', 'pattern', 'description', 'prompt', 'name'];

/**
 * One readable line saying what a tool call does: `npm test`, `src/app.ts`, `TODO in src`.
 * Used for timeline entries, the current tool of a tab, and approval cards.
 */
export function summarizeToolInput(name: string, input: unknown, max: number = TIMELINE_LIMITS.summary): string {
  // Clipped before it is written: JSON.stringify recurses, and an input can nest deeper than the stack.
  const json = (value: unknown) => firstLine(JSON.stringify(clipToolInput(value, max)) ?? '', max);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return input === undefined ? '' : json(input);
  }
  const fields = input as Record<string, unknown>;
  const str = (key: string): string | undefined => {
    const v = fields[key];
    return typeof v === 'string' && v.trim() !== '' ? v : undefined;
  };
  if (name === 'Grep' || name === 'Glob') {
    const pattern = str('pattern');
    const path = str('path');
    if (pattern !== undefined) return firstLine(path === undefined ? pattern : `${pattern} in ${path}`, max);
  }
  if (name === 'TodoWrite' && Array.isArray(fields.todos)) {
    return `${fields.todos.length} todo${fields.todos.length === 1 ? '' : 's'}`;
  }
  // The tool's name is Claude's: `constructor` must not find Object's.
  for (const key of (Object.hasOwn(SUMMARY_FIELDS, name) ? SUMMARY_FIELDS[name] : undefined) ?? GENERIC_FIELDS) {
    const v = str(key);
    if (v !== undefined) return firstLine(v, max);
  }
  for (const v of Object.values(fields)) {
    if (typeof v === 'string' && v.trim() !== '') return firstLine(v, max);
  }
  return json(fields);
}

/**
 * `/api/timeline?tab=<id>`: a first page of the tab's conversation, then live changes.
 * Entries are keyed by `id`; an `append` may carry an entry already shown (a tool call whose
 * result arrived) and replaces it. `reset` means the transcript changed under us (a new
 * session, `/clear`): drop everything shown and take the page that follows.
 */
export type TimelineServerMessage =
  | { type: 'timeline:page'; tabId: string; entries: TimelineEntry[]; sessionId: string | null }
  | { type: 'timeline:append'; tabId: string; entries: TimelineEntry[] }
  | { type: 'timeline:reset'; tabId: string }
  | { type: 'timeline:error'; message: string };

/** How many entries the first page holds. */
export const TIMELINE_FIRST_PAGE = 200;

// Schemas of what the agent sends, for clients to parse it with; each is checked against the
// type above, which stays the agent's contract. They use zod/mini: the PWA's first screen
// parses every message with them, and the full zod would double its size.

const entryBase = { id: z.string(), at: z.string(), offset: z.number(), seq: z.number() };

// A refinement rather than zod's int/minimum/maximum checks, which no other schema of the
// first screen uses: they would add to the JavaScript it loads.
const tokenCount = z.number().check(z.refine((n) => Number.isInteger(n) && n >= 0 && n <= TIMELINE_LIMITS.tokens, 'a whole number of tokens'));

export const MessageUsage = z.object({
  inputTokens: tokenCount,
  outputTokens: tokenCount,
  cacheReadTokens: tokenCount,
  cacheCreationTokens: tokenCount,
}) satisfies z.ZodMiniType<MessageUsage>;

export const PromptEntry = z.object({
  ...entryBase,
  kind: z.literal('prompt'),
  text: z.string(),
  truncated: z.boolean(),
}) satisfies z.ZodMiniType<PromptEntry>;

export const AssistantTextEntry = z.object({
  ...entryBase,
  kind: z.literal('assistant-text'),
  messageId: z.string(),
  usage: z.optional(MessageUsage),
  text: z.string(),
  truncated: z.boolean(),
  aborted: z.boolean(),
}) satisfies z.ZodMiniType<AssistantTextEntry>;

export const ToolResult = z.object({
  status: z.enum(['ok', 'error']),
  text: z.string(),
  truncated: z.boolean(),
  at: z.string(),
  offset: z.number(),
}) satisfies z.ZodMiniType<ToolResult>;

export const ToolCallEntry = z.object({
  ...entryBase,
  kind: z.literal('tool-call'),
  messageId: z.string(),
  usage: z.optional(MessageUsage),
  toolUseId: z.string(),
  name: z.string(),
  summary: z.string(),
  input: z.unknown(),
  result: z.optional(ToolResult),
}) satisfies z.ZodMiniType<ToolCallEntry>;

export const ThinkingEntry = z.object({
  ...entryBase,
  kind: z.literal('thinking'),
  messageId: z.string(),
  usage: z.optional(MessageUsage),
  length: z.number(),
  firstLine: z.string(),
  redacted: z.boolean(),
}) satisfies z.ZodMiniType<ThinkingEntry>;

export const InterruptEntry = z.object({
  ...entryBase,
  kind: z.literal('interrupt'),
  forToolUse: z.boolean(),
}) satisfies z.ZodMiniType<InterruptEntry>;

export const NoticeEntry = z.object({
  ...entryBase,
  kind: z.literal('notice'),
  subtype: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  text: z.string(),
}) satisfies z.ZodMiniType<NoticeEntry>;

export const TimelineEntry = z.discriminatedUnion('kind', [
  PromptEntry,
  AssistantTextEntry,
  ToolCallEntry,
  ThinkingEntry,
  InterruptEntry,
  NoticeEntry,
]) satisfies z.ZodMiniType<TimelineEntry>;

/**
 * The entries of a page or an append a client can read: one of a kind added by a newer agent
 * is left out rather than drawn wrong or failing the whole message.
 */
const ReadableEntries = z.pipe(
  z.array(z.unknown()),
  z.transform((items) =>
    items.flatMap((item) => {
      const parsed = safeParse(TimelineEntry, item);
      return parsed.success ? [parsed.data] : [];
    }),
  ),
);

export const TimelineServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('timeline:page'), tabId: z.string(), entries: ReadableEntries, sessionId: z.nullable(z.string()) }),
  z.object({ type: z.literal('timeline:append'), tabId: z.string(), entries: ReadableEntries }),
  z.object({ type: z.literal('timeline:reset'), tabId: z.string() }),
  z.object({ type: z.literal('timeline:error'), message: z.string() }),
]) satisfies z.ZodMiniType<TimelineServerMessage>;
