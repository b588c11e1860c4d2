/**
 * A session's changes in a line, as cards, notifications and the CLI say them. Imports nothing:
 * the first screen shows it on a review card without the review's schemas.
 */

/** Files changed, and their lines added and removed. */
export interface ChangesTotal {
  files: number;
  added: number;
  removed: number;
}

/** "3 files changed, +40 −12". */
export function changesSummary(total: ChangesTotal): string {
  if (total.files === 0) return 'no files changed';
  return `${total.files} ${total.files === 1 ? 'file' : 'files'} changed, +${total.added} \u2212${total.removed}`;
}
