/**
 * Parses one line of a Claude Code transcript (`~/.claude/projects/<slug>/<session>.jsonl`)
 * into the few facts pocketmux uses. Pure and total: any string in, a value out, never a throw.
 *
 * Only `user`, `assistant` and `system` lines are read; Claude Code writes many other line
 * types (attachments, mode changes, API request logs, snapshots, costs...) and adds new ones
 * between versions, so anything else is skipped by design rather than reported.
 */
import { z } from 'zod';
import {
  type ClippedText,
  clipText,
  clipToolInput,
  firstLine,
  type MessageUsage,
  summarizeToolInput,
  TIMELINE_LIMITS,
} from '../../protocol/timeline.js';
import { safeParse } from '../../protocol/safe-parse.js';

/** How Claude Code marks a turn the person cut short; the rest of the text varies by version. */
export const INTERRUPT_PREFIX = '[Request interrupted by user';

interface RecordBase {
  /** The transcript line's uuid. */
  uuid: string;
  timestamp: string;
}

export interface PromptRecord extends RecordBase {
  kind: 'prompt';
  text: string;
  truncated: boolean;
}

export interface ToolResultRecord extends RecordBase {
  kind: 'tool-result';
  toolUseId: string;
  isError: boolean;
  text: string;
  truncated: boolean;
}

export interface InterruptRecord extends RecordBase {
  kind: 'interrupt';
  /** `[Request interrupted by user for tool use]`: a tool was refused or stopped. */
  forToolUse: boolean;
}

interface AssistantRecordBase extends RecordBase {
  messageId: string;
  model: string | undefined;
  /** Index of the block within this line's content (one block a line in 2.1.x). */
  blockIndex: number;
  /**
   * The message's `usage`, repeated on every line of the message: undefined when the line
   * has none or a malformed one, which costs the count, never the line.
   */
  usage: MessageUsage | undefined;
}

export interface AssistantTextRecord extends AssistantRecordBase {
  kind: 'assistant-text';
  text: string;
  truncated: boolean;
  aborted: boolean;
}

export interface ToolUseRecord extends AssistantRecordBase {
  kind: 'tool-use';
  toolUseId: string;
  name: string;
  /** Clipped with `clipToolInput`. */
  input: unknown;
  summary: string;
}

export interface ThinkingRecord extends AssistantRecordBase {
  kind: 'thinking';
  length: number;
  firstLine: string;
  redacted: boolean;
}

export interface SystemRecord extends RecordBase {
  kind: 'system';
  subtype: string;
  level: 'info' | 'warning' | 'error';
  /** The line's `content` text, when it has one. */
  text: string | undefined;
}

export type TranscriptRecord =
  | PromptRecord
  | ToolResultRecord
  | InterruptRecord
  | AssistantTextRecord
  | ToolUseRecord
  | ThinkingRecord
  | SystemRecord;

export type KeptLineType = 'user' | 'assistant' | 'system';

export type ParsedLine =
  | {
      status: 'kept';
      lineType: KeptLineType;
      /** A subagent's line (`isSidechain`), not the main conversation. */
      sidechain: boolean;
      records: TranscriptRecord[];
    }
  | { status: 'skipped'; lineType: string }
  | { status: 'error'; reason: string };

const LineHead = z.looseObject({ type: z.string() });

const LineCommon = {
  uuid: z.string().min(1),
  timestamp: z.string().min(1),
  isSidechain: z.boolean().optional(),
  isMeta: z.boolean().optional(),
};

const Block = z.looseObject({ type: z.string() });

const UserLine = z.looseObject({
  ...LineCommon,
  type: z.literal('user'),
  isCompactSummary: z.boolean().optional(),
  message: z.looseObject({
    content: z.union([z.string(), z.array(Block)]),
  }),
});

const AssistantLine = z.looseObject({
  ...LineCommon,
  type: z.literal('assistant'),
  isAbortedMidStream: z.boolean().optional(),
  message: z.looseObject({
    id: z.string().min(1),
    model: z.string().optional(),
    content: z.array(Block),
    usage: z.unknown().optional(),
  }),
});

const TokenCount = z.number().int().min(0).max(TIMELINE_LIMITS.tokens);

const Usage = z.looseObject({
  input_tokens: TokenCount,
  output_tokens: TokenCount,
  cache_read_input_tokens: TokenCount.nullish(),
  cache_creation_input_tokens: TokenCount.nullish(),
});

/** A message's token use, or undefined when the line reports none or one that makes no sense. */
function messageUsage(value: unknown): MessageUsage | undefined {
  const parsed = safeParse(Usage, value);
  if (!parsed.success) return undefined;
  const u = parsed.data;
  return {
    inputTokens: u.input_tokens,
    outputTokens: u.output_tokens,
    cacheReadTokens: u.cache_read_input_tokens ?? 0,
    cacheCreationTokens: u.cache_creation_input_tokens ?? 0,
  };
}

