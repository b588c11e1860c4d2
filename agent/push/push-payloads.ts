/**
 * What each notification says: pure, from an approval or a tab's status to the payload the
 * service worker shows. Payloads stay under PUSH_PAYLOAD_MAX whatever Claude wrote, and every
 * string in them has gone through the card text rule: a notification is read by a person
 * as a card is, and Claude's last message is Claude's to fill with escapes and bidi controls.
 */
import { type ChangesTotal, changesSummary } from '../../protocol/changes-summary.js';
import type { Approval } from '../../protocol/approvals.js';
import { type PushAction, type PushPayload, PUSH_PAYLOAD_MAX } from '../../protocol/push.js';
import { SUMMARY_LIMITS } from '../approvals/summary.js';
import { cardText } from '../util/card-text.js';

/** Where a notification's tab lives, as the person names it. */
export interface TabPlace {
  tab: string;
  workspace: string;
  /** The agent of a Claude or Codex tab ("Codex"); none for a shell tab, whose agent is a Claude typed there. */
  agent?: string;
}

const TITLE_MAX = 120;
const BODY_MAX = 600;

/** One line: runs of white space made one space, then the card text rule, at most `max` long. */
function clip(text: string, max: number): string {
  return cardText(text.replace(/\s+/g, ' ').trim(), max, true);
}

/** Like clip, keeping line breaks: a body's lines are its description and where the tab is. */
function clipLines(text: string, max: number): string {
  const lines = text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  return cardText(lines, max);
}

function placeLine(place: TabPlace | null): string {
  return place ? `${place.workspace} · ${place.tab}` : 'a Claude session';
}

export function approvalTag(approvalId: string): string {
  return approvalId;
}

export function tabTag(tabId: string): string {
  return `tab-${tabId}`;
}

/** Platforms show two buttons at most where they show any (iOS shows none). */
const MAX_ACTIONS = 2;

function actionsFor(approval: Approval): PushAction[] {
  switch (approval.kind) {
    case 'permission':
      return [
        { action: 'approve', title: 'Approve', decision: { decision: 'allow' } },
        { action: 'deny', title: 'Deny', decision: { decision: 'deny' } },
      ];
    case 'question': {
      const [only] = approval.questions;
      // A button can carry one answer to one question; anything else is answered in the app. A
      // question with more options than buttons gets none: two of four would hide the others.
      if (approval.questions.length !== 1 || !only || only.multiSelect || only.options.length > MAX_ACTIONS) return [];
      // The answer is keyed and worded exactly as the card: card text already, which the rule leaves as it is.
      return only.options.map((o, i) => ({
        action: `answer-${i}`,
        title: clip(o.label, 40),
        decision: { decision: 'answer', answers: { [cardText(only.question, SUMMARY_LIMITS.question)]: cardText(o.label, SUMMARY_LIMITS.label, true) } },
      }));
    }
    case 'plan':
    case 'dialog':
    case 'block':
      // Buttons for every option or for none: a notification that offered two of four would hide the rest.
      if (approval.options.length > MAX_ACTIONS) return [];
      return approval.options.map((o) => ({ action: `option-${o.key}`, title: clip(o.label, 40), decision: { decision: 'answer', option: o.key } }));
  }
}

function bodyFor(approval: Approval, place: TabPlace | null): string {
  const lines: string[] = [];
  if (approval.kind === 'question') {
    const [first] = approval.questions;
    if (first) lines.push(first.options.map((o) => o.label).join(' · '));
  } else if (approval.summary.description) lines.push(approval.summary.description);
  lines.push(placeLine(place));
  return lines.join('\n');
}

/** Drops the body's end until the whole payload fits. */
function fitted(payload: Extract<PushPayload, { kind: 'show' }>): PushPayload {
  let out = payload;
  while (JSON.stringify(out).length > PUSH_PAYLOAD_MAX && out.body.length > 0) {
    // Cut by the same rule, which never leaves half an escape or half a surrogate pair.
    out = { ...out, body: out.body.length > 40 ? cardText(out.body, Math.floor(out.body.length * 0.7)) : '' };
  }
  while (JSON.stringify(out).length > PUSH_PAYLOAD_MAX && out.actions.length > 0) out = { ...out, actions: out.actions.slice(0, -1) };
  return out;
}

export function approvalPush(approval: Approval, place: TabPlace | null): PushPayload {
  const title =
    approval.kind === 'question'
      ? (approval.questions[0]?.question ?? approval.summary.title)
      : approval.kind === 'block'
        ? `Blocked by auto mode: ${approval.summary.title}`
        : approval.summary.title;
  return fitted({
    v: 1,
    kind: 'show',
    tag: approvalTag(approval.id),
    title: clip(title, TITLE_MAX),
    body: clipLines(bodyFor(approval, place), BODY_MAX),
    url: `/?approval=${encodeURIComponent(approval.id)}`,
    approvalId: approval.id,
    actions: actionsFor(approval),
  });
}

export function needsInputPush(tabId: string, place: TabPlace | null): PushPayload {
  return fitted({
    v: 1,
    kind: 'show',
    tag: tabTag(tabId),
    title: `${place?.agent ?? 'Claude'} is waiting for you`,
    body: clip(`${placeLine(place)}: answer in the terminal`, BODY_MAX),
    url: `/t/${encodeURIComponent(tabId)}`,
    approvalId: null,
    actions: [],
  });
}

/** The last sentence of Claude's answer: what a notification has room for. */
export function lastSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const sentences = flat.match(/[^.!?]+[.!?]*/g)?.map((s) => s.trim()).filter(Boolean) ?? [];
  return sentences.at(-1) ?? flat;
}

export function reviewPush(tabId: string, place: TabPlace | null, lastMessage: string | null, changed: ChangesTotal | null = null): PushPayload {
  // What the turn changed, after the answer, which is clipped so that this never is.
  const summary = changed && changed.files > 0 ? ` \u00b7 ${changesSummary(changed)}` : '';
  return fitted({
    v: 1,
    kind: 'show',
    tag: tabTag(tabId),
    title: place ? `${clip(place.tab, 60)} is ready for review` : 'Claude is ready for review',
    body: `${clip(lastMessage ? lastSentence(lastMessage) : placeLine(place), BODY_MAX - summary.length)}${summary}`,
    url: `/t/${encodeURIComponent(tabId)}/timeline`,
    approvalId: null,
    actions: [],
  });
}

export function testPush(): PushPayload {
  return { v: 1, kind: 'show', tag: 'test', title: 'pocketmux notifications work', body: 'This is what Claude’s questions will look like.', url: '/', approvalId: null, actions: [] };
}

export function closePush(tag: string): PushPayload {
  return { v: 1, kind: 'close', tag };
}
