/**
 * Lines picked in a diff, written for Claude: where they are (`path:first-last`, on the new
 * side, or the old one for lines that were removed) and the lines themselves in a fenced block,
 * a diff's `+` and `-` kept when the pick holds a change. Pure.
 */
import type { DiffLine } from '../../protocol/changes.js';

/** Where the picked lines are: `app.ts:3`, `app.ts:3-5`, `app.ts:7-8 (removed)`. */
export function quoteLabel(path: string, lines: readonly DiffLine[]): string {
  const now = lines.flatMap((l) => (l.new !== undefined ? [l.new] : []));
  const side = now.length > 0 ? now : lines.flatMap((l) => (l.old !== undefined ? [l.old] : []));
  if (side.length === 0) return path;
  const first = Math.min(...side);
  const last = Math.max(...side);
  return `${path}:${first === last ? first : `${first}-${last}`}${now.length === 0 ? ' (removed)' : ''}`;
}

export function quoteLines(path: string, lines: readonly DiffLine[]): string {
  const changed = lines.some((l) => l.op !== ' ');
  const body = lines.map((l) => (changed ? `${l.op}${l.text}` : l.text));
  // A fence longer than any run of backticks the lines hold, so none of them ends it.
  const longest = Math.max(2, ...body.map((l) => Math.max(0, ...[...l.matchAll(/`+/g)].map((m) => m[0].length))));
  const fence = '`'.repeat(longest + 1);
  return [`${quoteLabel(path, lines)}`, `${fence}${changed ? 'diff' : ''}`, ...body, fence].join('\n');
}
