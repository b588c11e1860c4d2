import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseTranscriptLine, type TranscriptRecord } from '../../../../agent/claude/transcript-parser.js';
import { TranscriptReader } from '../../../../agent/claude/transcript-reader.js';
import {
  clipText,
  clipToolInput,
  summarizeToolInput,
  TIMELINE_LIMITS,
  TimelineEntry,
  type ToolCallEntry,
} from '../../../../protocol/timeline.js';

const FIXTURE = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332', 'transcript.jsonl');
const fixtureText = readFileSync(FIXTURE, 'utf8');
const fixtureLines = fixtureText.split('\n').filter((l) => l !== '');

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-transcript-'));
  file = join(dir, 'session.jsonl');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const ofKind = <K extends TimelineEntry['kind']>(entries: TimelineEntry[], kind: K) =>
  entries.filter((e): e is Extract<TimelineEntry, { kind: K }> => e.kind === kind);

/**
 * What one poll did, seen the way the agent sees it: the reader's stats before and after,
 * and the entries past the cursor the poll started from.
 */
async function pollOf(reader: TranscriptReader) {
  const before = reader.stats();
  const cursor = reader.cursor();
  const { missing } = await reader.poll();
  const after = reader.stats();
  const restarted = after.restarts > before.restarts;
  return {
    missing,
    restarted,
    bytesRead: after.position - (restarted ? 0 : before.position),
    offset: after.offset,
    lines: after.lines - before.lines,
    errors: after.errors - before.errors,
    changed: reader.entriesSince(cursor),
  };
}

function records(line: string): TranscriptRecord[] {
  const parsed = parseTranscriptLine(line);
  if (parsed.status !== 'kept') throw new Error(`expected a kept line, got ${JSON.stringify(parsed)}`);
  return parsed.records;
}

/** A user line as Claude Code 2.1.332 writes it, with the given message content. */
function userLine(uuid: string, content: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content },
    uuid,
    timestamp: '2026-11-29T14:00:00.000Z',
    sessionId: 's',
    version: '2.1.332',
    ...extra,
  });
}

function assistantLine(uuid: string, messageId: string, block: unknown, usage?: unknown): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: 'assistant',
    message: { id: messageId, type: 'message', role: 'assistant', model: 'claude-test', content: [block], usage },
    uuid,
    timestamp: '2026-11-29T14:00:01.000Z',
  });
}

