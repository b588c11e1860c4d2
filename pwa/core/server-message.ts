import { safeParse } from '../../protocol/safe-parse.js';

/** A schema from `protocol/`, as far as parsing needs it. */
export interface MessageSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { message: string } };
}

const rejected = new Map<string, number>();

/** How many messages from `channel` failed their schema since the page loaded. */
export function rejectedMessageCount(channel: string): number {
  return rejected.get(channel) ?? 0;
}

/**
 * A message from one of the agent's live channels, parsed with the schema the agent's contract
 * declares; null for one that is not JSON text or fails it (a broken or newer agent). Such a
 * message is ignored and counted; only the first of each channel is logged, so a stream of
 * them cannot flood the console.
 */
export function parseServerMessage<T>(schema: MessageSchema<T>, data: unknown, channel: string): T | null {
  if (typeof data !== 'string') return reject(channel, 'not text');
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return reject(channel, 'not JSON');
  }
  const parsed = safeParse(schema, value);
  return parsed.success ? parsed.data : reject(channel, parsed.error.message);
}

function reject(channel: string, why: string): null {
  const count = rejectedMessageCount(channel) + 1;
  rejected.set(channel, count);
  if (count === 1) console.warn(`pocketmux: ignored a ${channel} message this app does not understand (later ones are only counted):`, why);
  return null;
}
