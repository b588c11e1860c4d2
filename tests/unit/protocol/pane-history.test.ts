import { describe, expect, it } from 'vitest';
import { PaneHistorySchema } from '../../../protocol/pane-history.js';

describe('PaneHistorySchema', () => {
  it('reads what the agent sends', () => {
    expect(PaneHistorySchema.safeParse({ text: '\x1b[31mred\x1b[39m\n$ \n', truncated: false }).success).toBe(true);
    expect(PaneHistorySchema.safeParse({ text: '', truncated: true }).data).toEqual({ text: '', truncated: true });
  });

  it('refuses anything else', () => {
    for (const bad of [null, 'text', {}, { text: 'x' }, { truncated: false }, { text: 1, truncated: false }, { text: 'x', truncated: 'no' }]) {
      expect(PaneHistorySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
