import { describe, expect, it } from 'vitest';
import { CLAUDE_MODE_TEXT, CLAUDE_MODES } from '../../../../protocol/claude-mode.js';
import { modeMark, rowModeMark } from '../../../../pwa/core/permission-mode.js';

describe('how a permission mode is marked', () => {
  it("names every mode in the protocol's words, manual quiet and bypass in the danger colour", () => {
    for (const mode of CLAUDE_MODES) expect(modeMark(mode)).toMatchObject({ mode, text: CLAUDE_MODE_TEXT[mode] });
    expect(modeMark('manual').tone).toBe('quiet');
    expect(modeMark('bypass').tone).toBe('danger');
    const others = (['accept-edits', 'plan', 'auto'] as const).map((mode) => modeMark(mode).tone);
    expect(new Set(others).size).toBe(3);
    expect(others).not.toContain('quiet');
    expect(others).not.toContain('danger');
  });

  it('marks a row with every mode but manual, and only while its claude runs', () => {
    expect(rowModeMark({ permissionMode: 'plan', claudeRunning: true })).toEqual({ mode: 'plan', text: 'Plan', tone: 'review' });
    expect(rowModeMark({ permissionMode: 'bypass', claudeRunning: true })?.text).toBe('Bypass permissions');
    expect(rowModeMark({ permissionMode: 'manual', claudeRunning: true })).toBeNull();
    expect(rowModeMark({ permissionMode: null, claudeRunning: true })).toBeNull();
    expect(rowModeMark({ permissionMode: 'auto', claudeRunning: false })).toBeNull();
    expect(rowModeMark(undefined)).toBeNull();
  });
});