describe('transcript line parser', () => {
  it('keeps user, assistant and system lines of the capture and skips every other type', () => {
    const skipped = new Set<string>();
    const kept = new Map<string, number>();
    for (const line of fixtureLines) {
      const parsed = parseTranscriptLine(line);
      expect(parsed.status).not.toBe('error');
      if (parsed.status === 'skipped') skipped.add(parsed.lineType);
      if (parsed.status === 'kept') kept.set(parsed.lineType, (kept.get(parsed.lineType) ?? 0) + 1);
    }
    expect([...skipped].sort()).toEqual(
      [
        'api-request',
        'api-request-blob',
        'api-request-shape',
        'atis-latch',
        'attachment',
        'cost-state',
        'file-history-snapshot',
        'last-prompt',
        'mode',
        'permission-mode',
        'tools-used',
      ].sort(),
    );
    expect(Object.fromEntries(kept)).toEqual({ user: 7, assistant: 6, system: 2 });
    expect(parseTranscriptLine('{"type":"some-future-type","x":1}')).toEqual({
      status: 'skipped',
      lineType: 'some-future-type',
    });
  });

  it('finds the synthetic interrupt as a text block, as a plain string, and the "for tool use" variant', () => {
    expect(records(userLine('a', [{ type: 'text', text: '[Request interrupted by user]' }]))).toEqual([
      { kind: 'interrupt', uuid: 'a', timestamp: '2026-11-29T14:00:00.000Z', forToolUse: false },
    ]);
    expect(records(userLine('b', '[Request interrupted by user]'))).toMatchObject([
      { kind: 'interrupt', forToolUse: false },
    ]);
    expect(records(userLine('c', [{ type: 'text', text: '[Request interrupted by user for tool use]' }]))).toMatchObject([
      { kind: 'interrupt', forToolUse: true },
    ]);
    expect(records(userLine('d', '[Request interrupted by user for tool use]'))).toMatchObject([
      { kind: 'interrupt', forToolUse: true },
    ]);
    // Quoting the marker inside a prompt is not an interrupt.
    expect(records(userLine('e', 'why did I get "[Request interrupted by user]"?'))).toMatchObject([
      { kind: 'prompt' },
    ]);
  });

  it('reads prompts from a string or from text blocks, and tool results apart from them', () => {
    expect(records(userLine('p', 'hello'))).toMatchObject([{ kind: 'prompt', text: 'hello', truncated: false }]);
    expect(
      records(
        userLine('q', [
          { type: 'image', source: { type: 'base64', data: 'AAAA' } },
          { type: 'text', text: 'look at this' },
        ]),
      ),
    ).toMatchObject([{ kind: 'prompt', text: 'look at this' }]);
    expect(
      records(
        userLine('r', [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_9',
            is_error: false,
            content: [
              { type: 'text', text: 'line one' },
              { type: 'image', source: {} },
            ],
          },
        ]),
      ),
    ).toEqual([
      {
        kind: 'tool-result',
        uuid: 'r',
        timestamp: '2026-11-29T14:00:00.000Z',
        toolUseId: 'toolu_9',
        isError: false,
        text: 'line one\n[image]',
        truncated: false,
      },
    ]);
    // Claude Code's own lines to the model are not prompts.
    expect(records(userLine('m', 'Caveat: the messages below...', { isMeta: true }))).toEqual([]);
    expect(
      records(
        userLine('s', '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>'),
      ),
    ).toMatchObject([{ kind: 'prompt', text: '/model opus' }]);
    // A project's own command: its message comes first, and the expanded body is a meta line.
    expect(records(userLine('c', '<command-message>release-notes</command-message>\n<command-name>/release-notes</command-name>'))).toMatchObject([
      { kind: 'prompt', text: '/release-notes' },
    ]);
    expect(
      records(
        userLine(
          'c2',
          '<command-message>frontend:review</command-message>\n<command-name>/frontend:review</command-name>\n<command-args>src/app.ts</command-args>',
        ),
      ),
    ).toMatchObject([{ kind: 'prompt', text: '/frontend:review src/app.ts' }]);
    expect(records(userLine('c3', [{ type: 'text', text: 'Write the release notes.' }], { isMeta: true }))).toEqual([]);
  });

  it('bounds a huge tool result to an excerpt', () => {
    const big = 'x'.repeat(300_000);
    const [result] = records(userLine('r', [{ type: 'tool_result', tool_use_id: 't', content: big, is_error: true }]));
    expect(result).toMatchObject({ kind: 'tool-result', isError: true, truncated: true });
    expect((result as { text: string }).text.length).toBe(TIMELINE_LIMITS.toolResult);
  });

  it('reads assistant text, tool use and thinking with the message id, model and usage', () => {
    const usage = { input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 3 };
    const thinking = { type: 'thinking', thinking: '\nFirst I look.\nThen I act.', signature: 'x' };
    expect(records(assistantLine('u1', 'msg_a', thinking, usage))).toEqual([
      {
        kind: 'thinking',
        uuid: 'u1',
        timestamp: '2026-11-29T14:00:01.000Z',
        messageId: 'msg_a',
        model: 'claude-test',
        usage: { inputTokens: 5, outputTokens: 7, cacheReadTokens: 100, cacheCreationTokens: 3 },
        blockIndex: 0,
        length: 26,
        firstLine: 'First I look.…',
        redacted: false,
      },
    ]);
    const [use] = records(
      assistantLine('u2', 'msg_a', {
        type: 'tool_use',
        id: 'toolu_w',
        name: 'Write',
        input: { file_path: 'src/big.txt', content: 'y'.repeat(1_000_000) },
      }),
    );
    expect(use).toMatchObject({ kind: 'tool-use', toolUseId: 'toolu_w', name: 'Write', summary: 'src/big.txt' });
    const input = (use as { input: { file_path: string; content: string } }).input;
    expect(input.file_path).toBe('src/big.txt');
    expect(input.content.length).toBeLessThan(TIMELINE_LIMITS.inputString + 40);
    expect(records(assistantLine('u3', 'msg_b', { type: 'redacted_thinking', data: 'zzz' }))).toMatchObject([
      { kind: 'thinking', redacted: true, length: 0 },
    ]);
    // Server tool blocks and future block types are ignored, not errors.
    const serverTool = { type: 'server_tool_use', id: 's', name: 'web_search', input: {} };
    expect(records(assistantLine('u4', 'msg_b', serverTool))).toEqual([]);
  });

  it("reads a message's usage, with the fields Claude Code leaves out as zero", () => {
    const said = { type: 'text', text: 'hi' };
    const usageOf = (usage: unknown) => (records(assistantLine('u', 'msg', said, usage))[0] as { usage?: unknown }).usage;
    // As 2.1.332 writes it, with nested details the timeline does not need.
    const full = JSON.parse(fixtureLines.find((l) => l.includes('"type":"assistant"')) ?? '{}').message.usage;
    expect(usageOf(full)).toEqual({ inputTokens: 10, outputTokens: 20, cacheReadTokens: 0, cacheCreationTokens: 0 });
    // An aborted message reports only what message_start said.
    expect(usageOf({ input_tokens: 10, output_tokens: 1 })).toEqual({ inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheCreationTokens: 0 });
    expect(usageOf({ input_tokens: 3, output_tokens: 4, cache_read_input_tokens: null })).toMatchObject({ cacheReadTokens: 0 });
    expect(usageOf(undefined)).toBeUndefined();
  });

  it('keeps the line and leaves out a usage that is malformed or out of bounds', () => {
    const said = { type: 'text', text: 'still here' };
    const malformed: unknown[] = [
      null,
      42,
      'lots',
      [],
      {},
      { input_tokens: 10 },
      { input_tokens: 10, output_tokens: '20' },
      { input_tokens: 10, output_tokens: -1 },
      { input_tokens: 10, output_tokens: 2.5 },
      { input_tokens: 10, output_tokens: TIMELINE_LIMITS.tokens + 1 },
      { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: -3 },
    ];
    for (const usage of malformed) {
      const [record] = records(assistantLine('u', 'msg', said, usage));
      expect(record, JSON.stringify(usage)).toMatchObject({ kind: 'assistant-text', text: 'still here', usage: undefined });
    }
    // JSON reads a number too large for a double as Infinity: not a count either.
    const huge = assistantLine('u', 'msg', said).replace('"content":', '"usage":{"input_tokens":1,"output_tokens":1e400},"content":');
    expect(huge).toContain('"output_tokens":1e400');
    expect(records(huge)[0]).toMatchObject({ text: 'still here', usage: undefined });
  });

  it('reports garbage as an error value instead of throwing', () => {
    const bad = [
      '',
      '   ',
      'not json',
      '{"type":"user"',
      '[1,2,3]',
      'null',
      '{"no":"type"}',
      '{"type":"user","uuid":"u","timestamp":"t","message":42}',
      '{"type":"user","timestamp":"t","message":{"content":"no uuid"}}',
      '{"type":"assistant","uuid":"u","timestamp":"t","message":{"id":"m","content":[{"type":"text"}]}}',
      '{"type":"assistant","uuid":"u","timestamp":"t","message":{"id":"m","content":[{"type":"tool_use","name":"Bash"}]}}',
      '{"type":"user","uuid":"u","timestamp":"t","message":{"content":[{"type":"tool_result","content":"no id"}]}}',
      '\u0000\uFFFD\u0001binary',
    ];
    for (const line of bad) {
      const parsed = parseTranscriptLine(line);
      expect(parsed.status, line).toBe('error');
      if (parsed.status === 'error') expect(parsed.reason.length).toBeGreaterThan(0);
    }
  });
});

