/**
 * A workspace's guardrail as the person sees it: the choices offered for it, the quiet line
 * that says it is on, the time an open card has left before it acts, and the note on a card
 * it denied. Pure, so the words are tested apart from the screen.
 */
import type { Guardrail, WorkspaceView } from '../../protocol/api.js';
import { type Approval, type ApprovalResolution, GUARDRAIL_RESOLVER } from '../../protocol/approvals.js';
import { GUARDRAIL_MINUTES } from '../../protocol/limits.js';
import { durationText } from '../../protocol/duration-text.js';

/** The waits the workspace menu offers, in minutes. */
export const GUARDRAIL_OFFERED_MINUTES: readonly number[] = [5, 10, 15, 20];

/** One choice of "When nobody answers": null leaves what waits in the terminal. */
export interface GuardrailChoice {
  afterMinutes: number | null;
  label: string;
}

/**
 * The choices for a workspace whose guardrail is `current`: leave it in the terminal, or deny
 * after one of the offered waits; a wait set another way (the API takes 1 to 29) is offered
 * too, in its place, so the menu never hides what is on.
 */
export function guardrailChoices(current: Guardrail | null): GuardrailChoice[] {
  const minutes = [...GUARDRAIL_OFFERED_MINUTES];
  if (current && !minutes.includes(current.afterMinutes)) minutes.push(current.afterMinutes);
  minutes.sort((a, b) => a - b);
  const valid = minutes.filter((m) => Number.isInteger(m) && m >= GUARDRAIL_MINUTES.min && m <= GUARDRAIL_MINUTES.max);
  return [{ afterMinutes: null, label: 'Leave it in the terminal' }, ...valid.map((m) => ({ afterMinutes: m, label: `Deny after ${m} min` }))];
}

/** The workspace's line while a guardrail is on, so a person sees it before it acts; null when off. */
export function guardrailMark(guardrail: Guardrail | null): string | null {
  return guardrail ? `Denies after ${guardrail.afterMinutes} min unanswered` : null;
}

/** Whether a resolution is a guardrail's automatic decision. */
export function isGuardrailDecision(resolution: Pick<ApprovalResolution, 'by'>): boolean {
  return resolution.by.kind === 'agent' && resolution.by.name === GUARDRAIL_RESOLVER;
}

/**
 * What an open card has left before a guardrail denies it, from the agent's `denyAt`: null for
 * a card the agent will not deny (no guardrail was on when it opened, or it is not one a
 * guardrail decides), whatever its workspace's guardrail is now.
 */
export function deadlineText(approval: Pick<Approval, 'denyAt'>, now: number): string | null {
  return approval.denyAt === null ? null : deniedInText(approval.denyAt, now);
}

/** "Denied automatically in 9 min": what an open card under a guardrail has left, counted to `denyAt`. */
export function deniedInText(denyAt: number, now: number): string {
  const left = denyAt - now;
  if (left < 60_000) return 'Denied automatically within a minute';
  return `Denied automatically in ${Math.ceil(left / 60_000)} min`;
}

/** The note on a card the guardrail denied; the wait named when the workspace still has one. */
export function guardrailNote(guardrail: Guardrail | null): string {
  return guardrail ? `Denied by the guardrail: no answer within ${durationText(guardrail.afterMinutes * 60)}` : 'Denied by the guardrail: no answer in time';
}

/** The guardrail of the workspace tab `tabId` is in; null for none, and for a key that is no tab. */
export function guardrailOfTab(workspaces: readonly WorkspaceView[], tabId: string): Guardrail | null {
  return workspaces.find((w) => w.tabs.some((t) => t.id === tabId))?.guardrail ?? null;
}
