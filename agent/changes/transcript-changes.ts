/**
 * Review outside git: a session's changes from Claude's own edit calls in its transcript
 * (transcript-edits.ts). Each file an edit named, inside the session's directory, is compared
 * as it was before the scope's first edit of it with the file on disk now; both sides go to
 * `git diff --no-index`. The transcript is read through the agent's opener (Claude's projects
 * folder only) and the files through the review's file reader (confined to the directory).
 */
import { randomBytes } from 'node:crypto';
import { realpath, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { CHANGES_LIMITS, type ChangeScope, type ChangesView, type FileChange, type FileDiff } from '../../protocol/changes.js';
import type { TranscriptOpener } from '../claude/transcript-file.js';
import { ChangesUnavailable, type Git } from './git.js';
import { parseUnifiedDiff } from './git-output.js';
import { readSessionFile } from './session-file.js';
import { contentBefore, type TranscriptEdit, TranscriptEditCollector, type TranscriptEdits } from './transcript-edits.js';

/** A revert can be taken back this long, and this many at most are kept (as in git). */
const UNDO_KEEP_MS = 30 * 60_000;
const UNDOS_MAX = 32;
/** Edits of one transcript kept, at most: the oldest go first. */
const EDITS_MAX = 5_000;
/** A transcript line longer than this is skipped, never held whole. */
const LINE_MAX_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
/** Sessions whose reading is kept between reads (the list, then its files, the next turn); the one used least recently goes first. */
const CACHED_MAX = 16;
/** Copies of files before an edit kept for one session, in characters: past it, the edits' hunks tell. */
const BEFORE_MAX_BYTES = 16 * 1024 * 1024;

export interface TranscriptChangesOptions {
  git: Git;
  /** Where the compares' two sides are written for a moment (pocketmux's own folder). */
  folder: string;
  /** The transcript a session's hooks named, if any. */
  transcriptOf: (key: string) => string | null;
  open: TranscriptOpener;
  now?: () => number;
}

interface Compared {
  change: FileChange;
  before: string | null;
  after: string | null;
  /** For a file that could not be compared whole: the calls' own hunks, shown one after another. */
  calls?: readonly TranscriptEdit[];
  /** A text file compared whole whose lines added and removed are still to be counted. */
  uncounted?: boolean;
}

/** The shown path of an absolute file inside `dir` (`/`-separated), or null outside it. */
function inside(dir: string, file: string): string | null {
  const rel = relative(dir, file);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith('/')) return null;
  return rel.split(sep).join('/');
}

const isBinary = (text: string | null): boolean => text?.slice(0, 8000).includes('\0') === true;

export class TranscriptChanges {
  /** Each session's reading of its transcript, most recently used last. */
  private readonly cache = new Map<string, { path: string; dev: number; ino: number; offset: number; collector: TranscriptEditCollector }>();

  /** Reverts that can be taken back: what the file was just before, by a random id. */
  private readonly undos = new Map<string, { key: string; dir: string; path: string; text: string | null; at: number }>();
  private readonly now: () => number;

