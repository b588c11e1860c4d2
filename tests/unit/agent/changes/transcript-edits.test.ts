import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentBefore, editOfLine, TranscriptEditCollector, unapply } from '../../../../agent/changes/transcript-edits.js';

/** A turn of the real CLI (2.1.332) in a plain folder: Edit twice, Write new and over, Edit of an 800 KB file, NotebookEdit, and calls that failed. */
const CAPTURED = readFileSync(join(__dirname, '../../../fixtures/claude-code-2.1.332/edit-tool-results/transcript.jsonl'), 'utf8').split('\n').filter(Boolean);
const BIG = `${Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long file with some words`).join('\n')}\n`;

function collect(lines: readonly string[], max = 100) {
  const collector = new TranscriptEditCollector(max);
  for (const line of lines) collector.add(line);
  return collector.result();
}

describe('Claude\u2019s edits in a transcript', () => {
  it('reads each call that wrote a file, and nothing else, from the real CLI\u2019s lines', () => {
    const { edits, turnFrom } = collect(CAPTURED);
    expect(turnFrom).toBe(0);
    expect(edits.map((e) => [e.file.replace(/^~\/plain\//, ''), e.before === undefined ? 'unknown' : e.before === null ? 'none' : 'held', e.hunks.length])).toEqual([
      ['app.ts', 'held', 1],
      // The file's second edit in the turn: its copy is not kept, its hunk tells.
      ['app.ts', 'unknown', 1],
      ['new.md', 'none', 0],
      ['over.txt', 'held', 1],
      ['big.txt', 'unknown', 1],
      ['nb.ipynb', 'held', 0],
    ]);
    // The file before the turn, from the file now: the second call's hunk taken back, then the first call's own copy.
    const app = edits.filter((e) => e.file.endsWith('app.ts'));
    expect(contentBefore(app, 'export const a = 10;\nexport const b = 20;\nexport const b2 = 20;\n')).toBe('export const a = 1;\nexport const b = 2;\nexport const b2 = 2;\n');
    expect(contentBefore(edits.filter((e) => e.file.endsWith('new.md')), '# New\n\nfresh\n')).toBeNull();
    // Too large for Claude to hold: its hunk is taken back off the file now.
    const big = edits.filter((e) => e.file.endsWith('big.txt'));
    expect(contentBefore(big, BIG.replace('line 100 of', 'LINE 100 of'))).toBe(BIG);
    // ...unless the file now does not have what the call wrote.
    expect(contentBefore(big, BIG)).toBeUndefined();
    expect(contentBefore(big, null)).toBeUndefined();
  });

  it('counts the last turn from its prompt; a subagent\u2019s prompt starts none', () => {
    const prompt = (text: string, sidechain = false) => JSON.stringify({ type: 'user', uuid: `u-${text}`, timestamp: '2026-12-03T00:00:00.000Z', isSidechain: sidechain, message: { role: 'user', content: text } });
    const edit = (file: string) => JSON.stringify({ type: 'user', uuid: `e-${file}`, timestamp: '2026-12-03T00:00:01.000Z', message: { role: 'user', content: [] }, toolUseResult: { type: 'create', filePath: file, content: 'x', structuredPatch: [], originalFile: null } });
    const read = collect([prompt('one'), edit('/a'), prompt('two'), edit('/b'), prompt('agent', true), edit('/c')]);
    expect(read.edits.map((e) => e.file)).toEqual(['/a', '/b', '/c']);
    expect(read.turnFrom).toBe(1);
    // Past the bound the oldest edits go, and the turn still starts at its own first edit.
    const bounded = collect([prompt('one'), edit('/a'), edit('/b'), prompt('two'), edit('/c'), edit('/d')], 3);
    expect(bounded.edits.map((e) => e.file)).toEqual(['/b', '/c', '/d']);
    expect(bounded.turnFrom).toBe(1);
  });

  it('keeps a file\u2019s copy for its first edit in the conversation and in each turn, within the bound', () => {
    const prompt = (text: string) => JSON.stringify({ type: 'user', uuid: `u-${text}`, timestamp: '2026-12-03T00:00:00.000Z', message: { role: 'user', content: text } });
    const edit = (file: string, before: string) =>
      JSON.stringify({ type: 'user', uuid: `e-${file}`, timestamp: '2026-12-03T00:00:01.000Z', message: { role: 'user', content: [] }, toolUseResult: { filePath: file, originalFile: before, structuredPatch: [] } });
    const kept = (lines: string[], beforeMax?: number) => {
      const collector = new TranscriptEditCollector(100, beforeMax);
      for (const line of lines) collector.add(line);
      return collector.result().edits.map((e) => e.before ?? '-');
    };
    expect(kept([prompt('one'), edit('/a', 'a1'), edit('/a', 'a2'), edit('/b', 'b1'), prompt('two'), edit('/a', 'a3'), edit('/a', 'a4')])).toEqual(['a1', '-', 'b1', 'a3', '-']);
    // Past the bound, copies are no longer kept.
    expect(kept([prompt('one'), edit('/a', 'aaaa'), edit('/b', 'bbbb'), edit('/c', 'cc')], 7)).toEqual(['aaaa', '-', 'cc']);
  });

  it('takes nothing from lines that are not a successful edit', () => {
    const hostile = [
      '',
      'not json {"toolUseResult"',
      '{"type":"user","toolUseResult":"Error: File does not exist."}',
      '{"type":"user","toolUseResult":{"filePath":"/a","structuredPatch":"not a list"}}',
      '{"type":"user","toolUseResult":{"filePath":"","structuredPatch":[]}}',
      '{"type":"user","toolUseResult":{"filePath":"/a","structuredPatch":[{"oldStart":-1,"oldLines":1,"newStart":1,"newLines":1,"lines":[]}]}}',
      '{"type":"user","toolUseResult":{"type":"text","file":{"filePath":"/a","content":"x"}}}',
      '{"type":"assistant","toolUseResult":{"filePath":"/a","structuredPatch":[]}}',
      '{"type":"user","toolUseResult":{"notebook_path":"/n","original_file":"a","updated_file":"b","error":"no such cell"}}',
      '{"type":"user","toolUseResult":{"filePath":{"length":{"valueOf":1}},"structuredPatch":[]}}',
    ];
    expect(collect(hostile).edits).toEqual([]);
    expect(editOfLine(null)).toBeNull();
  });

  it('takes hunks back only where they fit', () => {
    const hunk = { oldStart: 2, oldLines: 1, newStart: 2, newLines: 2, lines: ['-b', '+B', '+B2'] };
    expect(unapply('a\nB\nB2\nc\n', [hunk])).toBe('a\nb\nc\n');
    expect(unapply('a\nb\nc\n', [hunk])).toBeUndefined();
    expect(unapply('a\n', [hunk])).toBeUndefined();
    // Two hunks of one call: each put back where it stands.
    const two = [
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-x', '+X'] },
      { oldStart: 3, oldLines: 1, newStart: 2, newLines: 0, lines: ['-z'] },
    ];
    expect(unapply('X\ny\n', two)).toBe('x\ny\nz\n');
    // "\ No newline at end of file" belongs to neither side.
    expect(unapply('a\nb2', [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, lines: ['-b', '\\ No newline at end of file', '+b2', '\\ No newline at end of file'] }])).toBe('a\nb');
  });
});
