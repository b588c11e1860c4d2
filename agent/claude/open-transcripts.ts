import type { Logger } from '../util/log.js';
import { transcriptOpener } from './transcript-file.js';
import { TranscriptFollowers } from './transcript-followers.js';
import { TranscriptReader } from './transcript-reader.js';

/**
 * The agent's one reader per transcript file: one the status monitor follows for Esc while a
 * timeline shows it is read once. Each keeps at most `maxEntries` entries.
 */
export function openTranscripts(claudeConfigDir: string, maxEntries: number, log: Logger): TranscriptFollowers {
  const open = transcriptOpener(claudeConfigDir, log);
  return new TranscriptFollowers((path) => new TranscriptReader(path, { maxEntries, open }));
}
