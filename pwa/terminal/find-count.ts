/** Sent by the find bar (Esc, ×): the view closes it and gives the terminal its focus back. */
export const FIND_CLOSE_EVENT = 'pm-find-close';

/** How many matches find highlights at most; past this the count says "1000+". */
export const FIND_HIGHLIGHT_LIMIT = 1000;

/** What the search addon reports after each search (`onDidChangeResults`). */
export interface FindResults {
  /** The current match, from 0; -1 when there is none, or it lies past the highlight limit. */
  resultIndex: number;
  resultCount: number;
}

/**
 * The find bar's count: "3 of 12", "No results", "1000+ matches"; nothing before a search or
 * for an empty query.
 */
export function matchCountText(query: string, results: FindResults | null, limit = FIND_HIGHLIGHT_LIMIT): string {
  if (!query || !results) return '';
  const { resultIndex, resultCount } = results;
  if (resultCount <= 0) return 'No results';
  const total = resultCount >= limit ? `${limit}+` : String(resultCount);
  if (resultIndex < 0) return `${total} ${resultCount === 1 ? 'match' : 'matches'}`;
  return `${resultIndex + 1} of ${total}`;
}
