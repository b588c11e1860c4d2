/**
 * Claude's own edits, read from its transcript: what review shows for a session outside git.
 * Each Edit, Write and NotebookEdit call that succeeded leaves a `toolUseResult` on its result's
 * line, naming the file and, for a file Claude held whole, the file as it was before the call
 * (`originalFile`), with the call's hunks (`structuredPatch`). Pure: lines in, edits out.
 *
 * What a command changed (Bash's `sed -i`, `rm`, `mv`) is not in any of these, and is not seen.
 */
import { z } from 'zod';
import { safeParse } from '../../protocol/safe-parse.js';
import { parseTranscriptLine } from '../claude/transcript-parser.js';

/** One hunk of a call, its lines prefixed ` `, `-` or `+` as in a unified diff. */
export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

export interface TranscriptEdit {
  /** The file, absolute, as Claude named it. */
  file: string;
  /**
   * The file before this call: null when there was none (a Write that created it), undefined
   * when the transcript does not hold it (Claude edits a file over 256 KB without holding it).
   */
  before: string | null | undefined;
  hunks: PatchHunk[];
}

export interface TranscriptEdits {
  /** Every edit of the conversation, in order. */
  edits: TranscriptEdit[];
  /** The index in `edits` of the first edit of the last turn (after its prompt). */
  turnFrom: number;
}

/** Hunks of one call, at most: a longer patch is not a call's. */
const HUNKS_MAX = 10_000;

const Hunk = z.object({
  oldStart: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
  lines: z.array(z.string()),
});

/** Edit, and Write's `update` and `create`: the file's path, what it was, the call's hunks. */
const FileResult = z.object({
  filePath: z.string().min(1),
  originalFile: z.string().nullable().optional(),
  structuredPatch: z.array(Hunk).max(HUNKS_MAX).optional(),
  type: z.string().optional(),
});

/** NotebookEdit: the notebook's file before and after, whole. */
const NotebookResult = z.object({
  notebook_path: z.string().min(1),
  original_file: z.string(),
  updated_file: z.string(),
  error: z.string().optional(),
});

const ResultLine = z.object({
  type: z.literal('user'),
  isSidechain: z.boolean().optional(),
  toolUseResult: z.unknown(),
});

/** The edit a transcript line records, or null for any other line. */
export function editOfLine(json: unknown): TranscriptEdit | null {
  const line = safeParse(ResultLine, json);
  if (!line.success) return null;
  const file = safeParse(FileResult, line.data.toolUseResult);
  if (file.success) {
    const { filePath, originalFile, structuredPatch, type } = file.data;
    // Read's result names a file too, with no patch: only a call that wrote has one.
    if (structuredPatch === undefined) return null;
    const before = type === 'create' ? null : typeof originalFile === 'string' ? originalFile : undefined;
    return { file: filePath, before, hunks: structuredPatch };
  }
  const notebook = safeParse(NotebookResult, line.data.toolUseResult);
  if (notebook.success && !notebook.data.error) return { file: notebook.data.notebook_path, before: notebook.data.original_file, hunks: [] };
  return null;
}

/**
 * Gathers the edits of a transcript, line by line. A subagent's edits count (they change the
 * same files); a prompt of the person's starts a turn.
 *
 * A file's copy before an edit is kept only where a scope may start from it: the first edit of
 * the file in the conversation and in each turn; the later ones are told by their hunks
 * (`contentBefore` takes them back). Copies kept come to `beforeMax` bytes at most.
 */
export class TranscriptEditCollector {
  private readonly edits: TranscriptEdit[] = [];
  private turnFrom = 0;
  private readonly seen = new Set<string>();
  private seenInTurn = new Set<string>();
  private beforeBytes = 0;

  constructor(
    private readonly max: number,
    private readonly beforeMax = Number.POSITIVE_INFINITY,
  ) {}

  add(line: string): void {
    // Most lines are neither: the cheap look first.
    if (line.includes('"toolUseResult"')) {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        return;
      }
      const edit = editOfLine(json);
      if (edit) this.push(edit);
      return;
    }
    if (!line.includes('"user"')) return;
    const parsed = parseTranscriptLine(line);
    if (parsed.status === 'kept' && !parsed.sidechain && parsed.records.some((r) => r.kind === 'prompt')) {
      this.turnFrom = this.edits.length;
      this.seenInTurn = new Set();
    }
  }

  private push(edit: TranscriptEdit): void {
    const first = !this.seen.has(edit.file) || !this.seenInTurn.has(edit.file);
    this.seen.add(edit.file);
    this.seenInTurn.add(edit.file);
    if (typeof edit.before === 'string') {
      if (!first || this.beforeBytes + edit.before.length > this.beforeMax) edit.before = undefined;
      else this.beforeBytes += edit.before.length;
    }
    this.edits.push(edit);
    if (this.edits.length > this.max) {
      const gone = this.edits.shift() as TranscriptEdit;
      if (typeof gone.before === 'string') this.beforeBytes -= gone.before.length;
      this.turnFrom = Math.max(0, this.turnFrom - 1);
    }
  }

  result(): TranscriptEdits {
    return { edits: [...this.edits], turnFrom: this.turnFrom };
  }
}

/**
 * The file before a run of edits, from the file after them: each call's `before` where the
 * transcript holds it, else its hunks taken back off the text (newest first). Undefined when a
 * hunk does not fit (the file changed in a way the calls do not tell).
 */
export function contentBefore(edits: readonly TranscriptEdit[], after: string | null): string | null | undefined {
  let text = after;
  for (let i = edits.length - 1; i >= 0; i--) {
    const edit = edits[i] as TranscriptEdit;
    if (edit.before !== undefined) {
      text = edit.before;
      continue;
    }
    if (text === null) return undefined;
    const undone = unapply(text, edit.hunks);
    if (undone === undefined) return undefined;
    text = undone;
  }
  return text;
}

/** `text` with `hunks` taken back: each hunk's new lines, where they stand, put back to its old ones. */
export function unapply(text: string, hunks: readonly PatchHunk[]): string | undefined {
  const lines = text.split('\n');
  // From the last hunk up, so the line numbers of the ones above still hold.
  for (const hunk of [...hunks].sort((a, b) => b.newStart - a.newStart)) {
    // A "\ No newline at end of file" line marks the line before it, and is neither side's.
    const body = hunk.lines.filter((l) => !l.startsWith('\\'));
    const olds = body.filter((l) => !l.startsWith('+')).map((l) => l.slice(1));
    const news = body.filter((l) => !l.startsWith('-')).map((l) => l.slice(1));
    // An empty side starts after the line it names (as in a unified diff).
    const at = news.length === 0 ? hunk.newStart : hunk.newStart - 1;
    if (at < 0 || at + news.length > lines.length) return undefined;
    for (let k = 0; k < news.length; k++) if (lines[at + k] !== news[k]) return undefined;
    lines.splice(at, news.length, ...olds);
  }
  return lines.join('\n');
}
