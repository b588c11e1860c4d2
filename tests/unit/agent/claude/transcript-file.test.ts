
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transcriptTree } from '../../../support/transcript-tree.js';

const { base, config, root, project, transcript, outside, outcome, remove } = transcriptTree();

afterAll(remove);

describe('openTranscript', () => {
  it('opens a regular file inside the projects folder', async () => {
    expect(await outcome(transcript)).toBe('open');
  });

  it('reports a file that is not there (yet) as missing, not refused', async () => {
    expect(await outcome(join(project, 'later.jsonl'))).toBe('missing');
    expect(await outcome(join(root, 'no-such-project', 'x.jsonl'))).toBe('missing');
    expect(await outcome(join(base, 'no-config', 'projects', 'p', 'x.jsonl'), join(base, 'no-config', 'projects'))).toBe('missing');
  });

  it('refuses directories, sockets and links', async () => {
    mkdirSync(join(project, 'dir.jsonl'));
    expect(await outcome(join(project, 'dir.jsonl'))).toBe('refused: a directory');
    symlinkSync(transcript, join(project, 'link-inside.jsonl'));
    expect(await outcome(join(project, 'link-inside.jsonl'))).toBe('refused: a symbolic link');
    symlinkSync('/dev/zero', join(project, 'zero.jsonl'));
    expect(await outcome(join(project, 'zero.jsonl'))).toBe('refused: a symbolic link');
  });

  it('refuses anything outside the projects folder, however it is spelled', async () => {
    for (const path of ['/dev/zero', '/etc/passwd', outside, join(root, '..', 'secret.txt'), join(project, '..', '..', '..', 'secret.txt'), root]) {
      expect(await outcome(path), path).toMatch(/^refused: outside /);
    }
    expect(await outcome('projects/-home-me-proj/abc.jsonl')).toBe('refused: not an absolute path');
    expect(await outcome(`${transcript}\0.jsonl`)).toBe('refused: the path holds a NUL byte');
  });

  it('refuses a folder inside that links out, and accepts a config folder that is itself a link', async () => {
    mkdirSync(join(base, 'elsewhere'));
    writeFileSync(join(base, 'elsewhere', 'x.jsonl'), '{}\n');
    symlinkSync(join(base, 'elsewhere'), join(root, 'escape'));
    expect(await outcome(join(root, 'escape', 'x.jsonl'))).toMatch(/^refused: reached through a symbolic link/);

    // ~/.claude kept in a dotfiles folder and linked into place is a common setup.
    symlinkSync(config, join(base, 'linked-claude'));
    const linkedRoot = join(base, 'linked-claude', 'projects');
    expect(await outcome(join(linkedRoot, '-home-me-proj', 'abc.jsonl'), linkedRoot)).toBe('open');
  });
});
