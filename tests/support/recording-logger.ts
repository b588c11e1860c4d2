import type { Logger } from '../../agent/util/log.js';

/** A logger that keeps what it is given, to read the lines back. */
export function recordingLogger(): Logger & { lines: { message: string; fields: Record<string, unknown> }[] } {
  const lines: { message: string; fields: Record<string, unknown> }[] = [];
  const keep = (message: string, fields: Record<string, unknown> = {}) => {
    lines.push({ message, fields });
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep, flush: async () => {} };
}
