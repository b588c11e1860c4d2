import type { RawData } from 'ws';
import type { z } from 'zod';
import { safeParse } from '../../protocol/safe-parse.js';

/**
 * A client's message through its channel's schema from protocol/: the parsed message, or
 * null for anything else (binary, not JSON, not in the schema), which the channel answers
 * with its error message and otherwise ignores.
 */
export function parseClientMessage<S extends z.ZodType>(schema: S, data: RawData, isBinary: boolean): z.infer<S> | null {
  if (isBinary) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(String(data));
  } catch {
    return null;
  }
  const parsed = safeParse(schema, raw);
  return parsed.success ? parsed.data : null;
}
