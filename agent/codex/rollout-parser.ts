/**
 * Parses one line of a Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`)
 * into the records a Claude transcript line gives (agent/claude/transcript-parser.ts), so one
 * reader and one timeline serve both. Pure and total: any string in, a value out, never a throw.
 * Written against Codex 0.169.0 (tests/fixtures/codex-0.169.0/rollout.jsonl).
 *
 * What is read:
 * - the person's prompt: an `item_completed` event of a `UserMessage` (the `user` messages among
 *   the response items also hold what Codex adds itself: the environment, instructions);
 * - Codex's answer: a `message` response item of role `assistant`;
 * - a tool call (`function_call`, `custom_tool_call`) and its output. `exec_command` is the shell,
 *   read as Claude's Bash is (its command, and the model's reason), as Codex's hooks name it;
 * - the end of a turn (`task_complete`), which the status reads as Claude's `turn_duration`.
 * Everything else (Codex's settings, token counts, world state, and types to come) is skipped.
 */
import { z } from 'zod';
import { safeParse } from '../../protocol/safe-parse.js';
import { clipText, clipToolInput, summarizeToolInput, TIMELINE_LIMITS } from '../../protocol/timeline.js';
import { jsonOfLine, type ParsedLine, type TranscriptRecord } from '../claude/transcript-parser.js';

const Line = z.looseObject({ timestamp: z.string().min(1), type: z.string(), payload: z.unknown() });
const Typed = z.looseObject({ type: z.string() });
const TextPart = z.looseObject({ type: z.string(), text: z.string().optional() });

const UserMessage = z.looseObject({
  type: z.literal('item_completed'),
  item: z.looseObject({ type: z.literal('UserMessage'), id: z.string().min(1), content: z.array(TextPart) }),
});
const AssistantMessage = z.looseObject({ type: z.literal('message'), role: z.literal('assistant'), id: z.string().min(1), content: z.array(TextPart) });
const FunctionCall = z.looseObject({
  type: z.enum(['function_call', 'custom_tool_call']),
  id: z.string().optional(),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string().optional(),
  input: z.string().optional(),
});
const FunctionOutput = z.looseObject({
  type: z.enum(['function_call_output', 'custom_tool_call_output']),
  call_id: z.string().min(1),
  output: z.unknown(),
});
const TaskComplete = z.looseObject({ type: z.literal('task_complete'), turn_id: z.string().optional() });

function fail(reason: string): ParsedLine {
  return { status: 'error', reason };
}

function kept(lineType: 'user' | 'assistant' | 'system', records: TranscriptRecord[]): ParsedLine {
  return { status: 'kept', lineType, sidechain: false, records };
}

function textOf(parts: readonly z.infer<typeof TextPart>[]): string {
  return parts.flatMap((p) => (typeof p.text === 'string' ? [p.text] : [])).join('\n');
}

/** A call's arguments as an object: JSON for a function, the raw text for a custom tool. */
function argumentsOf(call: z.infer<typeof FunctionCall>): unknown {
  if (call.arguments === undefined) return { input: call.input ?? '' };
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return parsed !== null && typeof parsed === 'object' ? parsed : { arguments: call.arguments };
  } catch {
    return { arguments: call.arguments };
  }
}

/** The shell as Codex's hooks name it (`Bash`, its `command` and `description`); any other tool as it is. */
function toolOf(call: z.infer<typeof FunctionCall>): { name: string; input: unknown } {
  const args = argumentsOf(call);
  if (call.name === 'exec_command' && args !== null && typeof args === 'object' && typeof (args as { cmd?: unknown }).cmd === 'string') {
    const { cmd, justification } = args as { cmd: string; justification?: unknown };
    return { name: 'Bash', input: typeof justification === 'string' ? { command: cmd, description: justification } : { command: cmd } };
  }
  return { name: call.name, input: args };
}

/**
 * What Codex puts before a command's output: `Chunk ID`, `Wall time`, the exit code, a token
 * count, then `Output:`. The output is what is shown; a code other than 0 makes it an error.
 */
