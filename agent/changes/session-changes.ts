import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { CHANGES_LIMITS, type ChangeScope, type ChangesView, type FileChange, type FileDiff } from '../../protocol/changes.js';
import { readJsonFile, writeJsonAtomicAsync } from '../store/atomic-file.js';
import type { Logger } from '../util/log.js';
import { ChangesUnavailable, emptyTreeLike, type Git, NotARepository, type Repository } from './git.js';
import { parseRawNumstat, parseUnifiedDiff, type RawChange } from './git-output.js';
import { readSessionFile, type SessionFile } from './session-file.js';
import type { TranscriptChanges } from './transcript-changes.js';

/** A scope's start: the directory as a tree, and when. */
interface Start {
  tree: string;
  at: number;
}

interface SessionRecord {
  /** The folder of this session's index and objects, under the changes folder. */
  id: string;
  /** The directory Claude works in, and the top of its repository when the starts were recorded. */
  cwd: string;
  root: string;
  session?: Start;
  turn?: Start;
  usedAt: number;
}

const Start = z.object({ tree: z.string().regex(/^[0-9a-f]{40,64}$/), at: z.number() });
const RecordsFile = z.object({
  sessions: z.record(
    z.string().max(256),
    z.object({ id: z.string().regex(/^[0-9a-f]{16}$/), cwd: z.string(), root: z.string(), session: Start.optional(), turn: Start.optional(), usedAt: z.number() }),
  ),
});

type Compared =
  | { reason: string; outsideGit?: { dir: string } }
  | { record: SessionRecord; repo: Repository; base: string; tree: string; since?: number; head?: string; changes: RawChange[]; unrecorded: string[] };

/** The folder, beside the records, where a compare outside git writes its two sides for a moment. */
export const COMPARE_FOLDER = 'compare';

/** A compare is reused this long by the reads that follow it (the list, then a file). */
const COMPARE_REUSE_MS = 1500;

/** Sessions whose starts are kept; past it, the one used least recently goes, snapshots and all. */
export const CHANGES_SESSIONS_MAX = 64;
/** A revert can be taken back for this long, and this many at most are kept. */
export const UNDO_KEEP_MS = 30 * 60_000;
const UNDOS_MAX = 32;
/** A directory outside git is asked again after this long (it may become a repository), and this many are remembered. */
const OUTSIDE_GIT_KEEP_MS = 60_000;
const OUTSIDE_GIT_MAX = 256;

/**
 * What each session changed, for review. The start of every session (SessionStart) and of every
 * turn (UserPromptSubmit) is recorded as a git tree of the directory (git.ts: never touching
 * the person's repository); a scope's changes are that tree against the directory now, and
 * HEAD's against the directory now. Starts are kept on disk, so an agent restarted mid-turn
 * still knows them.
 */
export class SessionChanges {
  private readonly records = new Map<string, SessionRecord>();
  /** One run at a time per session: they share its index. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly folder: string;
  private saving: Promise<void> = Promise.resolve();
  /** Each session's last compare, for the reads right after it. */
  private readonly recent = new Map<string, { scope: ChangeScope; at: number; compared: Compared }>();
  /** Directories found outside any repository, until when that is believed. */
  private readonly outsideGit = new Map<string, number>();
  /** Reverts that can be taken back: the tree the files were in just before, by a random id. */
  private readonly undos = new Map<string, { key: string; root: string; tree: string; paths: string[]; at: number }>();

  private readonly now: () => number;
  private readonly max: number;
  /** Outside git, Claude's own edits from its transcript; without it such a session says it is not in a repository. */
  private readonly edits: TranscriptChanges | null;

  constructor(
    private readonly git: Git,
    private readonly file: string,
    private readonly log: Logger,
    options: { now?: () => number; max?: number; edits?: TranscriptChanges } = {},
  ) {
    this.folder = dirname(file);
    this.now = options.now ?? Date.now;
    this.max = options.max ?? CHANGES_SESSIONS_MAX;
    this.edits = options.edits ?? null;
  }

  /** Reads the recorded starts, and removes snapshot folders no session names. */
  load(): void {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const read = readJsonFile(this.file, RecordsFile);
    if (read.status === 'corrupt') this.log.warn('the recorded starts of sessions were unreadable and set aside', { reason: read.reason, setAsideAs: read.setAsideAs });
    if (read.status === 'ok') for (const [key, record] of Object.entries(read.value.sessions)) this.records.set(key, record);
    const named = new Set([...this.records.values()].map((r) => r.id));
    for (const name of readdirSync(this.folder)) {
      if (/^[0-9a-f]{16}$/.test(name) && !named.has(name)) void rm(join(this.folder, name), { recursive: true, force: true });
    }
    // What a compare outside git left when the agent stopped in its middle.
    rmSync(join(this.folder, COMPARE_FOLDER), { recursive: true, force: true });
  }