const SystemLine = z.looseObject({
  ...LineCommon,
  type: z.literal('system'),
  subtype: z.string().optional(),
  level: z.string().optional(),
  content: z.unknown().optional(),
});

const TextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
const ToolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string(),
  input: z.unknown(),
});
const ThinkingBlock = z.looseObject({ type: z.literal('thinking'), thinking: z.string() });
const ToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  is_error: z.boolean().nullish(),
  content: z.union([z.string(), z.array(Block)]).nullish(),
});

type Failure = { status: 'error'; reason: string };

function describeIssues(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  const path = issue ? [where, ...issue.path.map(String)].filter(Boolean).join('.') : where;
  return `${path || '(root)'}: ${issue?.message ?? 'invalid'}`;
}

function fail(reason: string): Failure {
  return { status: 'error', reason };
}

/** Parses `block` with `schema`, or says where it went wrong. */
function parseBlock<S extends z.ZodType>(
  schema: S,
  block: unknown,
  where: string,
): { ok: true; value: z.infer<S> } | { ok: false; reason: string } {
  const parsed = safeParse(schema, block);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: describeIssues(parsed.error, where) };
}

/** A log line as JSON, or why it is none: the first step of reading any agent CLI's conversation log. */
export function jsonOfLine(line: string): { ok: true; json: unknown } | Failure {
  if (line.trim() === '') return fail('empty line');
  try {
    return { ok: true, json: JSON.parse(line) };
  } catch (err) {
    return fail(`not valid JSON: ${(err as Error).message}`);
  }
}

export function parseTranscriptLine(line: string): ParsedLine {
  const read = jsonOfLine(line);
  if (!('ok' in read)) return read;
  const json = read.json;
  const head = safeParse(LineHead, json);
  if (!head.success) return fail('not a transcript line: expected an object with a string "type"');
  switch (head.data.type) {
    case 'user':
      return parseUserLine(json);
    case 'assistant':
      return parseAssistantLine(json);
    case 'system':
      return parseSystemLine(json);
    default:
      return { status: 'skipped', lineType: head.data.type };
  }
}

function isInterruptText(text: string): boolean {
  return text.trimStart().startsWith(INTERRUPT_PREFIX);
}

function interruptRecord(base: RecordBase, text: string): InterruptRecord {
  return { ...base, kind: 'interrupt', forToolUse: /for tool use/i.test(text) };
}

function parseUserLine(json: unknown): ParsedLine {
  const parsed = safeParse(UserLine, json);
  if (!parsed.success) return fail(describeIssues(parsed.error, ''));
  const line = parsed.data;
  const base: RecordBase = { uuid: line.uuid, timestamp: line.timestamp };
  const kept = (records: TranscriptRecord[]): ParsedLine => ({
    status: 'kept',
    lineType: 'user',
    sidechain: line.isSidechain === true,
    records,
  });
  // Meta lines (command caveats, injected context) and compaction summaries are Claude Code
  // talking to the model, not the person: they are neither prompts nor the end of a turn.
  if (line.isMeta === true || line.isCompactSummary === true) return kept([]);

  const content = line.message.content;
  if (typeof content === 'string') {
    if (isInterruptText(content)) return kept([interruptRecord(base, content)]);
    // A slash command the person ran shows as the command, not its XML wrapper; its captured
    // output is Claude Code's, not the person's.
    if (content.startsWith('<local-command-stdout>') || content.startsWith('<local-command-stderr>')) {
      return kept([]);
    }
    const command = slashCommand(content);
    return kept([promptRecord(base, command ?? content)]);
  }

  const records: TranscriptRecord[] = [];
  const promptParts: string[] = [];
  for (const [i, block] of content.entries()) {
    if (block.type === 'tool_result') {
      const result = parseBlock(ToolResultBlock, block, `message.content.${i}`);
      if (!result.ok) return fail(result.reason);
      const text = toolResultText(result.value.content);
      records.push({
        ...base,
        kind: 'tool-result',
        toolUseId: result.value.tool_use_id,
        isError: result.value.is_error === true,
        text: text.text,
        truncated: text.truncated,
      });
    } else if (block.type === 'text') {
      const text = parseBlock(TextBlock, block, `message.content.${i}`);
      if (!text.ok) return fail(text.reason);
      if (isInterruptText(text.value.text)) records.push(interruptRecord(base, text.value.text));
      else promptParts.push(text.value.text);
    }
    // Images, documents and future block types carry nothing the timeline shows as text.
  }
  if (promptParts.length > 0) records.unshift(promptRecord(base, promptParts.join('\n')));
  return kept(records);
}

