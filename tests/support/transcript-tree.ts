import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTranscript, type TranscriptFile } from '../../agent/claude/transcript-file.js';

/**
 * A Claude config folder with one project and one transcript, and a file beside it that is no
 * transcript: what the transcript opener is tried against. `outcome` says what opening a path
 * gave, closing what it opened.
 */
export function transcriptTree() {
  const base = mkdtempSync(join(tmpdir(), 'pocketmux-transcript-file-'));
  const config = join(base, 'claude');
  const root = join(config, 'projects');
  const project = join(root, '-home-me-proj');
  mkdirSync(project, { recursive: true });
  const transcript = join(project, 'abc.jsonl');
  writeFileSync(transcript, '{"type":"user"}\n');
  const outside = join(base, 'secret.txt');
  writeFileSync(outside, 'not a transcript\n');
  const outcome = async (path: string, under = root): Promise<string> => {
    const result: TranscriptFile = await openTranscript(path, under);
    if (result.kind === 'open') {
      await result.handle.close();
      return 'open';
    }
    return result.kind === 'refused' ? `refused: ${result.reason}` : 'missing';
  };
  return { base, config, root, project, transcript, outside, outcome, remove: () => rmSync(base, { recursive: true, force: true }) };
}
