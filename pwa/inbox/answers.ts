/**
 * Answers to Claude's questions (AskUserQuestion) as a card collects them: per question, the
 * options chosen and any text typed under "Other…". Pure; the card keeps the choices and
 * sends what `buildAnswers` makes of them.
 */
import type { ApprovalQuestion } from '../../protocol/approvals.js';

export interface QuestionChoice {
  /** Labels chosen, in the order the options are listed. */
  chosen: readonly string[];
  /** Free text typed under "Other…". */
  other: string;
}

export function emptyChoices(questions: readonly ApprovalQuestion[]): QuestionChoice[] {
  return questions.map(() => ({ chosen: [], other: '' }));
}

/**
 * One tap on an option does what it would in the terminal: with a single question asked for
 * a single answer, it is the answer and goes at once; otherwise it is chosen (or unchosen)
 * and a Send button sends them all.
 */
export function sendsAtOnce(questions: readonly ApprovalQuestion[]): boolean {
  return questions.length === 1 && questions[0]?.multiSelect === false;
}

function replaceAt(choices: readonly QuestionChoice[], index: number, next: QuestionChoice): QuestionChoice[] {
  return choices.map((c, i) => (i === index ? next : c));
}

/**
 * Taps option `label` of question `index`: a single-select question takes it as its answer
 * (dropping any typed text); a multi-select one toggles it.
 */
export function toggleChoice(questions: readonly ApprovalQuestion[], choices: readonly QuestionChoice[], index: number, label: string): QuestionChoice[] {
  const question = questions[index];
  const current = choices[index];
  if (!question || !current) return [...choices];
  if (!question.multiSelect) return replaceAt(choices, index, { chosen: current.chosen[0] === label ? [] : [label], other: '' });
  const picked = new Set(current.chosen);
  if (picked.has(label)) picked.delete(label);
  else picked.add(label);
  const ordered = question.options.map((o) => o.label).filter((l) => picked.has(l));
  return replaceAt(choices, index, { chosen: ordered, other: current.other });
}

/** Text typed under "Other…": for a single-select question it replaces the option chosen. */
export function setOther(questions: readonly ApprovalQuestion[], choices: readonly QuestionChoice[], index: number, text: string): QuestionChoice[] {
  const question = questions[index];
  const current = choices[index];
  if (!question || !current) return [...choices];
  const chosen = question.multiSelect || text.trim() === '' ? current.chosen : [];
  return replaceAt(choices, index, { chosen, other: text });
}

/**
 * One question's answer as the agent takes it: the label chosen, or the text typed; for a
 * multi-select, every label chosen and then the typed text, joined by ", ". Null when nothing
 * is chosen or typed.
 */
export function answerOf(question: ApprovalQuestion, choice: QuestionChoice): string | null {
  const other = choice.other.trim();
  const parts = question.multiSelect ? [...choice.chosen, ...(other ? [other] : [])] : [other || choice.chosen[0] || ''].filter(Boolean);
  return parts.length === 0 ? null : parts.join(', ');
}

/**
 * The `answers` of a decision: keyed by each question's text exactly as the card has it, or
 * null while any question is still unanswered (Claude wants them all).
 */
export function buildAnswers(questions: readonly ApprovalQuestion[], choices: readonly QuestionChoice[]): Record<string, string> | null {
  if (questions.length === 0) return null;
  const answers: [string, string][] = [];
  for (const [i, question] of questions.entries()) {
    const choice = choices[i];
    const answer = choice ? answerOf(question, choice) : null;
    if (answer === null) return null;
    answers.push([question.question, answer]);
  }
  // From entries: a question called `__proto__` stays a key, where assigning it would not.
  return Object.fromEntries(answers);
}
