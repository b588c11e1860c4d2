/**
 * git, run for review: find the repository a session works in, record the directory as a tree
 * without touching what the person sees, and compare two trees. Every run is `git -C <dir>`
 * with its arguments as an array (no shell), from the agent's worker thread, with a timeout.
 *
 * A snapshot never writes to the person's repository: it goes through an index of pocketmux's
 * own (GIT_INDEX_FILE, a copy of the repository's at first) into an object directory of
 * pocketmux's own (GIT_OBJECT_DIRECTORY), which reads the repository's objects as alternates.
 * So `git status`, the index, the stash, the refs, the files and the object store are
 * untouched.
 */
import { copyFile, lstat, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHANGES_LIMITS } from '../../protocol/changes.js';
import { type ExecResult, execOffThread } from '../util/off-thread-exec.js';

/** Why the changes cannot be told, in words for the person. */
export class ChangesUnavailable extends Error {}

/** The directory is in no git repository: its changes come from Claude's own edits instead (transcript-changes.ts). */
export class NotARepository extends ChangesUnavailable {
  constructor() {
    super('not in a git repository');
  }
}

/** Settings that keep a run from writing anywhere but pocketmux's own index and objects, or from running the person's helpers. */
const SAFE_CONFIG = [
  'core.fsmonitor=false',
  'core.splitIndex=false',
  'core.untrackedCache=false',
  'core.quotePath=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'advice.addEmbeddedRepo=false',
  'color.ui=false',
];

const RUN_TIMEOUT_MS = 15_000;
/** A commit runs the person's hooks (a linter, tests): they get a minute. */
const COMMIT_TIMEOUT_MS = 60_000;
/** Adding a large tree the first time hashes every file. */
const ADD_TIMEOUT_MS = 60_000;
/** A diff's output, at most: past it the diff is refused as too large, never cut mid-file. */
const OUTPUT_MAX_BYTES = 32 * 1024 * 1024;
/** Files new or changed since the last snapshot, looked at one by one for their size; more, and the snapshot is refused. */
const CANDIDATES_MAX = 20_000;

export interface Repository {
  /** The work tree's top, absolute. */
  root: string;
  /** The repository's index and object directory (a linked work tree's own index, the common objects). */
  index: string;
  objects: string;
}

/** Where a session's snapshots live: pocketmux's index and object directory, in its data dir. */
export interface SnapshotStore {
  dir: string;
}

export interface Snapshot {
  tree: string;
  /** Paths left out for their size. */
  unrecorded: string[];
}

export interface Git {
  /** The repository `dir` is in; throws ChangesUnavailable when it is in none. */
  repository(dir: string): Promise<Repository>;
  /** The directory as it is now, as a tree in the store's objects. */
  snapshot(repo: Repository, store: SnapshotStore): Promise<Snapshot>;
  /** The tree and commit HEAD names; null in a repository with no commit yet. */
  head(repo: Repository): Promise<{ tree: string; commit: string } | null>;
  /** `diff-tree -r -z -M --raw --numstat` between two trees. */
  diffTrees(repo: Repository, store: SnapshotStore, from: string, to: string): Promise<string>;
  /** The unified diff of two blobs (null for "not there": the empty blob). */
  diffBlobs(repo: Repository, store: SnapshotStore, from: string | null, to: string | null): Promise<string>;
  /**
   * Puts `paths` in the work tree back as they are in `tree`: rewritten, or removed where the
   * tree has none. Only the work tree: the person's index is not touched. git itself refuses to
   * write through a symlinked folder.
   */
  restore(repo: Repository, store: SnapshotStore, tree: string, paths: readonly string[]): Promise<void>;
  /**
   * Stages `paths` (new, changed, deleted alike) in the person's own index and commits exactly
   * them with `message`, as the person would: their identity, their hooks, their index format.
   * What else was staged stays staged. Answers with the new commit's name.
   */
  commit(repo: Repository, paths: readonly string[], message: string): Promise<string>;
  /**
   * The unified diff of two texts (null: no such file), outside any repository: each is written
   * to a folder made for it under `folder` (pocketmux's own), compared, and removed.
   */
  diffTexts(folder: string, before: string | null, after: string | null): Promise<string>;
  /**
   * Lines added and removed of each pair (null for a binary one), in one run: the sides are
   * written as two folders under `folder`, compared with `git diff --no-index --numstat`, and removed.
   */
  numstatTexts(folder: string, pairs: readonly { before: string | null; after: string | null }[]): Promise<({ added: number; removed: number } | null)[]>;
}

