import { describe, expect, it } from 'vitest';
import { entryKind, parseRawNumstat, parseUnifiedDiff } from '../../../../agent/changes/git-output.js';
import { CHANGES_LIMITS } from '../../../../protocol/changes.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

/** `diff-tree -r -z -M --raw --numstat --no-abbrev` as git 2.39 prints it, fields joined by NUL. */
const OUTPUT = [
  `:100644 100644 ${A} ${B} M`, 'bin',
  `:100644 100755 ${A} ${B} M`, 'f.txt',
  `:120000 000000 ${A} ${Z} D`, 'link',
  `:100644 100644 ${A} ${A} R100`, 'old', 'new',
  `:000000 100644 ${Z} ${B} A`, 'we\nird',
  '-\t-\tbin', '2\t1\tf.txt', '0\t1\tlink', '0\t0\t', 'old', 'new', '1\t0\twe\nird', '',
].join('\0');

describe('parseRawNumstat', () => {
  it('reads each kind of change with its counts, objects and modes', () => {
    expect(parseRawNumstat(OUTPUT)).toEqual([
      { path: 'bin', kind: 'modified', before: 'file', after: 'file', added: null, removed: null, binary: true, oldObject: A, newObject: B },
      { path: 'f.txt', kind: 'modified', before: 'file', after: 'executable', added: 2, removed: 1, binary: false, oldObject: A, newObject: B },
      { path: 'link', kind: 'deleted', before: 'symlink', added: 0, removed: 1, binary: false, oldObject: A },
      { path: 'new', from: 'old', kind: 'renamed', before: 'file', after: 'file', added: 0, removed: 0, binary: false, oldObject: A, newObject: A },
      { path: 'we\nird', kind: 'added', after: 'file', added: 1, removed: 0, binary: false, newObject: B },
    ]);
  });

  it('gives a submodule its commits and no line counts', () => {
    const out = [`:160000 160000 ${A} ${B} M`, 'lib', '1\t1\tlib', ''].join('\0');
    expect(parseRawNumstat(out)).toEqual([
      { path: 'lib', kind: 'modified', before: 'submodule', after: 'submodule', added: null, removed: null, binary: false, oldObject: A, newObject: B, commits: { before: A, after: B } },
    ]);
  });

  it('never throws on cut or foreign output, and keeps only whole records', () => {
    expect(parseRawNumstat('')).toEqual([]);
    expect(parseRawNumstat('garbage\0more')).toEqual([]);
    // Cut after the status: no path, no record.
    expect(parseRawNumstat(`:100644 100644 ${A} ${B} M`)).toEqual([]);
    // A status git does not print for two trees, and a rename missing its second path.
    expect(parseRawNumstat([`:100644 100644 ${A} ${B} U`, 'x', `:100644 100644 ${A} ${B} R090`, 'y', ''].join('\0'))).toEqual([]);
    // Counts cut short: the records stay, uncounted.
    const cut = OUTPUT.slice(0, OUTPUT.indexOf('2\t1'));
    expect(parseRawNumstat(cut).map((c) => [c.path, c.added])).toEqual([['bin', null], ['f.txt', null], ['link', null], ['new', null], ['we\nird', null]]);
    for (let end = 0; end < OUTPUT.length; end += 7) expect(() => parseRawNumstat(OUTPUT.slice(0, end))).not.toThrow();
  });

  it('knows the modes git writes and no others', () => {
    expect(['100644', '100755', '120000', '160000', '040000', '000000', '100664'].map(entryKind)).toEqual(['file', 'executable', 'symlink', 'submodule', null, null, null]);
  });
});

const PATCH = `diff --git a/x b/x
index 1..2 100644
--- a/x
+++ b/x
@@ -1,3 +1,4 @@ function main() {
 a
-b
+B
 c
+d
\\ No newline at end of file
@@ -10 +11 @@
-ten
+TEN
`;

describe('parseUnifiedDiff', () => {
  it('numbers each line on its sides and marks a missing last newline', () => {
    const parsed = parseUnifiedDiff(PATCH);
    expect(parsed).toEqual({
      lines: 7,
      from: 0,
      hunks: [
        {
          oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, section: 'function main() {',
          lines: [
            { op: ' ', text: 'a', old: 1, new: 1 },
            { op: '-', text: 'b', old: 2 },
            { op: '+', text: 'B', new: 2 },
            { op: ' ', text: 'c', old: 3, new: 3 },
            { op: '+', text: 'd', new: 4, noNewline: true },
          ],
        },
        { oldStart: 10, oldLines: 1, newStart: 11, newLines: 1, section: '', lines: [{ op: '-', text: 'ten', old: 10 }, { op: '+', text: 'TEN', new: 11 }] },
      ],
    });
  });

  it('pages: the lines from `from`, at most `max`, with where the next page starts', () => {
    const first = parseUnifiedDiff(PATCH, 0, 3);
    expect(first.next).toBe(3);
    expect(first.hunks.flatMap((h) => h.lines.map((l) => l.text))).toEqual(['a', 'b', 'B']);
    const second = parseUnifiedDiff(PATCH, 3, 3);
    expect(second.next).toBe(6);
    // A hunk cut across pages keeps its header in both, and the lines their true numbers.
    expect(second.hunks.map((h) => h.lines.map((l) => [l.text, l.old ?? l.new]))).toEqual([[['c', 3], ['d', 4]], [['ten', 10]]]);
    const last = parseUnifiedDiff(PATCH, 6, 3);
    expect(last.next).toBeUndefined();
    expect(last.hunks).toHaveLength(1);
  });

  it('cuts a long line to its limit and says so', () => {
    const long = 'x'.repeat(CHANGES_LIMITS.lineChars + 10);
    const [line] = parseUnifiedDiff(`@@ -0,0 +1 @@\n+${long}\n`).hunks[0]?.lines ?? [];
    expect(line).toEqual({ op: '+', text: long.slice(0, CHANGES_LIMITS.lineChars), new: 1, cut: true });
  });

  it('skips what is not a diff line and never throws', () => {
    expect(parseUnifiedDiff('').hunks).toEqual([]);
    expect(parseUnifiedDiff('Binary files a/x and b/x differ\n').hunks).toEqual([]);
    expect(parseUnifiedDiff('@@ -1 +1 @@\n?odd\n+ok\n').hunks[0]?.lines).toEqual([{ op: '+', text: 'ok', new: 1 }]);
    for (let end = 0; end < PATCH.length; end += 5) expect(() => parseUnifiedDiff(PATCH.slice(0, end))).not.toThrow();
  });
});
