/**
 * `/?approval=<id>`: where a tap on an approval's notification opens the app. The inbox shows
 * that card, or says it was already answered; the query then leaves the address bar so a
 * reload does not do it again.
 */

export const APPROVAL_PARAM = 'approval';

/** How long the linked card stays highlighted. */
export const HIGHLIGHT_MS = 3_000;
/** How long the "already answered" note stays, unless tapped away sooner. */
export const LINK_NOTE_MS = 6_000;

export const ANSWERED_NOTE = 'That request was already answered';

/** The approval id a URL's query links to, or null for none (or one no agent would make). */
export function approvalLink(search: string): string | null {
  const id = new URLSearchParams(search).get(APPROVAL_PARAM);
  return id && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null;
}

/** The same query without the approval link ("" when nothing else was in it). */
export function withoutApprovalLink(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(APPROVAL_PARAM);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** What the inbox does with a link once the agent's open approvals are known. */
export function linkOutcome(id: string, openIds: readonly string[]): 'show' | 'answered' {
  return openIds.includes(id) ? 'show' : 'answered';
}