/** The environment of every run: the agent's, with no GIT_* the agent was started with (they would aim git elsewhere). */
function baseEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!name.startsWith('GIT_')) out[name] = value;
  // No lock git could do without (status refreshing the index), and never a prompt for a password.
  out.GIT_OPTIONAL_LOCKS = '0';
  out.GIT_TERMINAL_PROMPT = '0';
  return out;
}

function storeEnv(env: NodeJS.ProcessEnv, repo: Repository, store: SnapshotStore): NodeJS.ProcessEnv {
  return { ...env, GIT_INDEX_FILE: join(store.dir, 'index'), GIT_OBJECT_DIRECTORY: join(store.dir, 'objects'), GIT_ALTERNATE_OBJECT_DIRECTORIES: repo.objects };
}

function failed(what: string, result: ExecResult): ChangesUnavailable {
  const failure = result.failure;
  if (failure?.code === 'ENOENT') return new ChangesUnavailable('git is not installed (or not on the agent\u2019s PATH)');
  if (failure?.killed) return new ChangesUnavailable(`git took too long to ${what}`);
  if (failure?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return new ChangesUnavailable(`too large to ${what}`);
  const said = result.stderr.trim().split('\n').at(-1)?.replace(/^(fatal|error): /, '') ?? '';
  return new ChangesUnavailable(`git could not ${what}${said ? `: ${said.slice(0, 300)}` : ''}`);
}

export function openGit(options: { bin?: string; env: NodeJS.ProcessEnv }): Git {
  const bin = options.bin ?? 'git';
  const env = baseEnv(options.env);

  const run = async (dir: string, args: readonly string[], what: string, runEnv: NodeJS.ProcessEnv = env, timeoutMs = RUN_TIMEOUT_MS): Promise<string> => {
    const config = SAFE_CONFIG.flatMap((setting) => ['-c', setting]);
    const result = await execOffThread(bin, ['-C', dir, ...config, ...args], { env: runEnv, timeoutMs, maxBuffer: OUTPUT_MAX_BYTES });
    if (result.failure) throw failed(what, result);
    return result.stdout;
  };

  /** The empty blob, written once into the store: the "before" of an added file and the "after" of a deleted one. */
  const emptyBlob = async (repo: Repository, store: SnapshotStore): Promise<string> =>
    (await run(repo.root, ['hash-object', '-w', '-t', 'blob', '/dev/null'], 'record an empty file', storeEnv(env, repo, store))).trim();

  return {
    async repository(dir) {
      const out = await run(dir, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-path', 'index', '--git-path', 'objects'], 'find the repository').catch((err: unknown) => {
        if (err instanceof ChangesUnavailable && /not a git repository/.test(err.message)) throw new NotARepository();
        throw err;
      });
      const [root, index, objects, ...rest] = out.replace(/\n$/, '').split('\n');
      // A path with a newline in it cannot be told from the next: such a repository is not reviewed.
      if (!root || !index || !objects || rest.length > 0) throw new ChangesUnavailable('not in a work tree git can show (a bare repository, or a path with a line break)');
      return { root, index, objects };
    },

    async snapshot(repo, store) {
      const objects = join(store.dir, 'objects');
      await mkdir(objects, { recursive: true, mode: 0o700 });
      const index = join(store.dir, 'index');
      const fresh = await lstat(index).then(
        () => false,
        () => true,
      );
      // The repository's index, so files it already knows are not hashed again; git replaces it
      // by renaming a new one in, so the copy is of one whole version.
      if (fresh) await copyFile(repo.index, index).catch(() => undefined);
      const runEnv = storeEnv(env, repo, store);
      const listed = await run(repo.root, ['ls-files', '-z', '--others', '--modified', '--exclude-standard'], 'list the changed files', runEnv);
      const candidates = [...new Set(listed.split('\0').filter((p) => p !== ''))];
      if (candidates.length > CANDIDATES_MAX) throw new ChangesUnavailable(`more than ${CANDIDATES_MAX} files are new or changed (is a build folder missing from .gitignore?)`);
      const unrecorded: string[] = [];
      for (const path of candidates) {
        const size = await lstat(join(repo.root, path)).then(
          (s) => (s.isFile() ? s.size : 0),
          () => 0,
        );
        if (size > CHANGES_LIMITS.snapshotFileBytes) unrecorded.push(path);
      }
      const addArgs = ['add', '--all', '--ignore-errors'];
      if (unrecorded.length === 0) {
        await run(repo.root, [...addArgs, '--', ':/'], 'record the directory', runEnv, ADD_TIMEOUT_MS);
      } else {
        // Too many to name on a command line: the pathspecs go in a file, NUL-separated.
        const pathspecs = join(store.dir, 'pathspecs');
        await writeFile(pathspecs, [':/', ...unrecorded.map((p) => `:(exclude,literal,top)${p}`)].join('\0'), { mode: 0o600 });
        await run(repo.root, [...addArgs, `--pathspec-from-file=${pathspecs}`, '--pathspec-file-nul'], 'record the directory', runEnv, ADD_TIMEOUT_MS);
      }
      const tree = (await run(repo.root, ['write-tree'], 'record the directory', runEnv)).trim();
      return { tree, unrecorded: unrecorded.sort() };
    },

    async head(repo) {
      const out = await run(repo.root, ['rev-parse', 'HEAD^{commit}', 'HEAD^{tree}'], 'read HEAD').catch(() => null);
      const [commit, tree] = out?.trim().split('\n') ?? [];
      return commit && tree ? { commit, tree } : null;
    },

    async diffTrees(repo, store, from, to) {
      return run(repo.root, ['diff-tree', '-r', '-z', '-M', '--raw', '--numstat', '--no-abbrev', '--no-ext-diff', '--no-textconv', from, to], 'compare the changes', storeEnv(env, repo, store));
    },

    async restore(repo, store, tree, paths) {
      // Literal pathspecs: a file called `*.ts` names that file alone.
      await run(repo.root, ['restore', `--source=${tree}`, '--worktree', '--no-overlay', '--', ...paths.map((p) => `:(literal,top)${p}`)], 'put the file back', storeEnv(env, repo, store));
    },

    async commit(repo, paths, message) {
      // The person's own settings this time (no SAFE_CONFIG): it is their index and their commit.
      // Literal pathspecs, and never a prompt (an editor, a passphrase) nobody can answer.
      const commitEnv = { ...env, GIT_LITERAL_PATHSPECS: '1', GIT_EDITOR: 'true' };
      const runCommit = async (args: readonly string[], what: string): Promise<string> => {
        const result = await execOffThread(bin, ['-C', repo.root, '-c', 'color.ui=false', ...args], { env: commitEnv, timeoutMs: COMMIT_TIMEOUT_MS, maxBuffer: OUTPUT_MAX_BYTES });
        if (!result.failure) return result.stdout;
        // A hook's own words say why it refused: the last lines of what it printed.
        const said = `${result.stderr}\n${result.stdout}`.trim().split('\n').slice(-6).join('\n');
        if (result.failure.killed) throw new ChangesUnavailable(`git took too long to ${what} (a hook that waits?)`);
        throw new ChangesUnavailable(`git could not ${what}${said ? `: ${said.slice(0, 1000)}` : ''}`);
      };
      // A path that is gone is staged as gone (its removal may be staged already: `git mv`),
      // one that is there as it is; `git add` refuses a path that matches nothing.
      const there = await Promise.all(paths.map((p) => lstat(join(repo.root, p)).then(() => true, () => false)));
      const present = paths.filter((_, i) => there[i]);
      const gone = paths.filter((_, i) => !there[i]);
      if (present.length > 0) await runCommit(['add', '--all', '--', ...present], 'stage the files');
      if (gone.length > 0) await runCommit(['rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...gone], 'stage the removed files');
      await runCommit(['commit', '--quiet', '--only', '--cleanup=whitespace', '-m', message, '--', ...paths], 'commit');
      return (await runCommit(['rev-parse', 'HEAD'], 'read the new commit')).trim();
    },

    async diffTexts(folder, before, after) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const dir = await mkdtemp(join(folder, 'compare-'));
      try {
        const side = async (name: string, text: string | null) => {
          if (text === null) return '/dev/null';
          await writeFile(join(dir, name), text, { mode: 0o600 });
          return name;
        };
        const [a, b] = [await side('before', before), await side('after', after)];
        const config = SAFE_CONFIG.flatMap((setting) => ['-c', setting]);
        const result = await execOffThread(bin, ['-C', dir, ...config, 'diff', '--no-index', '--no-color', '--no-ext-diff', '--no-textconv', '-U3', '--', a, b], { env, timeoutMs: RUN_TIMEOUT_MS, maxBuffer: OUTPUT_MAX_BYTES });
        // `--no-index` exits 1 when the two differ.
        if (result.failure && !(result.failure.code === 1 && result.failure.started)) throw failed('show the file\u2019s changes', result);
        return result.stdout;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async numstatTexts(folder, pairs) {
      const counts: ({ added: number; removed: number } | null)[] = pairs.map(() => ({ added: 0, removed: 0 }));
      if (pairs.length === 0) return counts;
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const dir = await mkdtemp(join(folder, 'compare-'));
      try {
        await Promise.all([mkdir(join(dir, 'a')), mkdir(join(dir, 'b'))]);
        // Each pair under its index: a side that is not there is no file.
        for (const [i, { before, after }] of pairs.entries()) {
          if (before !== null) await writeFile(join(dir, 'a', String(i)), before, { mode: 0o600 });
          if (after !== null) await writeFile(join(dir, 'b', String(i)), after, { mode: 0o600 });
        }
        const config = SAFE_CONFIG.flatMap((setting) => ['-c', setting]);
        const result = await execOffThread(bin, ['-C', dir, ...config, 'diff', '--no-index', '--no-renames', '--numstat', '-z', '--no-ext-diff', '--no-textconv', '--', 'a', 'b'], { env, timeoutMs: RUN_TIMEOUT_MS, maxBuffer: OUTPUT_MAX_BYTES });
        if (result.failure && !(result.failure.code === 1 && result.failure.started)) throw failed('count the changed lines', result);
        // Each file: "added<TAB>removed<TAB>" (`-` for binary), then its two paths, NUL after each.
        const fields = result.stdout.split('\0');
        for (let k = 0; k + 2 < fields.length; k += 3) {
          const [added, removed] = (fields[k] as string).split('\t');
          const side = fields[k + 1] === '/dev/null' ? fields[k + 2] : fields[k + 1];
          const i = Number(side?.slice(2));
          if (!Number.isInteger(i) || i < 0 || i >= pairs.length) continue;
          counts[i] = added === '-' ? null : { added: Number(added), removed: Number(removed) };
        }
        return counts;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async diffBlobs(repo, store, from, to) {
      const runEnv = storeEnv(env, repo, store);
      const empty = from === null || to === null ? await emptyBlob(repo, store) : '';
      return run(repo.root, ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '-U3', from ?? empty, to ?? empty], 'show the file\u2019s changes', runEnv);
    },
  };
}

/** The empty tree (sha1 and sha256 repositories name it differently): what a repository with no commit is compared from. */
export function emptyTreeLike(tree: string): string {
  return tree.length === 64 ? '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321' : '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
}