  /** A Claude session started (or was cleared, or resumed) in `cwd`: its changes count from now. */
  sessionStarted(key: string, cwd: string): Promise<void> {
    return this.record(key, cwd, 'session');
  }

  /** A prompt starts a turn: its changes count from now; a session whose start was missed counts from here too. */
  turnStarted(key: string, cwd: string): Promise<void> {
    return this.record(key, cwd, 'turn');
  }

  /** The session's record is dropped (its tab closed, its Claude gone for good), snapshots and all. */
  forget(key: string): void {
    const record = this.records.get(key);
    this.recent.delete(key);
    if (!record) return;
    this.records.delete(key);
    void this.queued(key, () => rm(join(this.folder, record.id), { recursive: true, force: true }));
    this.save();
  }

  /** The changed files of one scope. `dir` is where the session works when no start of it was recorded. */
  changes(key: string, scope: ChangesView['scope'], dir: string | null): Promise<ChangesView> {
    return this.queued(key, async () => {
      // A list is always of the directory now (it is what a turn's end and a refresh ask for);
      // the files opened from it right after reuse its compare.
      const compared = await this.recentCompare(key, scope, dir, false);
      if ('reason' in compared && compared.outsideGit && this.edits) return this.edits.changes(key, scope, compared.outsideGit.dir);
      if ('reason' in compared) return { scope, source: 'none', reason: compared.reason, files: [], total: { files: 0, added: 0, removed: 0 }, truncated: false, unrecorded: [] };
      const { repo, since, head, changes, unrecorded } = compared;
      const total = { files: changes.length, added: 0, removed: 0 };
      for (const c of changes) {
        total.added += c.added ?? 0;
        total.removed += c.removed ?? 0;
      }
      return {
        scope,
        source: 'git',
        root: repo.root,
        ...(since !== undefined ? { since } : {}),
        ...(head !== undefined ? { head } : {}),
        files: changes.slice(0, CHANGES_LIMITS.files).map(publicChange),
        total,
        truncated: changes.length > CHANGES_LIMITS.files,
        unrecorded,
      };
    });
  }

  /** One file's diff in a scope, from its `from`th diff line; throws ChangesUnavailable when it did not change there. */
  fileDiff(key: string, scope: ChangeScope, path: string, dir: string | null, from = 0): Promise<FileDiff> {
    return this.queued(key, async () => {
      const compared = await this.recentCompare(key, scope, dir, true);
      if ('reason' in compared && compared.outsideGit && this.edits) return this.edits.fileDiff(key, scope, path, compared.outsideGit.dir, from);
      if ('reason' in compared) throw new ChangesUnavailable(compared.reason);
      const change = compared.changes.find((c) => c.path === path) ?? compared.changes.find((c) => c.from === path);
      if (!change) throw new ChangesUnavailable(`${JSON.stringify(path)} did not change in this scope`);
      const shown = publicChange(change);
      const textual = !change.binary && change.before !== 'submodule' && change.after !== 'submodule' && change.oldObject !== change.newObject;
      if (!textual) return { scope, change: shown, hunks: [], lines: 0, from: 0 };
      const store = { dir: join(this.folder, compared.record.id) };
      const patch = await this.git.diffBlobs(compared.repo, store, change.oldObject ?? null, change.newObject ?? null);
      const parsed = parseUnifiedDiff(patch, from);
      return { scope, change: shown, ...parsed };
    });
  }

  /**
   * Puts one file back as it was at the start of the turn (or session): its content, mode and
   * name (a rename is undone on both names). Answers with an undo that puts it back as it was
   * before this, kept for a while (`UNDO_KEEP_MS`).
   */
  revert(key: string, scope: 'turn' | 'session', path: string, dir: string | null = null): Promise<{ restored: string[]; undo: string }> {
    return this.queued(key, async () => {
      const compared = await this.compare(key, scope, dir);
      if ('reason' in compared && compared.outsideGit && this.edits) return this.edits.revert(key, scope, path, compared.outsideGit.dir);
      if ('reason' in compared) throw new ChangesUnavailable(compared.reason);
      const change = compared.changes.find((c) => c.path === path);
      if (!change) throw new ChangesUnavailable(`${JSON.stringify(path)} did not change in this scope`);
      if (compared.unrecorded.includes(path)) throw new ChangesUnavailable(`${JSON.stringify(path)} is over 8 MB: its start was not recorded`);
      const paths = change.kind === 'renamed' && change.from !== undefined ? [change.from, change.path] : [change.path];
      const store = { dir: join(this.folder, compared.record.id) };
      await this.git.restore(compared.repo, store, compared.base, paths);
      this.recent.delete(key);
      const undo = randomBytes(12).toString('hex');
      this.undos.set(undo, { key, root: compared.repo.root, tree: compared.tree, paths, at: this.now() });
      this.pruneUndos();
      return { restored: paths, undo };
    });
  }

