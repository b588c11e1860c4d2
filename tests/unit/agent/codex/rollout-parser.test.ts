import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TranscriptReader } from '../../../../agent/claude/transcript-reader.js';
import { parseRolloutLine } from '../../../../agent/codex/rollout-parser.js';

const ROLLOUT = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'codex-0.169.0', 'rollout.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'pocketmux-rollout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a Codex rollout, read as a conversation", () => {
  it('reads the prompt, the command with its reason and output, the answer and the end of the turn; skips the rest', () => {
    const parsed = readFileSync(ROLLOUT, 'utf8').split('\n').filter((l) => l.trim()).map(parseRolloutLine);
    expect(parsed.filter((p) => p.status === 'error')).toEqual([]);
    const records = parsed.flatMap((p) => (p.status === 'kept' ? p.records : []));
    expect(records.map((r) => r.kind)).toEqual(['prompt', 'tool-use', 'tool-result', 'assistant-text', 'system']);
    expect(records[0]).toMatchObject({ kind: 'prompt', text: 'please run the marker' });
    expect(records[1]).toMatchObject({ kind: 'tool-use', name: 'Bash', toolUseId: 'call_4', input: { command: 'echo marker > marker.txt', description: 'Write the marker file' } });
    expect(records[2]).toMatchObject({ kind: 'tool-result', toolUseId: 'call_4', isError: false });
    expect(records[3]).toMatchObject({ kind: 'assistant-text', text: 'Done, from the stand-in.' });
    expect(records[4]).toMatchObject({ kind: 'system', subtype: 'turn_duration' });
    // Codex's own messages (its instructions, the environment) are not the person's prompt.
    expect(JSON.stringify(records)).not.toContain('environment_context');
    expect(parsed.filter((p) => p.status === 'skipped').map((p) => p.status === 'skipped' && p.lineType)).toContain('session_meta');
  });

  it('follows the file with the same reader as a Claude transcript: entries, the tool result on its call, the turn ended', async () => {
    const copy = join(dir, 'rollout.jsonl');
    copyFileSync(ROLLOUT, copy);
    const reader = new TranscriptReader(copy, { parseLine: parseRolloutLine });
    expect((await reader.poll()).missing).toBe(false);
    const entries = reader.entries();
    expect(entries.map((e) => e.kind)).toEqual(['prompt', 'tool-call', 'assistant-text']);
    expect(entries[1]).toMatchObject({ kind: 'tool-call', name: 'Bash', summary: 'echo marker > marker.txt', result: { status: 'ok', text: '' } });
    expect(reader.summary()).toMatchObject({ turnEndedAt: '2026-12-04T10:45:02.710Z', lastPromptAt: '2026-12-04T10:44:47.477Z', interrupt: undefined });
    expect(reader.stats().errors).toBe(0);
  });

  it('says what is wrong with a line it cannot read, and never throws', () => {
    expect(parseRolloutLine('not json')).toMatchObject({ status: 'error', reason: expect.stringMatching(/^not valid JSON/) });
    expect(parseRolloutLine('{"type":"response_item"}')).toMatchObject({ status: 'error', reason: expect.stringMatching(/^not a rollout line/) });
    const noCall = JSON.stringify({ timestamp: 't', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{}' } });
    expect(parseRolloutLine(noCall)).toMatchObject({ status: 'error', reason: expect.stringMatching(/^function_call: call_id/) });
    expect(parseRolloutLine(JSON.stringify({ timestamp: 't', type: 'compacted', payload: {} }))).toEqual({ status: 'skipped', lineType: 'compacted' });
    // Arguments that are not JSON, and a failed command: shown as they are, the failure as an error.
    const odd = parseRolloutLine(JSON.stringify({ timestamp: 't', type: 'response_item', payload: { type: 'function_call', call_id: 'c', name: 'view_image', arguments: 'path=/x' } }));
    expect(odd.status === 'kept' && odd.records[0]).toMatchObject({ kind: 'tool-use', name: 'view_image', input: { arguments: 'path=/x' } });
    const failed = parseRolloutLine(JSON.stringify({ timestamp: 't', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c', output: 'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 2\nOriginal token count: 3\nOutput:\nno such file' } }));
    expect(failed.status === 'kept' && failed.records[0]).toMatchObject({ kind: 'tool-result', isError: true, text: 'no such file' });
    for (const input of ['', '[]', 'null', '{"timestamp":1,"type":"x"}', '{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage"}}}']) {
      expect(() => parseRolloutLine(input)).not.toThrow();
    }
  });
});
