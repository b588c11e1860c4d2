import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Logger } from '../util/log.js';
import { openerWithin, projectsDir } from './transcript-file.js';
import { TranscriptFollowers } from './transcript-followers.js';
import type { ParsedLine } from './transcript-parser.js';
import { parseTranscriptLine } from './transcript-parser.js';
import { TranscriptReader } from './transcript-reader.js';

/** Where an agent CLI keeps its conversation logs, and how one of their lines is read. */
export interface ConversationFolder {
  root: string;
  parseLine: (line: string) => ParsedLine;
}

/** Claude Code's: `<config dir>/projects/`, each line a transcript line. */
export function claudeConversations(claudeConfigDir: string): ConversationFolder {
  return { root: projectsDir(claudeConfigDir), parseLine: parseTranscriptLine };
}

function within(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The agent's one reader per conversation log: one the status monitor follows while a
 * timeline shows it is read once. Each keeps at most `maxEntries` entries. A path is read as
 * the log of the folder it lies in (Claude's transcripts, Codex's rollouts), and only inside
 * one of them: any other path is refused by the first folder's opener.
 */
export function openTranscripts(folders: readonly [ConversationFolder, ...ConversationFolder[]], maxEntries: number, log: Logger): TranscriptFollowers {
  const opened = folders.map((folder) => ({ folder, open: openerWithin(folder.root, log) }));
  const first = opened[0] as (typeof opened)[number];
  return new TranscriptFollowers((path) => {
    const { folder, open } = opened.find((o) => within(o.folder.root, path)) ?? first;
    return new TranscriptReader(path, { maxEntries, open, parseLine: folder.parseLine });
  });
}
