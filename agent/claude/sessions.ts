import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type ClaudeSessionSummary, isClaudeSessionId } from '../../protocol/api.js';
import { firstLine } from '../../protocol/timeline.js';
import { openTranscript, projectsDir } from './transcript-file.js';
import { parseTranscriptLine } from './transcript-parser.js';

/** Claude Code's project folder name for a directory: every character outside [A-Za-z0-9] becomes `-`. */
export function projectSlug(dir: string): string {
  return dir.replace(/[^A-Za-z0-9]/g, '-');
}

/** Only the head of a transcript is read for its first prompt: lines can be very long. */
const HEAD_BYTES = 256 * 1024;

/** Opened by the transcript rule: a file swapped for a FIFO after the listing cannot block. */
async function firstPrompt(path: string, root: string): Promise<string | null> {
  const file = await openTranscript(path, root);
  if (file.kind !== 'open') return null;
  const handle = file.handle;
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    const lines = buf.subarray(0, bytesRead).toString('utf8').split('\n');
    // The last piece may be cut short; it is only used if it parses.
    for (const line of lines) {
      const parsed = parseTranscriptLine(line);
      if (parsed.status !== 'kept' || parsed.sidechain) continue;
      const prompt = parsed.records.find((r) => r.kind === 'prompt');
      if (prompt && prompt.kind === 'prompt') return firstLine(prompt.text, 160);
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** The past Claude sessions started in `dir`, newest first, for resuming from the PWA. */
export async function listClaudeSessions(configDir: string, dir: string, limit = 50): Promise<ClaudeSessionSummary[]> {
  const folder = join(configDir, 'projects', projectSlug(dir));
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const found: { id: string; path: string; mtime: number; size: number }[] = [];
  for (const name of names) {
    const m = /^(.+)\.jsonl$/.exec(name);
    // Only sessions claude can resume: named by their UUID.
    if (!m || !isClaudeSessionId(m[1] as string)) continue;
    try {
      const info = await stat(join(folder, name));
      if (info.isFile()) found.push({ id: m[1] as string, path: join(folder, name), mtime: info.mtimeMs, size: info.size });
    } catch {
      // Removed meanwhile.
    }
  }
  found.sort((a, b) => b.mtime - a.mtime);
  const out: ClaudeSessionSummary[] = [];
  for (const f of found.slice(0, limit)) {
    out.push({
      id: f.id,
      modifiedAt: new Date(f.mtime).toISOString(),
      firstPrompt: await firstPrompt(f.path, projectsDir(configDir)).catch(() => null),
      sizeBytes: f.size,
    });
  }
  return out;
}