/**
 * `/name args` from the `<command-name>` form Claude Code logs slash commands in. A built-in
 * command's line starts with its name; a custom command's (`.claude/commands/*.md`) starts with
 * a `<command-message>`, and its expanded body follows in a meta line.
 */
function slashCommand(content: string): string | undefined {
  const name = /^(?:<command-message>[^<]*<\/command-message>\s*)?<command-name>([^<]*)<\/command-name>/.exec(content)?.[1]?.trim();
  if (!name) return undefined;
  const args = /<command-args>([^<]*)<\/command-args>/.exec(content)?.[1]?.trim();
  const command = name.startsWith('/') ? name : `/${name}`;
  return args ? `${command} ${args}` : command;
}

function promptRecord(base: RecordBase, text: string): PromptRecord {
  const clipped = clipText(text, TIMELINE_LIMITS.text);
  return { ...base, kind: 'prompt', text: clipped.text, truncated: clipped.truncated };
}

/**
 * A tool result's content as bounded text. It can be megabytes (a `cat` of a log): only the
 * start is kept, and the parts are joined only until the bound is reached.
 */
function toolResultText(content: string | z.infer<typeof Block>[] | null | undefined): ClippedText {
  const max = TIMELINE_LIMITS.toolResult;
  if (content == null) return { text: '', truncated: false };
  if (typeof content === 'string') return clipText(content, max);
  let text = '';
  let truncated = false;
  for (const part of content) {
    if (text.length > max) {
      truncated = true;
      break;
    }
    const piece = part.type === 'text' && typeof part.text === 'string' ? part.text : `[${part.type}]`;
    text = text === '' ? piece : `${text}\n${piece}`;
  }
  const clipped = clipText(text, max);
  return { text: clipped.text, truncated: truncated || clipped.truncated };
}

function parseAssistantLine(json: unknown): ParsedLine {
  const parsed = safeParse(AssistantLine, json);
  if (!parsed.success) return fail(describeIssues(parsed.error, ''));
  const line = parsed.data;
  const message = line.message;
  const base = {
    uuid: line.uuid,
    timestamp: line.timestamp,
    messageId: message.id,
    model: message.model,
    usage: messageUsage(message.usage),
  };
  const records: TranscriptRecord[] = [];
  for (const [i, block] of message.content.entries()) {
    const where = `message.content.${i}`;
    switch (block.type) {
      case 'text': {
        const text = parseBlock(TextBlock, block, where);
        if (!text.ok) return fail(text.reason);
        const clipped = clipText(text.value.text, TIMELINE_LIMITS.text);
        records.push({
          ...base,
          kind: 'assistant-text',
          blockIndex: i,
          text: clipped.text,
          truncated: clipped.truncated,
          aborted: line.isAbortedMidStream === true,
        });
        break;
      }
      case 'tool_use': {
        const use = parseBlock(ToolUseBlock, block, where);
        if (!use.ok) return fail(use.reason);
        records.push({
          ...base,
          kind: 'tool-use',
          blockIndex: i,
          toolUseId: use.value.id,
          name: use.value.name,
          input: clipToolInput(use.value.input),
          summary: summarizeToolInput(use.value.name, use.value.input),
        });
        break;
      }
      case 'thinking': {
        const thinking = parseBlock(ThinkingBlock, block, where);
        if (!thinking.ok) return fail(thinking.reason);
        const text = thinking.value.thinking;
        records.push({
          ...base,
          kind: 'thinking',
          blockIndex: i,
          length: text.length,
          firstLine: firstLine(text, TIMELINE_LIMITS.thinkingLine),
          redacted: false,
        });
        break;
      }
      case 'redacted_thinking':
        records.push({ ...base, kind: 'thinking', blockIndex: i, length: 0, firstLine: '', redacted: true });
        break;
      default:
      // Server tool blocks and future types: nothing to show yet.
    }
  }
  return { status: 'kept', lineType: 'assistant', sidechain: line.isSidechain === true, records };
}

function parseSystemLine(json: unknown): ParsedLine {
  const parsed = safeParse(SystemLine, json);
  if (!parsed.success) return fail(describeIssues(parsed.error, ''));
  const line = parsed.data;
  const level = line.level === 'error' ? 'error' : line.level === 'warning' ? 'warning' : 'info';
  const text = typeof line.content === 'string' ? clipText(line.content, TIMELINE_LIMITS.text).text : undefined;
  return {
    status: 'kept',
    lineType: 'system',
    sidechain: line.isSidechain === true,
    records: [
      {
        uuid: line.uuid,
        timestamp: line.timestamp,
        kind: 'system',
        subtype: line.subtype ?? 'unknown',
        level,
        text,
      },
    ],
  };
}