describe('timeline helpers', () => {
  it('never splits a surrogate pair when clipping', () => {
    expect(clipText('ab😀cd', 3)).toEqual({ text: 'ab', truncated: true });
    expect(clipText('abc', 3)).toEqual({ text: 'abc', truncated: false });
  });

  it('summarizes common tools in one line', () => {
    expect(summarizeToolInput('Bash', { command: 'npm test\nnpm run lint', description: 'Run tests' })).toBe('npm test…');
    expect(summarizeToolInput('Grep', { pattern: 'TODO', path: 'src' })).toBe('TODO in src');
    expect(summarizeToolInput('TodoWrite', { todos: [{}, {}] })).toBe('2 todos');
    expect(summarizeToolInput('mcp__x__lookup', { query: 'weather' })).toBe('weather');
    expect(summarizeToolInput('Custom', { n: 1 })).toBe('{"n":1}');
  });

  it('clips tool input deeply but keeps its shape', () => {
    const clipped = clipToolInput({ a: ['z'.repeat(5000)], b: 1 }, 10) as { a: string[]; b: number };
    expect(clipped.b).toBe(1);
    expect(clipped.a[0]?.startsWith('zzzzzzzzzz… [4990 more chars]')).toBe(true);
  });

  it('summarizes and clips an input nested 100,000 deep', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { a: deep };
    expect(summarizeToolInput('Custom', { n: deep })).toBe('{"n":{"a":[{"a":[{"a":[{"a":"[…]"}]}]}]}}');
    expect(summarizeToolInput('Custom', [deep])).toBe('[{"a":[{"a":[{"a":[{"a":"[…]"}]}]}]}]');
    expect(JSON.stringify(clipToolInput(deep))).toBe('{"a":[{"a":[{"a":[{"a":["[…]"]}]}]}]}');
  });

  it('summarizes a tool whose name is one of Object’s own properties', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(summarizeToolInput(name, { command: 'ls' }), name).toBe('ls');
    }
  });

  it('keeps a key named __proto__ as a key of the clipped input', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "b": 1}') as unknown;
    const clipped = clipToolInput(input) as Record<string, unknown>;
    expect(Object.keys(clipped)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(clipped)).toBe(Object.prototype);
    expect(JSON.stringify(clipped)).toBe('{"__proto__":{"polluted":true},"b":1}');
  });
});

