/**
 * What git prints, read: `diff-tree -r -z -M --raw --numstat` into the changed files, and a
 * unified diff into hunks with line numbers. Pure: the runs are in git.ts, and these are
 * tested on git's own output and on cut or hostile input, which they never throw on.
 */
import { CHANGES_LIMITS, type DiffHunk, type DiffLine, type EntryKind, type FileChange, type FileChangeKind } from '../../protocol/changes.js';

/** One changed path as `--raw` tells it, with the object names the diff of its lines needs. */
export interface RawChange extends FileChange {
  /** The blob (or submodule commit) before and after; absent on the side where the path is not. */
  oldObject?: string;
  newObject?: string;
}

const KIND_OF_STATUS: Readonly<Record<string, FileChangeKind>> = { A: 'added', D: 'deleted', M: 'modified', R: 'renamed', C: 'copied', T: 'type-changed' };

/** What a mode from `--raw` makes a path; null for "not there" (000000) and modes git never writes. */
export function entryKind(mode: string): EntryKind | null {
  switch (mode) {
    case '100644':
      return 'file';
    case '100755':
      return 'executable';
    case '120000':
      return 'symlink';
    case '160000':
      return 'submodule';
    default:
      return null;
  }
}

const RAW_HEAD = /^:(\d{6}) (\d{6}) ([0-9a-f]{40,64}) ([0-9a-f]{40,64}) ([ACDMRTUX])(\d{0,3})$/;
const NULL_OBJECT = /^0+$/;

/**
 * `git diff-tree -r -z -M --raw --numstat --no-abbrev A B`: the raw records first (`:modes
 * objects status NUL path NUL`, and a second path for a rename or copy), then a count for each
 * (`added TAB removed TAB path NUL`, or `TAB NUL from NUL to NUL` for a rename; `-` for a
 * binary file). Records it cannot read are skipped, never guessed at.
 */
export function parseRawNumstat(output: string): RawChange[] {
  const fields = output.split('\0');
  const changes: RawChange[] = [];
  let i = 0;
  for (; i < fields.length; ) {
    const head = RAW_HEAD.exec(fields[i] ?? '');
    if (!head) break;
    const [, oldMode = '', newMode = '', oldObject = '', newObject = '', status = ''] = head;
    const kind = KIND_OF_STATUS[status];
    const twoPaths = status === 'R' || status === 'C';
    const first = fields[i + 1];
    const second = twoPaths ? fields[i + 2] : undefined;
    i += twoPaths ? 3 : 2;
    if (kind === undefined || first === undefined || first === '' || (twoPaths && (second === undefined || second === ''))) continue;
    const before = entryKind(oldMode);
    const after = entryKind(newMode);
    changes.push({
      path: twoPaths ? (second as string) : first,
      ...(twoPaths ? { from: first } : {}),
      kind,
      ...(before ? { before } : {}),
      ...(after ? { after } : {}),
      added: null,
      removed: null,
      binary: false,
      ...(NULL_OBJECT.test(oldObject) ? {} : { oldObject }),
      ...(NULL_OBJECT.test(newObject) ? {} : { newObject }),
    });
    if (before === 'submodule' || after === 'submodule') {
      (changes.at(-1) as RawChange).commits = {
        ...(before === 'submodule' ? { before: oldObject } : {}),
        ...(after === 'submodule' ? { after: newObject } : {}),
      };
    }
  }
  // The counts come in the raw records' order, one for each.
  let at = 0;
  while (i < fields.length && at < changes.length) {
    const field = fields[i] ?? '';
    const count = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(field);
    if (!count) {
      i++;
      continue;
    }
    const change = changes[at++] as RawChange;
    // A rename's count names no path in its own field: the two follow.
    i += count[3] === '' ? 3 : 1;
    // A submodule's "lines" are the commit it names: git counts them, the reader is shown the commits.
    if (change.before === 'submodule' || change.after === 'submodule') continue;
    if (count[1] === '-' || count[2] === '-') {
      change.binary = true;
      continue;
    }
    change.added = Number(count[1]);
    change.removed = Number(count[2]);
  }
  return changes;
}

const HUNK_HEAD = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

export interface ParsedDiff {
  hunks: DiffHunk[];
  /** Diff lines in the whole patch; `from` and `next` are indexes into them. */
  lines: number;
  from: number;
  next?: number;
}

/**
 * A unified diff's hunks, with each line's numbers before and after. Only the lines from
 * `from` on are kept, at most `max` of them (and each line at most
 * `CHANGES_LIMITS.lineChars`): the rest is counted, so the reader can ask for it next.
 */
export function parseUnifiedDiff(patch: string, from = 0, max: number = CHANGES_LIMITS.diffLines): ParsedDiff {
  const hunks: DiffHunk[] = [];
  let hunk: DiffHunk | null = null;
  let kept: DiffHunk | null = null;
  let oldLine = 0;
  let newLine = 0;
  let index = 0;
  let last: DiffLine | null = null;
  const text = patch.endsWith('\n') ? patch.slice(0, -1) : patch;
  for (const raw of text === '' ? [] : text.split('\n')) {
    const head = HUNK_HEAD.exec(raw);
    if (head) {
      hunk = {
        oldStart: Number(head[1]),
        oldLines: head[2] === undefined ? 1 : Number(head[2]),
        newStart: Number(head[3]),
        newLines: head[4] === undefined ? 1 : Number(head[4]),
        section: (head[5] ?? '').slice(0, CHANGES_LIMITS.lineChars),
        lines: [],
      };
      kept = null;
      oldLine = hunk.oldStart;
      newLine = hunk.newStart;
      last = null;
      continue;
    }
    if (!hunk) continue; // the headers before the first hunk
    if (raw.startsWith('\\')) {
      // "\ No newline at end of file": of the line just before.
      if (last) last.noNewline = true;
      continue;
    }
    const op = raw[0];
    if (op !== ' ' && op !== '+' && op !== '-') continue;
    const line: DiffLine = { op, text: raw.slice(1, 1 + CHANGES_LIMITS.lineChars) };
    if (raw.length - 1 > CHANGES_LIMITS.lineChars) line.cut = true;
    if (op !== '+') line.old = oldLine++;
    if (op !== '-') line.new = newLine++;
    last = null;
    if (index >= from && index < from + max) {
      if (!kept) {
        kept = { ...hunk, lines: [] };
        hunks.push(kept);
      }
      kept.lines.push(line);
      last = line;
    }
    index++;
  }
  const end = from + max;
  return { hunks, lines: index, from, ...(index > end ? { next: end } : {}) };
}
