/**
 * What Claude changed in a session's directory, for review: `GET /api/changes/:key` lists the
 * changed files of one scope, `GET /api/changes/:key/file` one file's hunks. The agent sends
 * them; the app and the CLI parse them with these schemas.
 */
import { z } from 'zod/mini';
import type { ChangesTotal } from './changes-summary.js';

export { type ChangesTotal, changesSummary } from './changes-summary.js';

/**
 * Since when: the prompt that started this turn, the start of this Claude session, or the
 * commit checked out (HEAD), each against the directory as it is now.
 */
export const CHANGE_SCOPES = ['turn', 'session', 'head'] as const;
export type ChangeScope = (typeof CHANGE_SCOPES)[number];
export const ChangeScopeSchema = z.enum(CHANGE_SCOPES);

/** The bounds on what one answer carries; past them it says it was cut and how much was left. */
export const CHANGES_LIMITS = {
  /** Files listed in one scope; the counts still cover them all. */
  files: 1000,
  /** Lines of one file's diff in one answer; the next ones come with `from`. */
  diffLines: 4000,
  /** Characters of one diff line; the rest of a longer line is left out and marked. */
  lineChars: 2000,
  /** A file the snapshot skips (new or changed, larger than this) is named, never read. */
  snapshotFileBytes: 8 * 1024 * 1024,
  /** A file shown whole in the file view, at most: a larger one shows its start, said so. */
  fileBytes: 1024 * 1024,
  /** A path, in characters (code points), as asked for. */
  path: 4096,
} as const;

/** How a file changed, as git names it. */
export const FILE_CHANGE_KINDS = ['added', 'deleted', 'modified', 'renamed', 'copied', 'type-changed'] as const;
export type FileChangeKind = (typeof FILE_CHANGE_KINDS)[number];

/** What a path is on either side: a regular file, an executable, a symlink, a submodule's commit. */
export const ENTRY_KINDS = ['file', 'executable', 'symlink', 'submodule'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export interface FileChange {
  /** The path now (for a deleted file, where it was), relative to the repository's top, `/`-separated. */
  path: string;
  /** For a rename or a copy, where it came from. */
  from?: string;
  kind: FileChangeKind;
  /** What the path was before (absent for an added file) and is now (absent for a deleted one). */
  before?: EntryKind;
  after?: EntryKind;
  /** Lines added and removed; null for a binary file and a submodule, whose lines are not counted. */
  added: number | null;
  removed: number | null;
  binary: boolean;
  /** For a submodule, the commits it pointed at before and after. */
  commits?: { before?: string; after?: string };
}

export interface ChangesView {
  scope: ChangeScope;
  /**
   * Where the changes come from: git (the directory is in a repository); outside git, Claude's
   * own edits (Edit, Write, NotebookEdit) in its transcript (`transcript`: what a command changed
   * is not seen); `none` when they cannot be told, with `reason` in words for the person (no
   * start recorded, no transcript, HEAD outside git).
   */
  source: 'git' | 'transcript' | 'none';
  reason?: string;
  /** The repository's top directory. */
  root?: string;
  /** When the scope starts (ms since the epoch): the turn's prompt, the session's start; absent for HEAD. */
  since?: number;
  /** The commit HEAD names, for the `head` scope; absent in a repository with no commit yet. */
  head?: string;
  files: FileChange[];
  /** Files in the scope, listed or not, and their lines added and removed. */
  total: ChangesTotal;
  /** True when more files changed than `CHANGES_LIMITS.files`: those listed are the first by path. */
  truncated: boolean;
  /** Files left out of the snapshot for their size (over `CHANGES_LIMITS.snapshotFileBytes`). */
  unrecorded: string[];
  /** From the transcript: files Claude edited outside the session's directory, not shown. */
  elsewhere?: number;
}

export interface DiffLine {
  /** ` ` unchanged, `+` added, `-` removed. */
  op: ' ' | '+' | '-';
  text: string;
  /** The line's number before (unchanged and removed lines) and after (unchanged and added ones). */
  old?: number;
  new?: number;
  /** True when the line was longer than `CHANGES_LIMITS.lineChars` and its rest left out. */
  cut?: boolean;
  /** True for the last line of a side that ends with no newline. */
  noNewline?: boolean;
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The function or section git names after `@@` (as written in the file; may be empty). */
  section: string;
  lines: DiffLine[];
}

export interface FileDiff {
  scope: ChangeScope;
  change: FileChange;
  hunks: DiffHunk[];
  /** Diff lines in the whole file's diff, and the index of the first one this answer carries. */
  lines: number;
  from: number;
  /** When more lines follow, the `from` to ask for them with. */
  next?: number;
}

/** `GET /api/changes/:key/read?path=`: one file of the session's directory, as it is now. */
export interface FileView {
  path: string;
  size: number;
  /** Null for a binary file, which is not sent. */
  text: string | null;
  /** True when only the file's first `CHANGES_LIMITS.fileBytes` are sent. */
  truncated: boolean;
}

export const FileViewSchema = z.object({
  path: z.string(),
  size: z.number().check(z.minimum(0)),
  text: z.nullable(z.string()),
  truncated: z.boolean(),
}) satisfies z.ZodMiniType<FileView>;

const EntryKindSchema = z.enum(ENTRY_KINDS);
/** A count or a line number (the agent's own output: not checked to be whole, which would bring more of zod into the app). */
const Count = z.number().check(z.minimum(0));

export const FileChangeSchema = z.object({
  path: z.string(),
  from: z.optional(z.string()),
  kind: z.enum(FILE_CHANGE_KINDS),
  before: z.optional(EntryKindSchema),
  after: z.optional(EntryKindSchema),
  added: z.nullable(Count),
  removed: z.nullable(Count),
  binary: z.boolean(),
  commits: z.optional(z.object({ before: z.optional(z.string()), after: z.optional(z.string()) })),
}) satisfies z.ZodMiniType<FileChange>;

export const ChangesViewSchema = z.object({
  scope: ChangeScopeSchema,
  source: z.enum(['git', 'transcript', 'none']),
  reason: z.optional(z.string()),
  root: z.optional(z.string()),
  since: z.optional(z.number()),
  head: z.optional(z.string()),
  files: z.array(FileChangeSchema),
  total: z.object({ files: Count, added: Count, removed: Count }),
  truncated: z.boolean(),
  unrecorded: z.array(z.string()),
  elsewhere: z.optional(Count),
}) satisfies z.ZodMiniType<ChangesView>;

const DiffLineSchema = z.object({
  op: z.enum([' ', '+', '-']),
  text: z.string(),
  old: z.optional(Count),
  new: z.optional(Count),
  cut: z.optional(z.boolean()),
  noNewline: z.optional(z.boolean()),
}) satisfies z.ZodMiniType<DiffLine>;

export const FileDiffSchema = z.object({
  scope: ChangeScopeSchema,
  change: FileChangeSchema,
  hunks: z.array(
    z.object({ oldStart: Count, oldLines: Count, newStart: Count, newLines: Count, section: z.string(), lines: z.array(DiffLineSchema) }),
  ),
  lines: Count,
  from: Count,
  next: z.optional(Count),
}) satisfies z.ZodMiniType<FileDiff>;
