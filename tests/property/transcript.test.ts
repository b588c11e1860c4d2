/**
 * The transcript line parser and the reader that feeds it, under hostile lines: a transcript
 * is a file anyone's tools may append to, and Claude Code changes its lines between versions.
 * Any line in gives a record list, a skip or an error, never a throw, and what is kept stays
 * within the bounds the timeline promises a client (`TIMELINE_LIMITS`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type ParsedLine, parseTranscriptLine, type TranscriptRecord } from '../../agent/claude/transcript-parser.js';
import { TranscriptReader } from '../../agent/claude/transcript-reader.js';
import { TIMELINE_LIMITS, TimelineEntry } from '../../protocol/timeline.js';
import { hostileChar, hostileString, mutatedFrom, RUNS } from './hostile.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332', 'transcript.jsonl');
const CAPTURED = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((line) => line !== '');

/** A first line cut to its bound gets `…` after it. */
const LINE_MAX = TIMELINE_LIMITS.summary + 1;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Strings of a clipped tool input: cut to the bound, plus the note of how much was left out. */
function checkClippedInput(value: unknown, depth = 0): void {
  if (typeof value === 'string') {
    expect(value.length).toBeLessThanOrEqual(TIMELINE_LIMITS.inputString + '… [9999999999 more chars]'.length);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  expect(depth).toBeLessThanOrEqual(8);
  // 100 items kept, and one saying how many more there were.
  if (Array.isArray(value)) expect(value.length).toBeLessThanOrEqual(101);
  else expect(Object.keys(value).length).toBeLessThanOrEqual(101);
  for (const v of Object.values(value)) checkClippedInput(v, depth + 1);
}

function checkRecord(record: TranscriptRecord): void {
  expect(record.uuid.length).toBeGreaterThan(0);
  expect(record.timestamp.length).toBeGreaterThan(0);
  switch (record.kind) {
    case 'prompt':
    case 'assistant-text':
      expect(record.text.length).toBeLessThanOrEqual(TIMELINE_LIMITS.text);
      break;
    case 'tool-result':
      expect(record.toolUseId.length).toBeGreaterThan(0);
      expect(record.text.length).toBeLessThanOrEqual(TIMELINE_LIMITS.toolResult);
      break;
    case 'tool-use':
      expect(record.toolUseId.length).toBeGreaterThan(0);
      expect(record.summary.length).toBeLessThanOrEqual(LINE_MAX);
      expect(record.summary).not.toContain('\n');
      checkClippedInput(record.input);
      break;
    case 'thinking':
      expect(record.length).toBeGreaterThanOrEqual(0);
      expect(record.firstLine.length).toBeLessThanOrEqual(TIMELINE_LIMITS.thinkingLine + 1);
      expect(record.firstLine).not.toContain('\n');
      break;
    case 'interrupt':
      expect(typeof record.forToolUse).toBe('boolean');
      break;
    case 'system':
      expect(['info', 'warning', 'error']).toContain(record.level);
      if (record.text !== undefined) expect(record.text.length).toBeLessThanOrEqual(TIMELINE_LIMITS.text);
      break;
  }
  if ('messageId' in record) expect(record.messageId.length).toBeGreaterThan(0);
  if ('usage' in record && record.usage !== undefined) {
    for (const count of Object.values(record.usage)) {
      expect(Number.isInteger(count)).toBe(true);
      expect(count).toBeGreaterThanOrEqual(0);
      expect(count).toBeLessThanOrEqual(TIMELINE_LIMITS.tokens);
    }
  }
}

function checkParsed(parsed: ParsedLine): void {
  switch (parsed.status) {
    case 'error':
      expect(typeof parsed.reason).toBe('string');
      return;
    case 'skipped':
      expect(['user', 'assistant', 'system']).not.toContain(parsed.lineType);
      return;
    case 'kept':
      expect(['user', 'assistant', 'system']).toContain(parsed.lineType);
      expect(typeof parsed.sidechain).toBe('boolean');
      for (const record of parsed.records) checkRecord(record);
  }
}

/** Every string a kept record carries, to see that cutting never split a surrogate pair. */
function recordStrings(parsed: ParsedLine): string[] {
  if (parsed.status !== 'kept') return [];
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (v !== null && typeof v === 'object') for (const inner of Object.values(v)) walk(inner);
  };
  walk(parsed.records);
  return out;
}

