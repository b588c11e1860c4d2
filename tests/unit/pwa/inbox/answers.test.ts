import { describe, expect, it } from 'vitest';
import type { ApprovalQuestion } from '../../../../protocol/approvals.js';
import { answerOf, buildAnswers, emptyChoices, sendsAtOnce, setOther, toggleChoice } from '../../../../pwa/inbox/answers.js';

function question(text: string, labels: string[], multiSelect = false): ApprovalQuestion {
  return { question: text, header: null, options: labels.map((label) => ({ label, description: null })), multiSelect };
}

const colour = question('Which colour should the button be?', ['Red', 'Blue']);
const toppings = question('Which toppings?', ['Cheese', 'Olives', 'Basil'], true);

describe('sendsAtOnce', () => {
  it('sends on the first tap only for one single-select question', () => {
    expect(sendsAtOnce([colour])).toBe(true);
    expect(sendsAtOnce([toppings])).toBe(false);
    expect(sendsAtOnce([colour, colour])).toBe(false);
    expect(sendsAtOnce([])).toBe(false);
  });
});

describe('choosing', () => {
  it('takes one answer for a single-select question, and a second tap takes it back', () => {
    let c = emptyChoices([colour]);
    c = toggleChoice([colour], c, 0, 'Red');
    expect(c[0]?.chosen).toEqual(['Red']);
    c = toggleChoice([colour], c, 0, 'Blue');
    expect(c[0]?.chosen).toEqual(['Blue']);
    c = toggleChoice([colour], c, 0, 'Blue');
    expect(c[0]?.chosen).toEqual([]);
  });

  it('toggles options of a multi-select question, kept in the order they are listed', () => {
    let c = emptyChoices([toppings]);
    for (const label of ['Basil', 'Cheese', 'Olives', 'Olives']) c = toggleChoice([toppings], c, 0, label);
    expect(c[0]?.chosen).toEqual(['Cheese', 'Basil']);
  });

  it('lets typed text replace the choice of a single-select question, and a tap replace the text', () => {
    let c = toggleChoice([colour], emptyChoices([colour]), 0, 'Red');
    c = setOther([colour], c, 0, 'Green');
    expect(c[0]).toEqual({ chosen: [], other: 'Green' });
    c = toggleChoice([colour], c, 0, 'Blue');
    expect(c[0]).toEqual({ chosen: ['Blue'], other: '' });
  });

  it('never changes the list it was given', () => {
    const before = emptyChoices([colour, toppings]);
    const frozen = JSON.stringify(before);
    toggleChoice([colour, toppings], before, 1, 'Cheese');
    setOther([colour, toppings], before, 0, 'x');
    expect(JSON.stringify(before)).toBe(frozen);
  });
});

describe('answers', () => {
  it('keys each answer by the question text as the card has it', () => {
    const questions = [colour, toppings];
    let c = emptyChoices(questions);
    expect(buildAnswers(questions, c)).toBeNull();
    c = toggleChoice(questions, c, 0, 'Blue');
    // Every question must be answered before anything is sent.
    expect(buildAnswers(questions, c)).toBeNull();
    c = toggleChoice(questions, c, 1, 'Olives');
    c = toggleChoice(questions, c, 1, 'Cheese');
    c = setOther(questions, c, 1, '  anchovies ');
    expect(buildAnswers(questions, c)).toEqual({
      'Which colour should the button be?': 'Blue',
      'Which toppings?': 'Cheese, Olives, anchovies',
    });
  });

  it('takes typed text as the whole answer of a single-select question, trimmed', () => {
    expect(answerOf(colour, { chosen: [], other: '  Teal ' })).toBe('Teal');
    expect(answerOf(colour, { chosen: [], other: '   ' })).toBeNull();
    expect(answerOf(toppings, { chosen: [], other: '' })).toBeNull();
  });

  it('keys answers to questions called __proto__ and toString as their own keys', () => {
    const questions = [question('__proto__', ['Yes', 'No']), question('toString', ['A', 'B'])];
    let c = toggleChoice(questions, emptyChoices(questions), 0, 'No');
    c = toggleChoice(questions, c, 1, 'A');
    const answers = buildAnswers(questions, c);
    expect(Object.entries(answers ?? {})).toEqual([
      ['__proto__', 'No'],
      ['toString', 'A'],
    ]);
    expect(JSON.stringify(answers)).toBe('{"__proto__":"No","toString":"A"}');
  });

  it('has nothing to send for a question it could not read', () => {
    expect(buildAnswers([], [])).toBeNull();
  });
});