  /**
   * Commits the files of `paths` that changed against HEAD (a rename with both its names), with
   * the person's identity and hooks. Paths that did not change are refused, so nothing the
   * review did not show is committed.
   */
  commit(key: string, paths: readonly string[], message: string, dir: string | null): Promise<{ commit: string; files: number }> {
    return this.queued(key, async () => {
      const compared = await this.compare(key, 'head', dir);
      if ('reason' in compared) throw new ChangesUnavailable(compared.reason);
      const names: string[] = [];
      for (const path of new Set(paths)) {
        const change = compared.changes.find((c) => c.path === path);
        if (!change) throw new ChangesUnavailable(`${JSON.stringify(path)} has no change to commit`);
        names.push(...(change.kind === 'renamed' && change.from !== undefined ? [change.from, change.path] : [change.path]));
      }
      if (names.length === 0) throw new ChangesUnavailable('no files to commit');
      this.recent.delete(key);
      const commit = await this.git.commit(compared.repo, names, message);
      return { commit, files: new Set(paths).size };
    });
  }

  /** A file of the session's repository (its directory outside git), read for the file view. */
  async readFile(key: string, path: string, dir: string | null): Promise<SessionFile> {
    const cwd = this.records.get(key)?.cwd ?? dir;
    if (cwd === null) throw new ChangesUnavailable('the session\u2019s directory is not known');
    const root = await this.git.repository(cwd).then(
      (repo) => repo.root,
      () => cwd,
    );
    return readSessionFile(root, path);
  }

  /** Takes a revert back: the files it put back are as they were just before it. */
  undo(key: string, id: string): Promise<{ restored: string[] }> {
    return this.queued(key, async () => {
      this.pruneUndos();
      if (this.edits?.hasUndo(id)) return this.edits.undo(key, id);
      const undo = this.undos.get(id);
      const record = this.records.get(key);
      if (!undo || undo.key !== key || !record) throw new ChangesUnavailable('nothing to undo: it was undone already, or it is too old');
      const repo = await this.git.repository(record.cwd);
      if (repo.root !== undo.root) throw new ChangesUnavailable('nothing to undo: the session works in another repository now');
      this.undos.delete(id);
      this.recent.delete(key);
      await this.git.restore(repo, { dir: join(this.folder, record.id) }, undo.tree, undo.paths);
      return { restored: undo.paths };
    });
  }

  private pruneUndos(): void {
    const since = this.now() - UNDO_KEEP_MS;
    for (const [id, undo] of this.undos) if (undo.at < since) this.undos.delete(id);
    while (this.undos.size > UNDOS_MAX) this.undos.delete(this.undos.keys().next().value as string);
  }

  /**
   * With `reuse`, a compare made a moment ago for the same scope, else a new one (kept for the
   * next): opening a file right after the list (or the next file) does not record the directory
   * again. Anything that writes (a start recorded, a revert, an undo, a commit) forgets it.
   */
  private async recentCompare(key: string, scope: ChangeScope, dir: string | null, reuse: boolean): Promise<Compared> {
    const recent = this.recent.get(key);
    if (reuse && recent && recent.scope === scope && this.now() - recent.at < COMPARE_REUSE_MS) return recent.compared;
    const compared = await this.compare(key, scope, dir);
    this.recent.delete(key);
    if (!('reason' in compared)) this.recent.set(key, { scope, at: this.now(), compared });
    while (this.recent.size > this.max) this.recent.delete(this.recent.keys().next().value as string);
    return compared;
  }