/** Lines the parser reads, with text that is long, multi-line, astral, or all of it. */
const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  fc
    .tuple(fc.constantFrom(199, 200, 201, 1999, 2000, 2001, 15_999, 16_000, 16_001), fc.constantFrom('a', '😀', 'a😀', '\n', ' \n'))
    .map(([n, filler]) => filler.repeat(Math.ceil(n / filler.length))),
);
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('thinking'), thinking: text }),
  fc.record({ type: fc.constant('redacted_thinking'), data: fc.string() }),
  fc.record({
    type: fc.constant('tool_use'),
    id: fc.string({ minLength: 1, maxLength: 10 }),
    name: fc.constantFrom('Bash', 'Grep', 'Glob', 'TodoWrite', 'Write', 'mcp__x__y', ''),
    input: fc.oneof(
      fc.record({ command: text, path: text, pattern: text }),
      fc.record({ todos: fc.array(fc.constant({ content: 'x' }), { maxLength: 3 }) }),
      fc.jsonValue({ maxDepth: 12 }),
      fc.array(fc.string(), { minLength: 95, maxLength: 110 }),
    ),
  }),
  fc.record({
    type: fc.constant('tool_result'),
    tool_use_id: fc.string({ minLength: 1, maxLength: 10 }),
    is_error: fc.option(fc.boolean()),
    content: fc.oneof(text, fc.array(fc.oneof(fc.record({ type: fc.constant('text'), text }), fc.record({ type: fc.constant('image') })), { maxLength: 4 })),
  }),
);
/** A token count as a transcript may hold it: sound, at the bound, past it, negative, fractional. */
const tokens = fc.oneof(
  { weight: 4, arbitrary: fc.nat() },
  fc.constantFrom(TIMELINE_LIMITS.tokens, TIMELINE_LIMITS.tokens + 1, -1, 2.5),
  fc.double(),
  fc.string({ maxLength: 4 }),
);
const usage = fc.oneof(
  fc.record(
    { input_tokens: tokens, output_tokens: tokens, cache_read_input_tokens: fc.option(tokens), cache_creation_input_tokens: tokens },
    { requiredKeys: ['input_tokens', 'output_tokens'] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const head = { uuid: fc.uuid(), timestamp: fc.constant('2026-11-29T13:46:28.147Z'), isSidechain: fc.boolean() };
const line = fc.oneof(
  fc.record({
    ...head,
    type: fc.constant('user'),
    isMeta: fc.boolean(),
    message: fc.record({
      content: fc.oneof(
        text,
        fc.constantFrom('[Request interrupted by user]', '[Request interrupted by user for tool use]', '<command-name>/clear</command-name><command-args> x </command-args>', '<local-command-stdout>x'),
        fc.array(block, { maxLength: 4 }),
      ),
    }),
  }),
  fc.record({
    ...head,
    type: fc.constant('assistant'),
    isAbortedMidStream: fc.boolean(),
    message: fc.record(
      { id: fc.string({ minLength: 1, maxLength: 8 }), model: fc.string(), content: fc.array(block, { maxLength: 4 }), usage },
      { requiredKeys: ['id', 'model', 'content'] },
    ),
  }),
  fc.record({ ...head, type: fc.constant('system'), subtype: fc.string(), level: fc.constantFrom('info', 'warning', 'error', 'debug'), content: fc.oneof(text, fc.jsonValue()) }),
);

/** A line's text cut, or with hostile characters spliced in anywhere. */
const garbled = (source: fc.Arbitrary<string>) =>
  fc.tuple(source, fc.nat(), fc.nat(), fc.string({ unit: hostileChar, maxLength: 4 })).map(([s, cut, at, insert]) => {
    const kept = s.slice(0, s.length - (cut % (s.length + 1)));
    const where = at % (kept.length + 1);
    return `${kept.slice(0, where)}${insert}${kept.slice(where)}`;
  });

const capturedLine = fc.constantFrom(...CAPTURED);
const mutatedCaptured = capturedLine.chain((l) => mutatedFrom(JSON.parse(l))).map((v) => JSON.stringify(v) ?? '');
const anyLine = fc.oneof(
  hostileString,
  garbled(capturedLine),
  mutatedCaptured,
  line.map((l) => JSON.stringify(l)),
  garbled(line.map((l) => JSON.stringify(l))),
);

/** Lines for the reader: captured ones, garbled, and made ones with short text. */
const readerLine = fc.oneof(
  garbled(capturedLine),
  fc.string({ unit: fc.oneof(hostileChar, fc.constantFrom('{', '}', '"', ':', ',')), maxLength: 30 }),
  line.map((l) => JSON.stringify(l)).filter((l) => l.length < 2000),
);

const dir = mkdtempSync(join(tmpdir(), 'pocketmux-property-transcript-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('transcript parser, by property', () => {
  it('answers any line (hostile text, captured lines cut, garbled or changed) with records within bounds, a skip or an error', () => {
    fc.assert(fc.property(anyLine, (l) => checkParsed(parseTranscriptLine(l))), { numRuns: RUNS });
  });

  it('cuts well-formed text only between characters, never inside a surrogate pair', () => {
    fc.assert(
      fc.property(line, (l) => {
        const parsed = parseTranscriptLine(JSON.stringify(l));
        checkParsed(parsed);
        for (const s of recordStrings(parsed)) expect(s).not.toMatch(LONE_SURROGATE);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads a file of any lines, appended in any pieces, into entries a client accepts, counting every line', async () => {
    const path = join(dir, 'session.jsonl');
    // Lines are joined as Claude writes them, and sometimes a raw byte sequence that is not
    // UTF-8 (or a lone \r) sits among them; the file is written in pieces between polls.
    // A small line bound makes the overlong-line path as common as the others.
    const content = fc.array(
      fc.oneof(
        readerLine,
        fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b).toString('latin1')),
      ),
      { maxLength: 6 },
    );
    const options = fc.record({
      chunkBytes: fc.constantFrom(61, 1024, 65_536),
      maxLineBytes: fc.constantFrom(16, 300, 4096, 1024 * 1024),
      maxEntries: fc.constantFrom(1, 3, 50),
    });
    await fc.assert(
      fc.asyncProperty(content, fc.array(fc.nat(), { maxLength: 1 }), options, async (lines, cuts, opts) => {
        const bytes = Buffer.from(lines.join('\n'), 'utf8');
        const reader = new TranscriptReader(path, opts);
        for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
          writeFileSync(path, bytes.subarray(0, cut));
          expect(await reader.poll()).toEqual({ missing: false });
        }
        const newlines = bytes.filter((b) => b === 0x0a).length;
        const stats = reader.stats();
        expect(stats.lines).toBe(newlines);
        expect(stats.offset).toBe(bytes.lastIndexOf(0x0a) + 1);
        expect(stats.position).toBe(bytes.length);
        const entries = reader.entries();
        expect(entries.length).toBeLessThanOrEqual(opts.maxEntries);
        for (const entry of entries) {
          expect(TimelineEntry.safeParse(entry).success).toBe(true);
          expect(entry.offset).toBeLessThan(stats.offset);
        }
        const seqs = entries.map((e) => e.seq);
        expect(new Set(seqs).size).toBe(seqs.length);
      }),
      { numRuns: RUNS },
    );
    // Each case writes and polls a real file two or three times: tens of thousands of file
    // operations, slower than the parser's cases on a loaded machine.
  }, 180_000);
});
