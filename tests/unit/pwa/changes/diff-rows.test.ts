import { describe, expect, it } from 'vitest';
import { diffRows, sideBySide } from '../../../../pwa/changes/diff-rows.js';
import { WORD_DIFF_MAX_TOKENS, wordDiff } from '../../../../pwa/changes/word-diff.js';
import type { DiffHunk } from '../../../../protocol/changes.js';

const marked = (spans: { text: string; changed: boolean }[]) => spans.map((s) => (s.changed ? `[${s.text}]` : s.text)).join('');

describe('wordDiff', () => {
  it('marks only the words that changed, on both sides', () => {
    const d = wordDiff('export const answer = 41;', 'export const answer = 42;');
    expect(marked(d.before)).toBe('export const answer = [41];');
    expect(marked(d.after)).toBe('export const answer = [42];');
  });

  it('finds common words in the middle, and a space between two changes reads as changed', () => {
    const d = wordDiff('if (a && b) return x;', 'if (a || c) return y;');
    expect(marked(d.before)).toBe('if (a [&& b]) return [x];');
    expect(marked(d.after)).toBe('if (a [|| c]) return [y];');
    expect(marked(wordDiff('one two three', 'ONE TWO three').after)).toBe('[ONE TWO] three');
  });

  it('keeps every character, whole lines added or emptied included', () => {
    for (const [a, b] of [['', 'new'], ['old', ''], ['same', 'same'], ['héllo wörld 😀', 'héllo world 😀!']]) {
      const d = wordDiff(a as string, b as string);
      expect(d.before.map((s) => s.text).join('')).toBe(a);
      expect(d.after.map((s) => s.text).join('')).toBe(b);
    }
    expect(wordDiff('same', 'same').after).toEqual([{ text: 'same', changed: false }]);
  });

  it('past its bound matches only the common start and end', () => {
    const a = `start ${'a '.repeat(WORD_DIFF_MAX_TOKENS)}end`;
    const b = `start ${'b '.repeat(WORD_DIFF_MAX_TOKENS)}end`;
    const d = wordDiff(a, b);
    expect(d.before[0]).toEqual({ text: 'start ', changed: false });
    expect(d.before.at(-1)).toEqual({ text: ' end', changed: false });
    expect(d.before.filter((s) => s.changed)).toHaveLength(1);
  });
});

const hunk = (partial: Partial<DiffHunk> & Pick<DiffHunk, 'lines'>): DiffHunk => ({ oldStart: 1, oldLines: 0, newStart: 1, newLines: 0, section: '', ...partial });

describe('diffRows', () => {
  it('folds the unchanged lines before and between hunks, and pairs a removed line with the added one', () => {
    const rows = diffRows([
      hunk({ oldStart: 5, newStart: 5, lines: [{ op: ' ', text: 'a', old: 5, new: 5 }, { op: '-', text: 'x = 1', old: 6 }, { op: '+', text: 'x = 2', new: 6 }] }),
      hunk({ oldStart: 20, newStart: 20, section: 'function f() {', lines: [{ op: '+', text: 'added', new: 20 }, { op: ' ', text: 'b', old: 20, new: 21 }] }),
    ]);
    expect(rows.map((r) => (r.kind === 'fold' ? `fold ${r.lines} ${r.section}` : `${r.line.op}${r.spans ? marked(r.spans) : r.line.text}`))).toEqual([
      'fold 4 ',
      ' a',
      '-x = [1]',
      '+x = [2]',
      'fold 13 function f() {',
      '+added',
      ' b',
    ]);
  });

  it('pairs runs in order and leaves the extra lines of the longer run whole', () => {
    const rows = diffRows([
      hunk({
        lines: [
          { op: '-', text: 'one', old: 1 },
          { op: '-', text: 'two', old: 2 },
          { op: '+', text: 'One', new: 1 },
        ],
      }),
    ]);
    expect(rows.map((r) => (r.kind === 'line' ? [r.line.text, r.spans !== undefined] : null))).toEqual([
      ['one', true],
      ['two', false],
      ['One', true],
    ]);
  });

  it('draws nothing for no hunks, and no fold for a hunk at the top', () => {
    expect(diffRows([])).toEqual([]);
    expect(diffRows([hunk({ oldStart: 0, oldLines: 0, lines: [{ op: '+', text: 'new', new: 1 }] })])).toEqual([{ kind: 'line', line: { op: '+', text: 'new', new: 1 } }]);
  });
});

describe('sideBySide', () => {
  it('puts unchanged lines on both sides and a removed run beside the added run that replaced it', () => {
    const rows = diffRows([
      hunk({
        oldStart: 4,
        newStart: 4,
        lines: [
          { op: ' ', text: 'a', old: 4, new: 4 },
          { op: '-', text: 'b', old: 5 },
          { op: '-', text: 'c', old: 6 },
          { op: '+', text: 'B', new: 5 },
          { op: ' ', text: 'd', old: 7, new: 6 },
          { op: '+', text: 'e', new: 7 },
        ],
      }),
    ]);
    const text = (i: number | null) => {
      if (i === null) return '';
      const row = rows[i];
      return row?.kind === 'line' ? row.line.text : '?';
    };
    expect(sideBySide(rows).map((r) => (r.kind === 'fold' ? `fold ${r.lines}` : `${text(r.left)}|${text(r.right)}`))).toEqual(['fold 3', 'a|a', 'b|B', 'c|', 'd|d', '|e']);
  });
});