  private async compare(
    key: string,
    scope: ChangeScope,
    dir: string | null,
  ): Promise<Compared> {
    // Whatever this finds is newer than a compare kept from before.
    this.recent.delete(key);
    const known = this.records.get(key);
    const cwd = known?.cwd ?? dir;
    if (cwd === null) return { reason: 'the session\u2019s directory is not known' };
    let repo: Repository;
    try {
      repo = await this.git.repository(cwd);
    } catch (err) {
      if (err instanceof NotARepository) return { reason: err.message, outsideGit: { dir: cwd } };
      if (err instanceof ChangesUnavailable) return { reason: err.message };
      throw err;
    }
    let record = known;
    let base: string;
    let since: number | undefined;
    let head: string | undefined;
    if (scope === 'head') {
      record ??= this.newRecord(key, cwd, repo.root);
      const at = await this.git.head(repo);
      head = at?.commit;
      base = at?.tree ?? '';
    } else {
      const start = record?.root === repo.root ? record[scope] : undefined;
      if (!record || !start) {
        return { reason: scope === 'turn' ? 'the start of this turn was not recorded (it began before the agent ran, or no prompt was sent yet)' : 'the start of this session was not recorded (it began before the agent ran)' };
      }
      base = start.tree;
      since = start.at;
    }
    record.usedAt = this.now();
    const store = { dir: join(this.folder, record.id) };
    const now = await this.git.snapshot(repo, store);
    const from = base || emptyTreeLike(now.tree);
    const raw = await this.git.diffTrees(repo, store, from, now.tree);
    const changes = parseRawNumstat(raw).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { record, repo, base: from, tree: now.tree, ...(since !== undefined ? { since } : {}), ...(head !== undefined ? { head } : {}), changes, unrecorded: now.unrecorded };
  }

  /** Whether a turn's start is recorded for the session: only then is there a turn to compare. */
  hasTurnStart(key: string): boolean {
    return this.records.get(key)?.turn !== undefined;
  }

  private record(key: string, cwd: string, scope: 'session' | 'turn'): Promise<void> {
    // A directory found outside git a moment ago is not asked again at every prompt.
    const known = this.outsideGit.get(cwd);
    if (known !== undefined && known > this.now()) {
      if (this.records.has(key)) this.forget(key);
      return Promise.resolve();
    }
    return this.queued(key, async () => {
      let repo: Repository;
      try {
        repo = await this.git.repository(cwd);
      } catch (err) {
        if (!(err instanceof ChangesUnavailable)) throw err;
        this.outsideGit.delete(cwd);
        this.outsideGit.set(cwd, this.now() + OUTSIDE_GIT_KEEP_MS);
        while (this.outsideGit.size > OUTSIDE_GIT_MAX) this.outsideGit.delete(this.outsideGit.keys().next().value as string);
        // Not a repository (or no git): nothing to record; what was recorded of another directory no longer applies.
        if (this.records.has(key)) this.forget(key);
        return;
      }
      let record = this.records.get(key);
      // Another repository than the one the starts were recorded in: they say nothing of this one.
      if (record && record.root !== repo.root) {
        delete record.session;
        delete record.turn;
        record.root = repo.root;
      }
      record ??= this.newRecord(key, cwd, repo.root);
      record.cwd = cwd;
      const snapshot = await this.git.snapshot(repo, { dir: join(this.folder, record.id) });
      this.recent.delete(key);
      const start = { tree: snapshot.tree, at: this.now() };
      if (scope === 'session') {
        record.session = start;
        delete record.turn;
      } else {
        record.turn = start;
        record.session ??= start;
      }
      record.usedAt = start.at;
      this.save();
    }).catch((err: unknown) => {
      this.log.warn(`could not record the start of a ${scope} for review`, { key, error: (err as Error).message });
    });
  }

  private newRecord(key: string, cwd: string, root: string): SessionRecord {
    const record: SessionRecord = { id: randomBytes(8).toString('hex'), cwd, root, usedAt: this.now() };
    this.records.set(key, record);
    while (this.records.size > this.max) {
      let oldest: string | null = null;
      let at = Number.POSITIVE_INFINITY;
      for (const [k, r] of this.records) {
        if (k !== key && r.usedAt < at) {
          oldest = k;
          at = r.usedAt;
        }
      }
      if (oldest === null) break;
      this.forget(oldest);
    }
    return record;
  }

  private queued<T>(key: string, job: () => Promise<T>): Promise<T> {
    const before = this.queues.get(key) ?? Promise.resolve();
    const run = before.then(job, job);
    const settled = run.catch(() => undefined);
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return run;
  }

  /** Writes the records, one write at a time, the newest state each time. */
  private save(): void {
    this.saving = this.saving
      .then(() => writeJsonAtomicAsync(this.file, { sessions: Object.fromEntries(this.records) }))
      .catch((err: unknown) => this.log.warn('could not save the recorded starts of sessions', { error: (err as Error).message }));
  }

  /** Waits for the records' last write (for a clean stop). */
  async dispose(): Promise<void> {
    await Promise.allSettled([...this.queues.values()]);
    await this.saving;
  }
}

function publicChange(change: RawChange): FileChange {
  const { oldObject: _old, newObject: _new, ...shown } = change;
  return shown;
}
