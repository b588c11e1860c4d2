/**
 * What a decision from a device means to Claude: the body the held PermissionRequest hook
 * answers with, in the shape Claude Code 2.1.332 obeys (verified against the real CLI, see
 * claude-code.md). Pure: the store decides when, this decides what.
 */
import type { DecisionBody } from '../../protocol/api.js';
import type { ApprovalKind, ApprovalQuestion, DialogOption } from '../../protocol/approvals.js';
import type { QuestionKeys } from './summary.js';

/** What Claude's PermissionRequest hook reads from the response body. */
export interface HookDecision {
  hookSpecificOutput: {
    hookEventName: 'PermissionRequest';
    decision:
      | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: unknown[] }
      | { behavior: 'deny'; message: string };
  };
}

/** What the request held for an approval carries, as the decision needs it. */
export interface DecisionContext {
  kind: ApprovalKind;
  /** The tool's input as Claude sent it; a question's answers go back beside it. */
  toolInput: Record<string, unknown>;
  questions: ApprovalQuestion[];
  /** Claude's exact text of each question and its labels, parallel to `questions`. */
  questionKeys: QuestionKeys[];
  /** Claude's `permission_suggestions`, given back as the permissions to add for "always". */
  suggestions: unknown[];
  /** A dialog's options as read from the screen; an answer must be one of them. */
  options: DialogOption[];
}

/** Told to Claude when a device denies without a reason of its own. */
export const DEFAULT_DENY_MESSAGE = 'The person denied this from pocketmux.';

export type DecisionResult =
  | { ok: true; outcome: 'approved' | 'approved-always' | 'denied' | 'answered'; reply: HookDecision | null; option: string | null; message: string | null }
  | { ok: false; error: string };

function reply(decision: HookDecision['hookSpecificOutput']['decision']): HookDecision {
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
}

/**
 * Checks a decision against the approval it is for and builds Claude's answer. A dialog or plan
 * is answered by keys (`option`), and a block by its option, so they get no hook reply;
 * everything else does.
 */
export function decide(ctx: DecisionContext, body: DecisionBody): DecisionResult {
  if (ctx.kind === 'plan' || ctx.kind === 'dialog' || ctx.kind === 'block') {
    const what = ctx.kind === 'block' ? 'block' : 'dialog';
    if (body.decision !== 'answer' || body.option === undefined) return { ok: false, error: `this ${what} is answered with "answer" and one of its options` };
    if (!ctx.options.some((o) => o.key === body.option)) return { ok: false, error: `the ${what} has no option ${body.option}` };
    return { ok: true, outcome: 'answered', reply: null, option: body.option, message: null };
  }
  switch (body.decision) {
    case 'deny': {
      const message = body.message?.trim() || DEFAULT_DENY_MESSAGE;
      return { ok: true, outcome: 'denied', reply: reply({ behavior: 'deny', message }), option: null, message };
    }
    case 'allow':
      if (ctx.kind === 'question') return { ok: false, error: 'a question is answered with "answer" and its answers' };
      return { ok: true, outcome: 'approved', reply: reply({ behavior: 'allow' }), option: null, message: null };
    case 'allow-always':
      if (ctx.kind === 'question') return { ok: false, error: 'a question is answered with "answer" and its answers' };
      if (ctx.suggestions.length === 0) return { ok: false, error: 'Claude offered no "always allow" for this request' };
      return { ok: true, outcome: 'approved-always', reply: reply({ behavior: 'allow', updatedPermissions: ctx.suggestions }), option: null, message: null };
    case 'answer': {
      if (ctx.kind !== 'question') return { ok: false, error: 'only a question is answered with "answer"; use allow or deny' };
      const answers = checkedAnswers(ctx.questions, ctx.questionKeys, body.answers ?? {});
      if (typeof answers === 'string') return { ok: false, error: answers };
      return { ok: true, outcome: 'answered', reply: reply({ behavior: 'allow', updatedInput: { ...ctx.toolInput, answers } }), option: null, message: null };
    }
  }
}

/**
 * Every question answered, and only those asked, keyed as the card shows them. An answer is one
 * of the option labels, several joined by ", " for a multi-select, or free text (the dialog's
 * own "Type something"). Claude gets them keyed by its own question text, with its own labels.
 */
function checkedAnswers(questions: ApprovalQuestion[], keys: QuestionKeys[], answers: Record<string, string>): Record<string, string> | string {
  if (questions.length === 0) return 'this question could not be read; answer it in the terminal';
  // Maps, not objects: question texts are anyone's words, `__proto__` and `toString` among them.
  const given = new Map(Object.entries(answers));
  const asked = new Set(questions.map((q) => q.question));
  for (const key of given.keys()) if (!asked.has(key)) return `no such question: ${JSON.stringify(key.slice(0, 80))}`;
  const out = new Map<string, string>();
  for (const [i, q] of questions.entries()) {
    const answer = given.get(q.question)?.trim();
    const own = keys[i] ?? { question: q.question, labels: q.options.map((o) => o.label) };
    if (!answer) return `no answer for: ${JSON.stringify(q.question.slice(0, 80))}`;
    const parts = q.multiSelect ? answer.split(', ') : [answer];
    out.set(
      own.question,
      parts
        .map((part) => {
          const j = q.options.findIndex((o) => o.label === part);
          return j >= 0 ? (own.labels[j] ?? part) : part;
        })
        .join(', '),
    );
  }
  // An object again for Claude, each question text its own key.
  return Object.fromEntries(out);
}
