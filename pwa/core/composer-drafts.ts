/**
 * What is being written to each session's Claude, kept while the page lives: the timeline's
 * composer reads and writes it, and the review's "Ask Claude" adds quoted lines to it, so a
 * prompt can gather several of them before it is written and sent.
 */
import { INPUT_TEXT_MAX } from '../../protocol/limits.js';

const drafts = new Map<string, string>();

export function draftOf(key: string): string {
  return drafts.get(key) ?? '';
}

export function setDraft(key: string, value: string): void {
  if (value === '') drafts.delete(key);
  else drafts.set(key, value);
}

/**
 * Adds a block to the session's draft, after a blank line; false, leaving it as it was, when
 * the prompt would grow past what one prompt may hold.
 */
export function addToDraft(key: string, block: string): boolean {
  const before = draftOf(key).trimEnd();
  const next = before === '' ? block : `${before}\n\n${block}`;
  if (next.length > INPUT_TEXT_MAX) return false;
  drafts.set(key, next);
  return true;
}
