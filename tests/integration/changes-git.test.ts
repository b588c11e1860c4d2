/**
 * Review's record of a session's changes, on real git repositories: each scope lists exactly
 * what changed since its start, every kind of change is told for what it is, and nothing the
 * person sees in the repository moves (status, index, stash, refs, objects, files).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANGES_LIMITS, type ChangesView, ChangesViewSchema, FileDiffSchema } from '../../protocol/changes.js';
import { openGit } from '../../agent/changes/git.js';
import { SessionChanges } from '../../agent/changes/session-changes.js';
import { createLogger } from '../../agent/util/log.js';
import { tempFolders } from '../support/temp-folders.js';
import { git } from '../support/git.js';

const log = createLogger({ stderr: false });
const folder = tempFolders('pm-changes-');

/** A repository with a commit: a text file, a file to rename, one to delete, a symlink, a binary file, a script. */
function repository(): string {
  const dir = join(folder(), 'repo');
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'app.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
  writeFileSync(join(dir, 'old-name.md'), '# notes\n\nkept as it is\n');
  writeFileSync(join(dir, 'gone.txt'), 'to be deleted\n');
  writeFileSync(join(dir, 'logo.bin'), Buffer.from([0, 1, 2, 3, 255, 0]));
  writeFileSync(join(dir, 'run.sh'), 'echo hi\n');
  writeFileSync(join(dir, '.gitignore'), 'build/\n');
  symlinkSync('app.ts', join(dir, 'link'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

/** Everything of the repository a person could see change: status, index, stash, refs, the object store's files, HEAD's log. */
function repositoryState(dir: string): string {
  const objects = (sub = ''): string[] =>
    readdirSync(join(dir, '.git', 'objects', sub), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? objects(join(sub, e.name)) : [join(sub, e.name)]));
  return JSON.stringify({
    status: git(dir, 'status', '--porcelain=v2', '-z', '--untracked-files=all'),
    index: readFileSync(join(dir, '.git', 'index')).toString('base64'),
    stash: git(dir, 'stash', 'list'),
    refs: git(dir, 'for-each-ref'),
    objects: objects().sort(),
    gitFiles: readdirSync(join(dir, '.git')).sort(),
  });
}

/** The agent's git runs with this HOME: its identity and no settings of this machine's. */
const home = folder();
writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Pocket Tester\n\temail = tester@example.com\n');
const agentEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };

function service(data = folder()): SessionChanges {
  const changes = new SessionChanges(openGit({ env: agentEnv }), join(data, 'changes', 'sessions.json'), log);
  changes.load();
  return changes;
}

const byPath = (view: ChangesView) => Object.fromEntries(view.files.map((f) => [f.path, f]));

describe('changes of a session in a git repository', () => {
  it('lists this turn, this session and HEAD, each exactly, and leaves the repository as it was', async () => {
    const dir = repository();
    const changes = service();
    // Something the person had going before Claude started: not Claude's, not this session's.
    writeFileSync(join(dir, 'app.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n// mine\n');
    git(dir, 'stash', 'push', '-q', '-m', 'person');
    writeFileSync(join(dir, 'draft.txt'), 'the person\u2019s draft\n');
    await changes.sessionStarted('t1', dir);

    // Turn one: Claude edits a line and writes a new file.
    await changes.turnStarted('t1', dir);
    writeFileSync(join(dir, 'app.ts'), 'const a = 1;\nconst b = 20;\nconst c = 3;\n');
    writeFileSync(join(dir, 'added.ts'), 'export const x = 1;\n');

    // Turn two: a rename, a delete, a binary edit, a mode change, a symlink turned to a file, a file in an ignored folder.
    const before = repositoryState(dir);
    await changes.turnStarted('t1', dir);
    expect(repositoryState(dir)).toBe(before);
    renameSync(join(dir, 'old-name.md'), join(dir, 'new-name.md'));
    unlinkSync(join(dir, 'gone.txt'));
    writeFileSync(join(dir, 'logo.bin'), Buffer.from([0, 9, 9, 9, 255, 0]));
    chmodSync(join(dir, 'run.sh'), 0o755);
    unlinkSync(join(dir, 'link'));
    writeFileSync(join(dir, 'link'), 'now a file\n');
    mkdirSync(join(dir, 'build'));
    writeFileSync(join(dir, 'build', 'out.js'), 'ignored\n');

    const stateBefore = repositoryState(dir);
    const turn = ChangesViewSchema.parse(await changes.changes('t1', 'turn', null));
    const session = ChangesViewSchema.parse(await changes.changes('t1', 'session', null));
    const head = ChangesViewSchema.parse(await changes.changes('t1', 'head', null));
    expect(repositoryState(dir)).toBe(stateBefore);

    expect(turn.source).toBe('git');
    expect(turn.root).toBe(dir);
    expect(byPath(turn)).toEqual({
      'new-name.md': { path: 'new-name.md', from: 'old-name.md', kind: 'renamed', before: 'file', after: 'file', added: 0, removed: 0, binary: false },
      'gone.txt': { path: 'gone.txt', kind: 'deleted', before: 'file', added: 0, removed: 1, binary: false },
      'logo.bin': { path: 'logo.bin', kind: 'modified', before: 'file', after: 'file', added: null, removed: null, binary: true },
      'run.sh': { path: 'run.sh', kind: 'modified', before: 'file', after: 'executable', added: 0, removed: 0, binary: false },
      link: { path: 'link', kind: 'type-changed', before: 'symlink', after: 'file', added: 1, removed: 1, binary: false },
    });
    expect(turn.total).toEqual({ files: 5, added: 1, removed: 2 });
    expect(turn.since).toBeGreaterThan(0);

    // The session: both turns, and not the person's draft, which was there before it started.
    expect(Object.keys(byPath(session)).sort()).toEqual(['added.ts', 'app.ts', 'gone.txt', 'link', 'logo.bin', 'new-name.md', 'run.sh']);
    expect(byPath(session)['app.ts']).toMatchObject({ kind: 'modified', added: 1, removed: 1 });
    expect(byPath(session)['added.ts']).toMatchObject({ kind: 'added', after: 'file', added: 1, removed: 0 });
    // HEAD: everything since the commit, the draft too; never the ignored build output.
    expect(Object.keys(byPath(head)).sort()).toEqual(['added.ts', 'app.ts', 'draft.txt', 'gone.txt', 'link', 'logo.bin', 'new-name.md', 'run.sh']);
    expect(head.head).toBe(git(dir, 'rev-parse', 'HEAD').trim());
    expect(head.since).toBeUndefined();

    const diff = FileDiffSchema.parse(await changes.fileDiff('t1', 'session', 'app.ts', null));
    expect(diff.hunks).toEqual([
      {
        oldStart: 1,
        oldLines: 3,
        newStart: 1,
        newLines: 3,
        section: '',
        lines: [
          { op: ' ', text: 'const a = 1;', old: 1, new: 1 },
          { op: '-', text: 'const b = 2;', old: 2 },
          { op: '+', text: 'const b = 20;', new: 2 },
          { op: ' ', text: 'const c = 3;', old: 3, new: 3 },
        ],
      },
    ]);
    const added = await changes.fileDiff('t1', 'session', 'added.ts', null);
    expect(added.hunks[0]?.lines).toEqual([{ op: '+', text: 'export const x = 1;', new: 1 }]);
    const deleted = await changes.fileDiff('t1', 'turn', 'gone.txt', null);
    expect(deleted.hunks[0]?.lines).toEqual([{ op: '-', text: 'to be deleted', old: 1 }]);
    // A rename is found by either name; a binary file has no lines to show.
    expect((await changes.fileDiff('t1', 'turn', 'old-name.md', null)).change.path).toBe('new-name.md');
    expect((await changes.fileDiff('t1', 'turn', 'logo.bin', null)).hunks).toEqual([]);
    await expect(changes.fileDiff('t1', 'turn', 'app.ts', null)).rejects.toThrow(/did not change in this scope/);
    expect(repositoryState(dir)).toBe(stateBefore);
    await changes.dispose();
  });

  it('shows hostile file names as they are, and a huge one without reading it', async () => {
    const dir = repository();
    const data = folder();
    const changes = service(data);
    await changes.turnStarted('t2', dir);
    const names = ['line\nbreak.txt', '-rf', 'bidi\u202Eexe.txt', 'sp ace & $(x).txt'];
    for (const name of names) writeFileSync(join(dir, name), 'x\n');
    const big = join(dir, 'huge.log');
    writeFileSync(big, Buffer.alloc(CHANGES_LIMITS.snapshotFileBytes + 1, 'a'));
    const view = await changes.changes('t2', 'turn', null);
    expect(view.files.map((f) => f.path).sort()).toEqual([...names].sort());
    expect(view.unrecorded).toEqual(['huge.log']);
    for (const name of names) expect((await changes.fileDiff('t2', 'turn', name, null)).hunks[0]?.lines).toEqual([{ op: '+', text: 'x', new: 1 }]);
    // The snapshot never copied it: pocketmux's objects stay far smaller than the file.
    const stored = (d: string): number => readdirSync(d, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? stored(join(d, e.name)) : statSync(join(d, e.name)).size), 0);
    expect(stored(data)).toBeLessThan(CHANGES_LIMITS.snapshotFileBytes / 8);
    rmSync(big);
    await changes.dispose();
  });

  it('cuts a long diff into pages and long lines to their limit', async () => {
    const dir = repository();
    const changes = service();
    await changes.turnStarted('t3', dir);
    const lines = Array.from({ length: CHANGES_LIMITS.diffLines + 10 }, (_, i) => `line ${i}`);
    lines[0] = 'y'.repeat(CHANGES_LIMITS.lineChars + 5);
    writeFileSync(join(dir, 'long.txt'), `${lines.join('\n')}\n`);
    const first = await changes.fileDiff('t3', 'turn', 'long.txt', null);
    expect(first.lines).toBe(lines.length);
    expect(first.next).toBe(CHANGES_LIMITS.diffLines);
    expect(first.hunks[0]?.lines[0]).toEqual({ op: '+', text: 'y'.repeat(CHANGES_LIMITS.lineChars), new: 1, cut: true });
    const rest = await changes.fileDiff('t3', 'turn', 'long.txt', null, first.next);
    expect(rest.next).toBeUndefined();
    expect(rest.hunks[0]?.lines.map((l) => l.text)).toEqual(lines.slice(CHANGES_LIMITS.diffLines));
    expect(rest.hunks[0]?.lines[0]?.new).toBe(CHANGES_LIMITS.diffLines + 1);
    await changes.dispose();
  });

  it('says why when it cannot tell: a plain directory, a start not recorded', async () => {
    const changes = service();
    const plain = folder();
    await changes.turnStarted('t4', plain);
    expect(await changes.changes('t4', 'turn', plain)).toMatchObject({ source: 'none', reason: 'not in a git repository', files: [] });
    const dir = repository();
    expect(await changes.changes('t5', 'turn', dir)).toMatchObject({ source: 'none', reason: expect.stringMatching(/start of this turn was not recorded/) });
    // HEAD needs no start.
    writeFileSync(join(dir, 'app.ts'), 'changed\n');
    expect((await changes.changes('t5', 'head', dir)).files.map((f) => f.path)).toEqual(['app.ts']);
    await changes.dispose();
  });

  it('works in a repository with no commit yet and in a linked work tree', async () => {
    const changes = service();
    const fresh = join(folder(), 'fresh');
    mkdirSync(fresh);
    git(fresh, 'init', '-q');
    writeFileSync(join(fresh, 'a.txt'), 'a\n');
    const head = await changes.changes('f', 'head', fresh);
    expect(head.head).toBeUndefined();
    expect(head.files).toEqual([{ path: 'a.txt', kind: 'added', after: 'file', added: 1, removed: 0, binary: false }]);

    const dir = repository();
    const linked = join(folder(), 'linked');
    git(dir, 'worktree', 'add', '-q', linked);
    await changes.turnStarted('w', linked);
    writeFileSync(join(linked, 'app.ts'), 'in the linked tree\n');
    const view = await changes.changes('w', 'turn', null);
    expect(view.root).toBe(linked);
    expect(view.files.map((f) => f.path)).toEqual(['app.ts']);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    await changes.dispose();
  });

  it('tells a submodule moved to another commit from a file', async () => {
    const lib = repository();
    const dir = repository();
    git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'lib');
    git(dir, 'commit', '-q', '-m', 'with lib');
    const changes = service();
    await changes.turnStarted('s', dir);
    const sub = join(dir, 'lib');
    writeFileSync(join(sub, 'app.ts'), 'moved on\n');
    git(sub, 'commit', '-q', '-am', 'next');
    const view = await changes.changes('s', 'turn', null);
    const commits = { before: git(dir, 'rev-parse', 'HEAD:lib').trim(), after: git(sub, 'rev-parse', 'HEAD').trim() };
    expect(view.files).toEqual([{ path: 'lib', kind: 'modified', before: 'submodule', after: 'submodule', added: null, removed: null, binary: false, commits }]);
    expect((await changes.fileDiff('s', 'turn', 'lib', null)).hunks).toEqual([]);
    await changes.dispose();
  });

  it('puts a file back as it was at the turn\u2019s start, every kind of change, and takes it back on undo', async () => {
    const dir = repository();
    const changes = service();
    writeFileSync(join(dir, '*.ts'), 'a file named star\n');
    await changes.turnStarted('r', dir);
    const start = (name: string) => readFileSync(join(dir, name)).toString('base64');
    const originals = Object.fromEntries(['app.ts', 'old-name.md', 'gone.txt', 'logo.bin', 'run.sh', '*.ts'].map((n) => [n, start(n)]));
    writeFileSync(join(dir, 'app.ts'), 'edited\n');
    writeFileSync(join(dir, 'added.ts'), 'new\n');
    unlinkSync(join(dir, 'gone.txt'));
    renameSync(join(dir, 'old-name.md'), join(dir, 'new-name.md'));
    writeFileSync(join(dir, 'logo.bin'), Buffer.from([9, 9, 0, 9]));
    chmodSync(join(dir, 'run.sh'), 0o755);
    writeFileSync(join(dir, '*.ts'), 'changed too\n');
    const person = repositoryState(dir);
    const edited = Object.fromEntries(['app.ts', 'logo.bin', '*.ts'].map((n) => [n, start(n)]));

    const reverted: Record<string, string> = {};
    for (const path of ['app.ts', 'added.ts', 'gone.txt', 'new-name.md', 'logo.bin', 'run.sh', '*.ts']) {
      const done = await changes.revert('r', 'turn', path);
      expect(done.undo).toMatch(/^[0-9a-f]{24}$/);
      reverted[path] = done.undo;
    }
    // Each is as it was; `*.ts` named one file, not a pattern; the rename is undone on both names.
    for (const [name, content] of Object.entries(originals)) expect(start(name), name).toBe(content);
    expect(() => statSync(join(dir, 'added.ts'))).toThrow();
    expect(() => statSync(join(dir, 'new-name.md'))).toThrow();
    expect(statSync(join(dir, 'run.sh')).mode & 0o111).toBe(0);
    expect((await changes.changes('r', 'turn', null)).files).toEqual([]);
    // Only the work tree moved: the person's index, stash and refs are as they were.
    const state = JSON.parse(repositoryState(dir)) as Record<string, unknown>;
    const before = JSON.parse(person) as Record<string, unknown>;
    expect([state.index, state.stash, state.refs, state.objects]).toEqual([before.index, before.stash, before.refs, before.objects]);

    // Undo puts each back as it was just before.
    for (const undo of Object.values(reverted).reverse()) await changes.undo('r', undo);
    for (const [name, content] of Object.entries(edited)) expect(start(name), name).toBe(content);
    expect(readFileSync(join(dir, 'added.ts'), 'utf8')).toBe('new\n');
    expect(statSync(join(dir, 'new-name.md')).isFile()).toBe(true);
    expect(() => statSync(join(dir, 'old-name.md'))).toThrow();
    expect(repositoryState(dir)).toBe(person);
    await expect(changes.undo('r', reverted['app.ts'] as string)).rejects.toThrow(/nothing to undo/);
    await expect(changes.revert('r', 'turn', 'never-changed.txt')).rejects.toThrow(/did not change in this scope/);
    await changes.dispose();
  });

  it('never writes through a folder that became a symlink to elsewhere', async () => {
    const dir = repository();
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'util.ts'), 'inside\n');
    const changes = service();
    await changes.turnStarted('s', dir);
    const elsewhere = folder();
    writeFileSync(join(elsewhere, 'util.ts'), 'outside, must stay\n');
    rmSync(join(dir, 'lib'), { recursive: true });
    symlinkSync(elsewhere, join(dir, 'lib'));
    const view = await changes.changes('s', 'turn', null);
    expect(view.files.map((f) => [f.path, f.kind])).toEqual([['lib', 'added'], ['lib/util.ts', 'deleted']]);
    await changes.revert('s', 'turn', 'lib/util.ts').catch(() => undefined);
    expect(readFileSync(join(elsewhere, 'util.ts'), 'utf8')).toBe('outside, must stay\n');
    await changes.dispose();
  });

  it('commits the files picked, as the person would, and leaves everything else as it was', async () => {
    const dir = repository();
    const changes = service();
    writeFileSync(join(dir, 'staged-before.txt'), 'the person staged this\n');
    git(dir, 'add', 'staged-before.txt');
    writeFileSync(join(dir, 'app.ts'), 'committed from the phone\n');
    renameSync(join(dir, 'old-name.md'), join(dir, 'new-name.md'));
    writeFileSync(join(dir, '*.ts'), 'a new file with a glob for a name\n');
    writeFileSync(join(dir, 'run.sh'), 'echo left alone\n');
    const message = 'Read the port from the environment\n\n#42: and keep\ta tab; $(no) `shell`';
    const done = await changes.commit('c', ['app.ts', 'new-name.md', '*.ts'], message, dir);
    expect(done).toEqual({ commit: git(dir, 'rev-parse', 'HEAD').trim(), files: 3 });
    expect(git(dir, 'log', '-1', '--format=%B').trimEnd()).toBe(message);
    expect(git(dir, 'log', '-1', '--format=%an <%ae>').trim()).toBe('Pocket Tester <tester@example.com>');
    expect(git(dir, 'show', '--name-status', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(['A\t*.ts', 'M\tapp.ts', 'R100\told-name.md\tnew-name.md']);
    // What was not picked is as it was: the staged file still staged, the edited one not staged.
    expect(git(dir, 'status', '--porcelain')).toBe(' M run.sh\nA  staged-before.txt\n');
    await expect(changes.commit('c', ['never-changed.txt'], 'x', dir)).rejects.toThrow(/has no change to commit/);

    // A hook that refuses says why, and nothing is committed.
    writeFileSync(join(dir, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\necho "lint: 2 problems in run.sh" >&2\nexit 1\n', { mode: 0o755 });
    const head = git(dir, 'rev-parse', 'HEAD');
    await expect(changes.commit('c', ['run.sh'], 'tidy', dir)).rejects.toThrow(/could not commit: lint: 2 problems in run\.sh/);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    await changes.dispose();
  });

  it('reads a file of the session for the file view, and nothing outside it', async () => {
    const dir = repository();
    const changes = service();
    const outside = folder();
    writeFileSync(join(outside, 'secret.txt'), 'not for the phone\n');
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'guide.md'), '# Guide\n');
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'leak.txt'));
    symlinkSync(outside, join(dir, 'elsewhere'));
    symlinkSync('docs/guide.md', join(dir, 'guide-link.md'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    writeFileSync(join(dir, 'big.log'), Buffer.alloc(CHANGES_LIMITS.fileBytes + 10, 'x'));

    expect(await changes.readFile('f', 'app.ts', join(dir, 'docs'))).toEqual({ path: 'app.ts', size: 39, text: 'const a = 1;\nconst b = 2;\nconst c = 3;\n', truncated: false });
    // A link that stays inside is followed; the binary file is named with its size, not sent.
    expect((await changes.readFile('f', 'guide-link.md', dir)).text).toBe('# Guide\n');
    expect(await changes.readFile('f', 'logo.bin', dir)).toEqual({ path: 'logo.bin', size: 6, text: null, truncated: false });
    const big = await changes.readFile('f', 'big.log', dir);
    expect([big.size, big.text?.length, big.truncated]).toEqual([CHANGES_LIMITS.fileBytes + 10, CHANGES_LIMITS.fileBytes, true]);
    const refused: [string, RegExp][] = [
      ['../outside.txt', /leads out of|is not there/],
      [join(outside, 'secret.txt'), /not a path inside/],
      ['leak.txt', /leads out of the session/],
      ['elsewhere/secret.txt', /leads out of the session/],
      ['.git/config', /git\u2019s own files/],
      ['docs/../.git/HEAD', /git\u2019s own files/],
      ['pipe', /not a file that can be shown/],
      ['docs', /not a file that can be shown/],
      ['nothing-here.txt', /is not there/],
      ['a\0b', /not a path inside/],
    ];
    for (const [path, why] of refused) await expect(changes.readFile('f', path, dir), path).rejects.toThrow(why);
    await changes.dispose();
  });

  it('keeps the starts across a restart, and forgets a session with its snapshots', async () => {
    const dir = repository();
    const data = folder();
    const file = join(data, 'changes', 'sessions.json');
    const first = new SessionChanges(openGit({ env: agentEnv }), file, log);
    first.load();
    await first.turnStarted('k', dir);
    writeFileSync(join(dir, 'app.ts'), 'edited\n');
    await first.dispose();
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = new SessionChanges(openGit({ env: agentEnv }), file, log);
    second.load();
    expect((await second.changes('k', 'turn', null)).files.map((f) => f.path)).toEqual(['app.ts']);
    const folders = () => readdirSync(join(data, 'changes')).filter((n) => /^[0-9a-f]{16}$/.test(n));
    expect(folders()).toHaveLength(1);
    second.forget('k');
    await second.dispose();
    expect(folders()).toEqual([]);
    expect((await second.changes('k', 'turn', dir)).source).toBe('none');
  });
});
