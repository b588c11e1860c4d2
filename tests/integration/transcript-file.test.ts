import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transcriptTree } from '../support/transcript-tree.js';

const { project, outcome, remove } = transcriptTree();

afterAll(remove);

describe('openTranscript', () => {
  it('refuses a FIFO without opening it (an open would block)', async () => {
    const fifo = join(project, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(await outcome(fifo)).toBe('refused: a FIFO');
  });

});
