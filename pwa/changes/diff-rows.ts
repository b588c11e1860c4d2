/**
 * A file's hunks as the rows the diff view draws: its lines, each removed line beside the
 * added line that replaced it marked word by word, and a fold for each run of unchanged lines
 * git left out between hunks. Pure.
 */
import type { DiffHunk, DiffLine } from '../../protocol/changes.js';
import { type Span, wordDiff } from './word-diff.js';

export type DiffRow =
  | { kind: 'fold'; lines: number; section: string }
  | { kind: 'line'; line: DiffLine; spans?: Span[] };

/** Lines compared word by word only while both are this short: a long line is marked whole. */
const WORD_DIFF_MAX_CHARS = 1000;

export function diffRows(hunks: readonly DiffHunk[]): DiffRow[] {
  const rows: DiffRow[] = [];
  let nextOld = 1;
  for (const hunk of hunks) {
    const first = hunk.lines[0];
    // Where this page of the hunk starts: its first line's own number on the old side.
    const startOld = first?.old ?? (first?.new !== undefined ? first.new - hunk.newStart + hunk.oldStart : hunk.oldStart);
    const skipped = startOld - nextOld;
    if (skipped > 0) rows.push({ kind: 'fold', lines: skipped, section: hunk.section });
    let i = 0;
    const lines = hunk.lines;
    while (i < lines.length) {
      const line = lines[i] as DiffLine;
      if (line.op !== '-') {
        rows.push({ kind: 'line', line });
        i++;
        continue;
      }
      // A run of removed lines, then the run of added lines that replaced them: paired in order.
      let r = i;
      while (r < lines.length && lines[r]?.op === '-') r++;
      let s = r;
      while (s < lines.length && lines[s]?.op === '+') s++;
      const removed = lines.slice(i, r);
      const added = lines.slice(r, s);
      const pairs = Math.min(removed.length, added.length);
      const marks = removed.slice(0, pairs).map((old, k) => {
        const now = added[k] as DiffLine;
        return old.text.length <= WORD_DIFF_MAX_CHARS && now.text.length <= WORD_DIFF_MAX_CHARS ? wordDiff(old.text, now.text) : null;
      });
      removed.forEach((line, k) => {
        const mark = marks[k];
        rows.push(mark ? { kind: 'line', line, spans: mark.before } : { kind: 'line', line });
      });
      added.forEach((line, k) => {
        const mark = marks[k];
        rows.push(mark ? { kind: 'line', line, spans: mark.after } : { kind: 'line', line });
      });
      i = s;
    }
    const last = [...lines].reverse().find((l) => l.old !== undefined);
    nextOld = last?.old !== undefined ? last.old + 1 : startOld;
  }
  return rows;
}

/** One row of a side-by-side diff: a fold, or what the old side and the new side show there (each with its row's index). */
export type SideRow = { kind: 'fold'; lines: number; section: string } | { kind: 'pair'; left: number | null; right: number | null };

/**
 * The rows side by side: an unchanged line on both sides, a run of removed lines beside the
 * run of added lines that replaced it (the longer run's extra lines beside nothing), folds
 * across. Indexes point into `rows`, so a line picked on either side is the same line.
 */
export function sideBySide(rows: readonly DiffRow[]): SideRow[] {
  const out: SideRow[] = [];
  let i = 0;
  while (i < rows.length) {
    const row = rows[i] as DiffRow;
    if (row.kind === 'fold') {
      out.push(row);
      i++;
      continue;
    }
    if (row.line.op === ' ') {
      out.push({ kind: 'pair', left: i, right: i });
      i++;
      continue;
    }
    const removed: number[] = [];
    const added: number[] = [];
    while (i < rows.length) {
      const r = rows[i] as DiffRow;
      if (r.kind !== 'line' || r.line.op === ' ') break;
      if (r.line.op === '-' && added.length > 0) break;
      (r.line.op === '-' ? removed : added).push(i);
      i++;
    }
    for (let k = 0; k < Math.max(removed.length, added.length); k++) out.push({ kind: 'pair', left: removed[k] ?? null, right: added[k] ?? null });
  }
  return out;
}
