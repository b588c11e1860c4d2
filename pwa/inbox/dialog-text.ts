/** A dialog's words and screen as its card shows them. */

/** The text's paragraphs, as Claude's dialog separates them with blank lines; none for blank text. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * A screen's lines without the indent they all share (Claude draws its dialogs two columns
 * in): on a phone every column counts.
 */
export function withoutSharedIndent(screen: string): string {
  const lines = screen.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)?.[0].length ?? 0);
  const shared = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(Math.min(shared, /^ */.exec(l)?.[0].length ?? 0))).join('\n');
}