describe('transcript reader on the captured session', () => {
  it('reads the whole capture into entries and a summary', async () => {
    writeFileSync(file, fixtureText);
    const reader = new TranscriptReader(file);
    const update = await pollOf(reader);
    expect(update).toMatchObject({ missing: false, restarted: false, lines: 53, errors: 0 });
    expect(update.bytesRead).toBe(Buffer.byteLength(fixtureText));
    expect(update.offset).toBe(Buffer.byteLength(fixtureText));

    const entries = reader.entries();
    expect(update.changed).toEqual(entries);
    expect(ofKind(entries, 'prompt').map((e) => e.text)).toEqual(['please run it', 'please run it again', 'do it slowly']);
    const tools = ofKind(entries, 'tool-call');
    expect(tools.map((t) => [t.toolUseId, t.name, t.summary, t.result?.status])).toEqual([
      ['toolu_1', 'Bash', 'echo hello-from-mock > /opt/hooks/out.txt', 'ok'],
      ['toolu_3', 'Bash', 'echo hello-from-mock > /opt/hooks/out.txt', 'error'],
    ]);
    expect(tools[0]?.result?.text).toBe('(Bash completed with no output)');
    expect(tools[1]?.result?.text).toMatch(/^The user doesn't want to proceed/);
    expect(ofKind(entries, 'interrupt').map((e) => [e.at, e.forToolUse])).toEqual([
      ['2026-11-29T13:46:43.341Z', true],
      ['2026-11-29T13:46:50.713Z', false],
    ]);
    const texts = ofKind(entries, 'assistant-text');
    expect(texts.map((t) => [t.messageId, t.aborted])).toEqual([
      ['msg_0', false],
      ['msg_1', false],
      ['msg_2', false],
      ['msg_3', true],
    ]);
    expect(ofKind(entries, 'notice')).toEqual([]);
    // Transcript order, with byte offsets that point at each entry's line.
    const offsets = entries.map((e) => e.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    for (const e of entries) {
      const line = Buffer.from(fixtureText).subarray(e.offset).toString('utf8').split('\n')[0] ?? '';
      expect(line).toContain(e.kind === 'tool-call' ? e.toolUseId : e.id);
    }

    const summary = reader.summary();
    expect(summary.interrupt).toEqual({ at: '2026-11-29T13:46:50.713Z', forToolUse: false });
    expect(summary.lastPromptAt).toBe('2026-11-29T13:46:46.654Z');
    expect(summary.turnEndedAt).toBeUndefined();
    expect(reader.stats()).toMatchObject({ lines: 53, errors: 0, restarts: 0 });

    // Nothing appended: a poll reads nothing and changes nothing.
    const idle = await pollOf(reader);
    expect(idle).toMatchObject({ bytesRead: 0, lines: 0, changed: [] });
    expect(reader.entriesSince(reader.cursor())).toEqual([]);
  });

  it('gives exactly the new entries when the file grows line by line, with an offset that only grows', async () => {
    writeFileSync(file, '');
    const reader = new TranscriptReader(file);
    let offset = 0;
    for (const [i, line] of fixtureLines.entries()) {
      appendFileSync(file, `${line}\n`);
      const update = await pollOf(reader);
      const size = Buffer.byteLength(`${line}\n`);
      expect(update.bytesRead).toBe(size);
      expect(update.lines).toBe(1);
      expect(update.offset).toBe(offset + size);
      offset = update.offset;

      // What this one line should add or change, derived from the parser's records.
      const parsed = parseTranscriptLine(line);
      const expectedIds =
        parsed.status === 'kept'
          ? parsed.records.flatMap((r) => {
              if (r.kind === 'tool-use' || r.kind === 'tool-result') return [r.toolUseId];
              return r.kind === 'system' ? [] : [r.uuid];
            })
          : [];
      expect(update.changed.map((e) => e.id), `line ${i + 1}`).toEqual(expectedIds);

      if (i + 1 === 21) {
        // The Bash call is waiting for permission: it has no result yet.
        const call = ofKind(reader.entries(), 'tool-call').at(-1);
        expect(call).toMatchObject({ toolUseId: 'toolu_1', name: 'Bash', summary: 'echo hello-from-mock > /opt/hooks/out.txt' });
        expect(call?.result).toBeUndefined();
        expect(reader.summary().interrupt).toBeUndefined();
      }
      if (i + 1 === 27) {
        expect(update.changed).toMatchObject([{ kind: 'tool-call', result: { status: 'ok' } }]);
      }
      if (i + 1 === 36) expect(reader.summary().turnEndedAt).toBe('2026-11-29T13:46:37.196Z');
      if (i + 1 === 43) expect(reader.summary().interrupt).toEqual({ at: '2026-11-29T13:46:43.341Z', forToolUse: true });
      if (i + 1 === 45) expect(reader.summary().interrupt).toBeUndefined();
    }

    // The same entries as reading the file in one go.
    const whole = new TranscriptReader(file);
    await whole.poll();
    expect(reader.entries()).toEqual(whole.entries());
    expect(reader.summary()).toEqual(whole.summary());
  });

  it('keeps at most maxEntries entries, the newest, and serves a first page', async () => {
    writeFileSync(file, fixtureText);
    const reader = new TranscriptReader(file, { maxEntries: 3 });
    await reader.poll();
    expect(reader.entries().map((e) => e.kind)).toEqual(['prompt', 'assistant-text', 'interrupt']);
    expect(reader.entries(2).map((e) => e.kind)).toEqual(['assistant-text', 'interrupt']);
    expect(reader.entries(0)).toEqual([]);
    // The summary does not depend on what the timeline kept.
    expect(reader.summary().lastPromptAt).toBe('2026-11-29T13:46:46.654Z');
  });
});

describe('transcript reader and token use', () => {
  it("carries each line's usage on its entries, so a message split over lines repeats the latest usage", async () => {
    const lines = [
      userLine('p', 'count the tokens'),
      assistantLine('a1', 'msg_a', { type: 'thinking', thinking: 'Let me see.' }, { input_tokens: 10, output_tokens: 1 }),
      assistantLine('a2', 'msg_a', { type: 'text', text: 'Running it.' }, { input_tokens: 10, output_tokens: 180 }),
      assistantLine('a3', 'msg_a', { type: 'tool_use', id: 'toolu_t', name: 'Bash', input: { command: 'ls' } }, { input_tokens: 10, output_tokens: 180 }),
      userLine('r', [{ type: 'tool_result', tool_use_id: 'toolu_t', content: 'a.txt' }]),
      assistantLine('b1', 'msg_b', { type: 'text', text: 'Done.' }, { input_tokens: 10, output_tokens: 'many' }),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const reader = new TranscriptReader(file);
    await reader.poll();
    const entries = reader.entries();
    const usageOf = (id: string) => entries.find((e) => e.id === id && 'messageId' in e) as { usage?: { outputTokens: number } } | undefined;
    expect(usageOf('a1')?.usage?.outputTokens).toBe(1);
    expect(usageOf('a2')?.usage?.outputTokens).toBe(180);
    // The tool call keeps its usage when its result arrives and the entry is replaced.
    const call = ofKind(entries, 'tool-call')[0];
    expect(call?.result?.text).toBe('a.txt');
    expect(call?.usage).toEqual({ inputTokens: 10, outputTokens: 180, cacheReadTokens: 0, cacheCreationTokens: 0 });
    // A malformed usage costs the count, not the entry, and no key is sent for it.
    expect(usageOf('b1')).toBeDefined();
    expect(usageOf('b1')).not.toHaveProperty('usage');
    // What the agent sends passes the schema the PWA reads it with, usage included.
    for (const e of entries) expect(TimelineEntry.parse(e)).toEqual(e);
    const bad = { ...call, usage: { inputTokens: 10, outputTokens: -5, cacheReadTokens: 0, cacheCreationTokens: 0 } };
    expect(TimelineEntry.safeParse(bad).success).toBe(false);
  });
});

describe('transcript reader on awkward files', () => {
  it('parses a line written in two parts once, whole, after the second part', async () => {
    writeFileSync(file, `${fixtureLines[5]}\n`);
    const reader = new TranscriptReader(file);
    expect((await pollOf(reader)).changed).toHaveLength(1);
    const before = reader.stats().offset;

    const line = Buffer.from(`${userLine('half', 'naïve 😀 prompt')}\n`);
    // Cut inside the emoji, so neither part is valid UTF-8 on its own.
    const cut = line.indexOf(Buffer.from('😀')) + 2;
    appendFileSync(file, line.subarray(0, cut));
    const first = await pollOf(reader);
    expect(first).toMatchObject({ bytesRead: cut, lines: 0, errors: 0, changed: [], offset: before });
    expect(reader.stats().position).toBe(before + cut);

    appendFileSync(file, line.subarray(cut));
    const second = await pollOf(reader);
    expect(second.bytesRead).toBe(line.length - cut);
    expect(second).toMatchObject({ lines: 1, errors: 0, offset: before + line.length });
    expect(second.changed).toMatchObject([{ kind: 'prompt', id: 'half', text: 'naïve 😀 prompt' }]);
    expect(reader.stats().errors).toBe(0);
  });

  it('reads a 5 MB line in pieces without re-reading earlier bytes', async () => {
    const head = `${fixtureLines.slice(0, 21).join('\n')}\n`;
    writeFileSync(file, head);
    const reader = new TranscriptReader(file, { chunkBytes: 64 * 1024 });
    await reader.poll();
    const pending = ofKind(reader.entries(), 'tool-call').at(-1);
    expect(pending?.toolUseId).toBe('toolu_1');
    expect(pending?.result).toBeUndefined();
    const headBytes = Buffer.byteLength(head);
    expect(reader.stats().offset).toBe(headBytes);

    const output = '0123456789abcdef'.repeat(5 * 65536);
    const result = { type: 'tool_result', tool_use_id: 'toolu_1', content: output, is_error: false };
    const big = Buffer.from(`${userLine('big', [result])}\n`);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const part = 3 * 1024 * 1024;

    appendFileSync(file, big.subarray(0, part));
    const first = await pollOf(reader);
    expect(first).toMatchObject({ bytesRead: part, lines: 0, changed: [], offset: headBytes });

    appendFileSync(file, big.subarray(part));
    const cursor = reader.cursor();
    const second = await pollOf(reader);
    expect(second.bytesRead).toBe(big.length - part);
    expect(second).toMatchObject({ lines: 1, errors: 0, offset: headBytes + big.length });
    expect(second.changed).toHaveLength(1);
    const call = second.changed[0] as ToolCallEntry;
    expect(call).toMatchObject({ id: 'toolu_1', result: { status: 'ok', truncated: true, offset: headBytes } });
    expect(call.result?.text).toBe(output.slice(0, TIMELINE_LIMITS.toolResult));
    expect(reader.entriesSince(cursor)).toEqual([call]);

    appendFileSync(file, `${fixtureLines[33]}\n`);
    const third = await pollOf(reader);
    expect(third.bytesRead).toBe(Buffer.byteLength(`${fixtureLines[33]}\n`));
    expect(third.changed).toMatchObject([{ kind: 'assistant-text', text: 'All done: the command ran.' }]);
  });

  it('drops a line longer than maxLineBytes as one error and goes on', async () => {
    const reader = new TranscriptReader(file, { maxLineBytes: 1000, chunkBytes: 256 });
    writeFileSync(file, `${userLine('long', 'x'.repeat(5000))}\n${userLine('after', 'still here')}\n`);
    const update = await pollOf(reader);
    expect(update).toMatchObject({ lines: 2, errors: 1 });
    expect(update.changed).toMatchObject([{ id: 'after', text: 'still here' }]);
    expect(reader.stats().lastError).toMatchObject({ offset: 0 });
    expect(update.offset).toBe(readFileSync(file).length);
  });

  it('skips garbage lines with an error count and still parses the good lines after them', async () => {
    const junk = Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x9c, 0xc3, 0x28, 0x7f]);
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`${fixtureLines[5]}\n`),
        Buffer.from('this is not json\n'),
        Buffer.from('{"type":"assistant","uuid":"x","timestamp":"t","message":{"content":"wrong shape"}}\n'),
        Buffer.from('\n'),
        junk,
        Buffer.from('\n'),
        Buffer.from(`${fixtureLines[19]}\n${fixtureLines[20]}\n`),
      ]),
    );
    const reader = new TranscriptReader(file);
    const update = await pollOf(reader);
    expect(update).toMatchObject({ lines: 7, errors: 4 });
    expect(update.changed.map((e) => e.kind)).toEqual(['prompt', 'assistant-text', 'tool-call']);
    expect(ofKind(update.changed, 'tool-call')[0]?.name).toBe('Bash');
    expect(reader.stats()).toMatchObject({ errors: 4, lastError: { reason: expect.stringContaining('JSON') } });
  });

  it('starts over when the file is rewritten shorter, and says so', async () => {
    writeFileSync(file, fixtureText);
    const reader = new TranscriptReader(file);
    await reader.poll();
    const lastSeq = reader.cursor();

    writeFileSync(file, `${fixtureLines.slice(0, 6).join('\n')}\n`);
    const update = await pollOf(reader);
    expect(update.restarted).toBe(true);
    expect(update.offset).toBe(readFileSync(file).length);
    expect(update.bytesRead).toBe(readFileSync(file).length);
    expect(update.changed).toMatchObject([{ kind: 'prompt', text: 'please run it' }]);
    expect(reader.entries()).toEqual(update.changed);
    // Cursors stay monotonic across a restart.
    expect(update.changed[0]?.seq).toBeGreaterThan(lastSeq);
    const summary = reader.summary();
    expect(summary.interrupt).toBeUndefined();
    expect(summary.lastPromptAt).toBe(ofKind(update.changed, 'prompt')[0]?.at);
    expect(reader.stats().restarts).toBe(1);
  });

  it('starts over when the file is replaced by another one, even a longer one', async () => {
    writeFileSync(file, `${fixtureLines[5]}\n`);
    const reader = new TranscriptReader(file);
    await reader.poll();
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, fixtureText);
    renameSync(other, file);
    const update = await pollOf(reader);
    expect(update.restarted).toBe(true);
    expect(update.lines).toBe(53);
    expect(ofKind(reader.entries(), 'prompt')).toHaveLength(3);
  });

  it('reports a missing file without throwing, then reads it once it appears', async () => {
    const reader = new TranscriptReader(file);
    expect(await pollOf(reader)).toMatchObject({ missing: true, bytesRead: 0, changed: [] });
    writeFileSync(file, `${fixtureLines[5]}\n`);
    expect(await pollOf(reader)).toMatchObject({ missing: false, lines: 1 });
  });

  it('shares one read between overlapping polls', async () => {
    writeFileSync(file, fixtureText);
    const reader = new TranscriptReader(file);
    const [a, b] = await Promise.all([reader.poll(), reader.poll()]);
    expect(a).toBe(b);
    expect(reader.stats().lines).toBe(53);
  });
});