  constructor(private readonly options: TranscriptChangesOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The changed files of a scope in `dir`, from the session's transcript. */
  async changes(key: string, scope: ChangeScope, dir: string): Promise<ChangesView> {
    const none = (reason: string): ChangesView => ({ scope, source: 'none', reason, files: [], total: { files: 0, added: 0, removed: 0 }, truncated: false, unrecorded: [] });
    if (scope === 'head') return none('not in a git repository, so there is no HEAD to compare with');
    const found = await this.scopeEdits(key, scope);
    if (typeof found === 'string') return none(found);
    const { byFile, elsewhere } = this.group(found, dir);
    const compared: Compared[] = [];
    for (const [path, edits] of byFile) {
      const one = await this.compareFile(dir, path, edits);
      if (one) compared.push(one);
    }
    const uncounted = compared.filter((c) => c.uncounted);
    const counts = await this.options.git.numstatTexts(this.options.folder, uncounted);
    uncounted.forEach((c, i) => {
      const count = counts[i] ?? null;
      c.change = count === null ? { ...c.change, added: null, removed: null, binary: true } : { ...c.change, ...count };
    });
    compared.sort((a, b) => (a.change.path < b.change.path ? -1 : a.change.path > b.change.path ? 1 : 0));
    const total = { files: compared.length, added: 0, removed: 0 };
    for (const { change } of compared) {
      total.added += change.added ?? 0;
      total.removed += change.removed ?? 0;
    }
    return {
      scope,
      source: 'transcript',
      root: dir,
      files: compared.slice(0, CHANGES_LIMITS.files).map((c) => c.change),
      total,
      truncated: compared.length > CHANGES_LIMITS.files,
      unrecorded: [],
      ...(elsewhere > 0 ? { elsewhere } : {}),
    };
  }

  /** One file's diff in a scope, from its `from`th diff line. */
  async fileDiff(key: string, scope: ChangeScope, path: string, dir: string, from = 0): Promise<FileDiff> {
    if (scope === 'head') throw new ChangesUnavailable('not in a git repository, so there is no HEAD to compare with');
    const found = await this.scopeEdits(key, scope);
    if (typeof found === 'string') throw new ChangesUnavailable(found);
    const edits = this.group(found, dir).byFile.get(path);
    const compared = edits ? await this.compareFile(dir, path, edits) : null;
    if (!compared) throw new ChangesUnavailable(`${JSON.stringify(path)} did not change in this scope`);
    const { before, after, calls } = compared;
    let change = compared.change;
    if (change.binary || change.added === null) return { scope, change, hunks: [], lines: 0, from: 0 };
    const patch = calls ? patchOf(calls) : await this.options.git.diffTexts(this.options.folder, before, after);
    if (compared.uncounted) change = { ...change, ...countPatch(patch) };
    return { scope, change, ...parseUnifiedDiff(patch, from) };
  }

  /**
   * Puts one file back as it was before the scope's first edit of it: its content written back,
   * or the file removed when an edit created it. Only a file compared whole (its start known,
   * inside the directory, no symlink out of it), and only while it is as the compare read it.
   * Answers with an undo that writes back what it was just before, kept as git's are.
   */
  async revert(key: string, scope: 'turn' | 'session', path: string, dir: string): Promise<{ restored: string[]; undo: string }> {
    const found = await this.scopeEdits(key, scope);
    if (typeof found === 'string') throw new ChangesUnavailable(found);
    const edits = this.group(found, dir).byFile.get(path);
    const compared = edits ? await this.compareFile(dir, path, edits) : null;
    if (!compared) throw new ChangesUnavailable(`${JSON.stringify(path)} did not change in this scope`);
    if (compared.calls || compared.change.binary) throw new ChangesUnavailable(`${JSON.stringify(path)} cannot be put back: the transcript does not hold it whole`);
    await writeBack(dir, path, compared.before);
    const undo = randomBytes(12).toString('hex');
    this.undos.set(undo, { key, dir, path, text: compared.after, at: this.now() });
    this.pruneUndos();
    return { restored: [path], undo };
  }

  /** Whether `id` is an undo of this kind (a revert outside git). */
  hasUndo(id: string): boolean {
    this.pruneUndos();
    return this.undos.has(id);
  }

  /** Takes a revert back: the file as it was just before it. */
  async undo(key: string, id: string): Promise<{ restored: string[] }> {
    this.pruneUndos();
    const undo = this.undos.get(id);
    if (!undo || undo.key !== key) throw new ChangesUnavailable('nothing to undo: it was undone already, or it is too old');
    this.undos.delete(id);
    await writeBack(undo.dir, undo.path, undo.text);
    return { restored: [undo.path] };
  }

  private pruneUndos(): void {
    const since = this.now() - UNDO_KEEP_MS;
    for (const [id, undo] of this.undos) if (undo.at < since) this.undos.delete(id);
    while (this.undos.size > UNDOS_MAX) this.undos.delete(this.undos.keys().next().value as string);
  }

  /** The session's edits in the scope, or why there are none to read. */
  private async scopeEdits(key: string, scope: 'turn' | 'session'): Promise<TranscriptEdit[] | string> {
    const path = this.options.transcriptOf(key);
    if (path === null) return 'not in a git repository, and no transcript of Claude\u2019s edits is known yet';
    const read = await this.read(key, path);
    if (typeof read === 'string') return read;
    return scope === 'turn' ? read.edits.slice(read.turnFrom) : read.edits;
  }

  private group(edits: readonly TranscriptEdit[], dir: string): { byFile: Map<string, TranscriptEdit[]>; elsewhere: number } {
    const byFile = new Map<string, TranscriptEdit[]>();
    const outside = new Set<string>();
    for (const edit of edits) {
      const path = inside(dir, edit.file);
      if (path === null) {
        outside.add(edit.file);
        continue;
      }
      const list = byFile.get(path) ?? [];
      list.push(edit);
      byFile.set(path, list);
    }
    return { byFile, elsewhere: outside.size };
  }

  /** The file now against before its first edit; null when it is as it was (or it came and went). */
  private async compareFile(dir: string, path: string, edits: readonly TranscriptEdit[]): Promise<Compared | null> {
    // What the calls themselves say they changed: for a file that cannot be compared whole.
    const byCalls: Compared = { change: { path, kind: 'modified', before: 'file', after: 'file', ...countHunks(edits), binary: false }, before: null, after: null, calls: edits };
    let after: string | null = null;
    try {
      const file = await readSessionFile(dir, path);
      if (file.text === null) return { change: { path, kind: 'modified', before: 'file', after: 'file', added: null, removed: null, binary: true }, before: null, after: null };
      // Larger than the reader's bound: only its start was read.
      if (file.truncated) return byCalls;
      after = file.text;
    } catch (err) {
      if (!(err instanceof ChangesUnavailable)) throw err;
      // Not there any more: compared as gone. Anything else the reader refuses (a symlink out
      // of the directory, a FIFO) is not read.
      if (!/ is not there$/.test(err.message)) return byCalls;
    }
    const before = contentBefore(edits, after);
    if (before === undefined) return byCalls;
    if (before === after) return null;
    const kind = before === null ? 'added' : after === null ? 'deleted' : 'modified';
    const sides = { ...(before !== null ? { before: 'file' as const } : {}), ...(after !== null ? { after: 'file' as const } : {}) };
    if (isBinary(before) || isBinary(after)) return { change: { path, kind, ...sides, added: null, removed: null, binary: true }, before, after };
    // Its lines are counted by the caller: for a list, all files in one run of git.
    return { change: { path, kind, ...sides, added: 0, removed: 0, binary: false }, before, after, uncounted: true };
  }

  /**
   * The transcript's edits. Each session's reading goes on from where the last one stopped (the
   * end of its last whole line), while the file is the same one and has not shrunk.
   */
  private async read(key: string, path: string): Promise<TranscriptEdits | string> {
    const opened = await this.options.open(path);
    if (opened.kind === 'missing') return 'not in a git repository, and Claude\u2019s transcript is not there';
    if (opened.kind === 'refused') return `not in a git repository, and Claude\u2019s transcript cannot be read (${opened.reason})`;
    const { handle, stat } = opened;
    try {
      const known = this.cache.get(key);
      const same = known && known.path === path && known.dev === stat.dev && known.ino === stat.ino && stat.size >= known.offset;
      const reading = same ? known : { path, dev: stat.dev, ino: stat.ino, offset: 0, collector: new TranscriptEditCollector(EDITS_MAX, BEFORE_MAX_BYTES) };
      this.cache.delete(key);
      this.cache.set(key, reading);
      while (this.cache.size > CACHED_MAX) this.cache.delete(this.cache.keys().next().value as string);
      const buffer = Buffer.alloc(CHUNK_BYTES);
      let partial: Buffer[] = [];
      let partialBytes = 0;
      let overlong = false;
      for (let position = reading.offset; position < stat.size; ) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, stat.size - position), position);
        if (bytesRead === 0) break;
        let start = 0;
        for (let nl = buffer.indexOf(10, 0); nl !== -1 && nl < bytesRead; nl = buffer.indexOf(10, start)) {
          if (!overlong) reading.collector.add(Buffer.concat([...partial, buffer.subarray(start, nl)]).toString('utf8'));
          partial = [];
          partialBytes = 0;
          overlong = false;
          start = nl + 1;
          reading.offset = position + start;
        }
        position += bytesRead;
        if (start < bytesRead && !overlong) {
          partialBytes += bytesRead - start;
          // Too long to hold: skipped to its end (this read); a line half written waits for its end.
          if (partialBytes > LINE_MAX_BYTES) {
            overlong = true;
            partial = [];
          } else partial.push(Buffer.from(buffer.subarray(start, bytesRead)));
        }
      }
      return reading.collector.result();
    } finally {
      await handle.close();
    }
  }
}

