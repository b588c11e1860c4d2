/**
 * Which words of a changed line changed: a removed line and the added line that replaced it
 * are split into words, spaces and marks, and the tokens not common to both are marked. Pure,
 * and bounded: past `WORD_DIFF_MAX_TOKENS` a side, only the common start and end are found.
 */

export interface Span {
  text: string;
  changed: boolean;
}

/** Tokens a side above which the middle is not matched token by token (the work grows as their product). */
export const WORD_DIFF_MAX_TOKENS = 400;

const TOKEN = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;

function tokens(line: string): string[] {
  return line.match(TOKEN) ?? [];
}

/** Joins neighbouring tokens of the same kind, so a line is drawn in as few spans as it can. */
function spans(parts: readonly string[], changed: readonly boolean[]): Span[] {
  const out: Span[] = [];
  parts.forEach((text, i) => {
    const last = out.at(-1);
    const isChanged = changed[i] === true;
    if (last && last.changed === isChanged) last.text += text;
    else out.push({ text, changed: isChanged });
  });
  return out;
}

/** The words of `before` and `after`, each marked changed or not. */
export function wordDiff(before: string, after: string): { before: Span[]; after: Span[] } {
  const a = tokens(before);
  const b = tokens(after);
  const changedA = a.map(() => true);
  const changedB = b.map(() => true);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) {
    changedA[start] = false;
    changedB[start] = false;
    start++;
  }
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
    changedA[endA] = false;
    changedB[endB] = false;
  }
  const n = endA - start;
  const m = endB - start;
  if (n > 0 && m > 0 && n <= WORD_DIFF_MAX_TOKENS && m <= WORD_DIFF_MAX_TOKENS) {
    // Longest common subsequence of the middles, read back from the end.
    const width = m + 1;
    const table = new Uint16Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i * width + j] = a[start + i] === b[start + j] ? (table[(i + 1) * width + j + 1] as number) + 1 : Math.max(table[(i + 1) * width + j] as number, table[i * width + j + 1] as number);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[start + i] === b[start + j]) {
        changedA[start + i] = false;
        changedB[start + j] = false;
        i++;
        j++;
      } else if ((table[(i + 1) * width + j] as number) >= (table[i * width + j + 1] as number)) i++;
      else j++;
    }
  }
  // A space left standing alone between changed words reads as changed too.
  for (const [parts, changed] of [
    [a, changedA],
    [b, changedB],
  ] as const) {
    for (let k = 1; k < parts.length - 1; k++) {
      if (!changed[k] && /^\s+$/.test(parts[k] as string) && changed[k - 1] && changed[k + 1]) changed[k] = true;
    }
  }
  return { before: spans(a, changedA), after: spans(b, changedB) };
}
