/**
 * Review outside git, on real files and real git (`--no-index`): a transcript written as the
 * real CLI writes its edit results (tests/fixtures/claude-code-2.1.332/edit-tool-results/), read
 * through the agent's transcript opener. A revert writes only inside the session's directory:
 * a file or a folder that became a symlink leading out is never written through.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openGit } from '../../agent/changes/git.js';
import { TranscriptChanges } from '../../agent/changes/transcript-changes.js';
import { openTranscript } from '../../agent/claude/transcript-file.js';
import { FileDiffSchema } from '../../protocol/changes.js';
import { tempFolders } from '../support/temp-folders.js';

const folder = tempFolders('pm-transcript-changes-');

function setup() {
  const root = realpathSync(folder());
  const dir = join(root, 'work');
  const projects = join(root, 'projects');
  mkdirSync(dir);
  mkdirSync(join(projects, 'p'), { recursive: true });
  const transcript = join(projects, 'p', 'session.jsonl');
  writeFileSync(transcript, '');
  const compare = join(root, 'data', 'compare');
  const changes = new TranscriptChanges({ git: openGit({ env: process.env }), folder: compare, transcriptOf: () => transcript, open: (p) => openTranscript(p, projects) });
  let n = 0;
  const line = (value: Record<string, unknown>) => writeFileSync(transcript, `${JSON.stringify({ uuid: `u${n++}`, timestamp: '2026-12-03T00:00:00.000Z', ...value })}\n`, { flag: 'a' });
  const prompt = (text: string) => line({ type: 'user', message: { role: 'user', content: text } });
  /** Claude's Edit of `path`, as the CLI records it: the file before, and the call's hunk. */
  const edit = (path: string, before: string | null, after: string, hunk: Record<string, unknown>) => {
    writeFileSync(path, after);
    line({ type: 'user', message: { role: 'user', content: [] }, toolUseResult: before === null ? { type: 'create', filePath: path, content: after, structuredPatch: [], originalFile: null } : { filePath: path, originalFile: before, structuredPatch: [hunk] } });
  };
  return { root, dir, compare, changes, prompt, edit, line };
}

const hunk = (old: string, now: string) => ({ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [`-${old}`, `+${now}`] });

describe('review outside git', () => {
  it('lists each scope\u2019s edits with their counts and diffs, reads only what the transcript adds, and leaves no compare behind', async () => {
    const { dir, compare, changes, prompt, edit } = setup();
    prompt('one');
    edit(join(dir, 'a.txt'), 'alpha\n', 'ALPHA\n', hunk('alpha', 'ALPHA'));
    edit(join(dir, 'new.md'), null, '# new\n', {});
    prompt('two');
    edit(join(dir, 'a.txt'), 'ALPHA\n', 'Alpha!\n', hunk('ALPHA', 'Alpha!'));
    const turn = await changes.changes('k', 'turn', dir);
    expect(turn.files.map((f) => [f.kind, f.path, f.added, f.removed])).toEqual([['modified', 'a.txt', 1, 1]]);
    const session = await changes.changes('k', 'session', dir);
    expect(session).toMatchObject({ source: 'transcript', root: dir, total: { files: 2, added: 2, removed: 1 } });
    expect(session.files.map((f) => [f.kind, f.path])).toEqual([
      ['modified', 'a.txt'],
      ['added', 'new.md'],
    ]);
    const diff = FileDiffSchema.parse(await changes.fileDiff('k', 'session', 'a.txt', dir));
    expect(diff.hunks.flatMap((h) => h.lines.map((l) => `${l.op}${l.text}`))).toEqual(['-alpha', '+Alpha!']);
    // A later turn is read on from where the last read stopped.
    prompt('three');
    edit(join(dir, 'new.md'), '# new\n', '# newer\n', hunk('# new', '# newer'));
    expect((await changes.changes('k', 'turn', dir)).files.map((f) => f.path)).toEqual(['new.md']);
    expect((await changes.changes('k', 'session', dir)).files.map((f) => [f.kind, f.path, f.added])).toEqual([
      ['modified', 'a.txt', 1],
      ['added', 'new.md', 1],
    ]);
    expect(readdirSync(compare)).toEqual([]);
  });

  it('puts a file back and takes that back, and never writes through a symlink that leads out', async () => {
    const { root, dir, changes, prompt, edit } = setup();
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'keep me\n');
    mkdirSync(join(dir, 'sub'));
    prompt('one');
    edit(join(dir, 'a.txt'), 'alpha\n', 'ALPHA\n', hunk('alpha', 'ALPHA'));
    edit(join(dir, 'sub', 'secret.txt'), 'mine\n', 'MINE\n', hunk('mine', 'MINE'));
    edit(join(dir, 'b.txt'), 'beta\n', 'BETA\n', hunk('beta', 'BETA'));

    const done = await changes.revert('k', 'turn', 'a.txt', dir);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('alpha\n');
    await changes.undo('k', done.undo);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('ALPHA\n');
    await expect(changes.undo('k', done.undo)).rejects.toThrow(/nothing to undo/);

    // The folder became a symlink out, and the file a symlink out: neither is written through.
    rmSync(join(dir, 'sub'), { recursive: true });
    symlinkSync(outside, join(dir, 'sub'));
    await expect(changes.revert('k', 'turn', 'sub/secret.txt', dir)).rejects.toThrow(/cannot be put back/);
    rmSync(join(dir, 'b.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'b.txt'));
    await expect(changes.revert('k', 'turn', 'b.txt', dir)).rejects.toThrow(/cannot be put back/);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('keep me\n');
    // Nothing named outside the directory is listed, or put back.
    await expect(changes.revert('k', 'turn', '../outside/secret.txt', dir)).rejects.toThrow(/did not change/);
    expect(existsSync(join(outside, 'a.txt'))).toBe(false);
  });

  it('says why when there is no transcript, and offers no HEAD', async () => {
    const { dir, root } = setup();
    const none = new TranscriptChanges({ git: openGit({ env: process.env }), folder: join(root, 'c'), transcriptOf: () => null, open: (p) => openTranscript(p, root) });
    expect(await none.changes('k', 'turn', dir)).toMatchObject({ source: 'none', reason: expect.stringMatching(/no transcript/) });
    expect(await none.changes('k', 'head', dir)).toMatchObject({ source: 'none', reason: expect.stringMatching(/no HEAD/) });
    const missing = new TranscriptChanges({ git: openGit({ env: process.env }), folder: join(root, 'c'), transcriptOf: () => join(root, 'projects', 'p', 'gone.jsonl'), open: (p) => openTranscript(p, join(root, 'projects')) });
    expect(await missing.changes('k', 'session', dir)).toMatchObject({ source: 'none', reason: expect.stringMatching(/transcript is not there/) });
  });
});
