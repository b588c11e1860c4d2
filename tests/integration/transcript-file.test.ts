import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTranscript, type TranscriptFile } from '../../agent/claude/transcript-file.js';

const base = mkdtempSync(join(tmpdir(), 'pocketmux-transcript-file-'));
const config = join(base, 'claude');
const root = join(config, 'projects');
const project = join(root, '-home-me-proj');
mkdirSync(project, { recursive: true });
const transcript = join(project, 'abc.jsonl');
writeFileSync(transcript, '{"type":"user"}\n');
const outside = join(base, 'secret.txt');
writeFileSync(outside, 'not a transcript\n');

afterAll(() => rmSync(base, { recursive: true, force: true }));

async function outcome(path: string, under = root): Promise<string> {
  const result: TranscriptFile = await openTranscript(path, under);
  if (result.kind === 'open') {
    await result.handle.close();
    return 'open';
  }
  return result.kind === 'refused' ? `refused: ${result.reason}` : 'missing';
}

describe('openTranscript', () => {
  it('refuses a FIFO without opening it (an open would block)', async () => {
    const fifo = join(project, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(await outcome(fifo)).toBe('refused: a FIFO');
  });

});