/** Lines added and removed, as the calls' own hunks count them. */
function countHunks(edits: readonly TranscriptEdit[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const edit of edits) {
    for (const hunk of edit.hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) added++;
        else if (line.startsWith('-')) removed++;
      }
    }
  }
  return { added, removed };
}

/** The calls' hunks as one unified diff, in the order they were made. */
function patchOf(edits: readonly TranscriptEdit[]): string {
  const out: string[] = [];
  for (const edit of edits) {
    for (const h of edit.hunks) out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines);
  }
  return out.join('\n');
}

/**
 * Writes `text` to `path` in `dir` (or removes the file, for null), through no symlink: the
 * folder it goes in must be inside `dir` once resolved, and a file that is a symlink is refused
 * (the file view's reader resolved it, and a write would go where it leads).
 */
async function writeBack(dir: string, path: string, text: string | null): Promise<void> {
  const top = await realpath(dir);
  const target = join(top, path);
  let folder: string;
  try {
    folder = await realpath(dirname(target));
  } catch {
    throw new ChangesUnavailable(`${JSON.stringify(path)} cannot be put back: its folder is gone`);
  }
  if (folder !== top && inside(top, folder) === null) throw new ChangesUnavailable(`${JSON.stringify(path)} cannot be put back: its folder leads out of the session\u2019s directory`);
  const file = join(folder, basename(target));
  const real = await realpath(file).catch(() => file);
  if (real !== file) throw new ChangesUnavailable(`${JSON.stringify(path)} cannot be put back: it is a symbolic link`);
  if (text === null) await rm(file, { force: true });
  else await writeFile(file, text);
}

/** Lines added and removed in a unified diff (the `---` and `+++` headers come before the first hunk). */
function countPatch(patch: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunks = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('@@')) inHunks = true;
    else if (inHunks && line.startsWith('+')) added++;
    else if (inHunks && line.startsWith('-')) removed++;
  }
  return { added, removed };
}