const EXEC_HEADER = /^(?:Chunk ID: [^\n]*\n)?(?:Wall time: [^\n]*\n)?Process exited with code (\d+)\n(?:[^\n]*\n){0,3}?Output:\n/;

/** A tool's output as bounded text. */
function outputOf(output: unknown): { text: string; truncated: boolean; isError: boolean } {
  const raw = typeof output === 'string' ? output : (JSON.stringify(clipToolInput(output)) ?? '');
  const head = EXEC_HEADER.exec(raw.slice(0, 4096));
  const clipped = clipText(head ? raw.slice(head[0].length) : raw, TIMELINE_LIMITS.toolResult);
  return { ...clipped, isError: head !== null && head[1] !== '0' };
}

export function parseRolloutLine(line: string): ParsedLine {
  const read = jsonOfLine(line);
  if (!('ok' in read)) return read;
  const head = safeParse(Line, read.json);
  if (!head.success) return fail('not a rollout line: expected an object with a string "timestamp" and "type"');
  const { timestamp, type, payload } = head.data;
  const kind = safeParse(Typed, payload);
  const payloadType = kind.success ? kind.data.type : '';
  if (type === 'event_msg' && payloadType === 'item_completed') {
    const user = safeParse(UserMessage, payload);
    if (!user.success) return { status: 'skipped', lineType: `${type}:${payloadType}` };
    const clipped = clipText(textOf(user.data.item.content), TIMELINE_LIMITS.text);
    return kept('user', [{ uuid: user.data.item.id, timestamp, kind: 'prompt', text: clipped.text, truncated: clipped.truncated }]);
  }
  if (type === 'event_msg' && payloadType === 'task_complete') {
    const done = safeParse(TaskComplete, payload);
    if (!done.success) return fail('task_complete: not an object');
    return kept('system', [{ uuid: `turn-end:${done.data.turn_id ?? timestamp}`, timestamp, kind: 'system', subtype: 'turn_duration', level: 'info', text: undefined }]);
  }
  if (type !== 'response_item') return { status: 'skipped', lineType: payloadType ? `${type}:${payloadType}` : type };
  const base = { timestamp, model: undefined, blockIndex: 0, usage: undefined };
  switch (payloadType) {
    case 'message': {
      const message = safeParse(AssistantMessage, payload);
      // The person's and Codex's own messages (role user, developer) are read elsewhere or not shown.
      if (!message.success) return { status: 'skipped', lineType: 'response_item:message' };
      const clipped = clipText(textOf(message.data.content), TIMELINE_LIMITS.text);
      return kept('assistant', [{ ...base, uuid: message.data.id, messageId: message.data.id, kind: 'assistant-text', text: clipped.text, truncated: clipped.truncated, aborted: false }]);
    }
    case 'function_call':
    case 'custom_tool_call': {
      const call = safeParse(FunctionCall, payload);
      if (!call.success) return fail(`${payloadType}: ${call.error.issues[0]?.path.join('.') || '(payload)'}: ${call.error.issues[0]?.message ?? 'invalid'}`);
      const tool = toolOf(call.data);
      const id = call.data.id ?? call.data.call_id;
      return kept('assistant', [
        { ...base, uuid: id, messageId: id, kind: 'tool-use', toolUseId: call.data.call_id, name: tool.name, input: clipToolInput(tool.input), summary: summarizeToolInput(tool.name, tool.input) },
      ]);
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const out = safeParse(FunctionOutput, payload);
      if (!out.success) return fail(`${payloadType}: ${out.error.issues[0]?.path.join('.') || '(payload)'}: ${out.error.issues[0]?.message ?? 'invalid'}`);
      const result = outputOf(out.data.output);
      return kept('user', [{ uuid: `result:${out.data.call_id}`, timestamp, kind: 'tool-result', toolUseId: out.data.call_id, isError: result.isError, text: result.text, truncated: result.truncated }]);
    }
    default:
      return { status: 'skipped', lineType: payloadType ? `${type}:${payloadType}` : type };
  }
}
