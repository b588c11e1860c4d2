/** Sent by the find bar (Esc, ×): the view closes it and gives the terminal its focus back. */
export const FIND_CLOSE_EVENT = 'pm-find-close';

/**
 * Sent by the find bar as its size changes, with how far down the stage it reaches (px): the
 * snapshot of the history starts below that, so no match is ever under the bar.
 */
export const FIND_SPACE_EVENT = 'pm-find-space';

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

/**
 * Results as a search from the newest match upwards counts them (find in a pane's history):
 * the newest is 1. The addon numbers from the top; past the highlight limit it has only the
 * oldest matches, so no current one can be numbered.
 */
export function countFromNewest(results: FindResults, limit = FIND_HIGHLIGHT_LIMIT): FindResults {
  const { resultIndex, resultCount } = results;
  if (resultIndex < 0 || resultCount >= limit) return { resultIndex: -1, resultCount };
  return { resultIndex: resultCount - 1 - resultIndex, resultCount };
}

declare global {
  interface HTMLElementEventMap {
    'pm-find-close': CustomEvent<undefined>;
    /** The find bar's bottom edge, in pixels from the top of the screen it is drawn over. */
    'pm-find-space': CustomEvent<number>;
  }
}
