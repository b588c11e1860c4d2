import { describe, expect, it } from 'vitest';
import { CLAUDE_MODES } from '../../../../protocol/claude-mode.js';
import { MODE_HINT, modeChoices, SWITCHABLE_MODES, shownMode, switchingText } from '../../../../pwa/tab/mode-choices.js';

describe("the permission mode switch's choices", () => {
  it("offers Claude's Shift+Tab cycle in its order, bypass last", () => {
    expect(modeChoices('manual')).toEqual(['manual', 'accept-edits', 'plan', 'auto', 'bypass']);
    expect(modeChoices(null)).toEqual(SWITCHABLE_MODES);
    expect(modeChoices('bypass')).toEqual(SWITCHABLE_MODES);
  });

  it("lists don't ask only while the session is in it, as the current mode", () => {
    expect(modeChoices('plan')).not.toContain('dont-ask');
    expect(modeChoices('dont-ask')).toEqual([...SWITCHABLE_MODES, 'dont-ask']);
  });

  it('says in a line what each mode lets Claude do', () => {
    for (const mode of CLAUDE_MODES) expect(MODE_HINT[mode].length).toBeGreaterThan(10);
    expect(new Set(Object.values(MODE_HINT)).size).toBe(CLAUDE_MODES.length);
  });

  it('says what the agent does while it switches', () => {
    expect(switchingText('Plan')).toBe('Pressing Shift+Tab until Claude shows Plan…');
  });
});

describe('the mode shown after a switch', () => {
  it("is the agent's answer while the status still says what it said when the answer came", () => {
    expect(shownMode('manual', { mode: 'plan', statusModeThen: 'manual' })).toBe('plan');
  });

  it('is the status once it moved: to the answer, or on to another mode changed in the terminal', () => {
    expect(shownMode('plan', { mode: 'plan', statusModeThen: 'manual' })).toBe('plan');
    expect(shownMode('auto', { mode: 'plan', statusModeThen: 'manual' })).toBe('auto');
    expect(shownMode(null, { mode: 'plan', statusModeThen: 'manual' })).toBeNull();
  });

  it("is the status's when no switch was answered", () => {
    expect(shownMode('accept-edits', null)).toBe('accept-edits');
    expect(shownMode(null, null)).toBeNull();
  });
});
