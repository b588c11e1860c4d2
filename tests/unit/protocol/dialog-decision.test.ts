import { describe, expect, it } from 'vitest';
import { DecisionBody } from '../../../protocol/api.js';
import { DIALOG_OPTION_KEYS } from '../../../protocol/approvals.js';

describe("a dialog's answer by a named key", () => {
  it("is a decision the agent takes: the footer's keys as well as the options' numbers", () => {
    for (const option of ['1', '12', ...DIALOG_OPTION_KEYS]) expect(DecisionBody.safeParse({ decision: 'answer', option }).success, option).toBe(true);
  });

  it('is nothing else', () => {
    for (const option of ['', '123', 'esc', 'Escape', 'Esc; rm', 'Enter\n', 'Ctrl+C', 'toString', '__proto__']) {
      expect(DecisionBody.safeParse({ decision: 'answer', option }).success, option).toBe(false);
    }
  });
});
