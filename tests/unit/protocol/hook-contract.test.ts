import { describe, expect, it } from 'vitest';
import { OutsideKey } from '../../../protocol/api.js';
import { isOutsideKey, OUTSIDE_KEY_MAX, outsideSessionKey } from '../../../protocol/hook-contract.js';

describe('outside session keys', () => {
  it("are the prefix and Claude's session id", () => {
    const key = outsideSessionKey('9cc33040-84d7-4e14-8db7-8fcffd47527d');
    expect(key).toBe('outside-9cc33040-84d7-4e14-8db7-8fcffd47527d');
    expect(isOutsideKey(key)).toBe(true);
    expect(OutsideKey.safeParse(key).success).toBe(true);
  });

  it('keep only characters safe in a path and fit wherever a tab id goes', () => {
    const key = outsideSessionKey(`../${'a'.repeat(200)}/#?`);
    expect(key).toMatch(/^outside-a+$/);
    expect(key).toHaveLength(OUTSIDE_KEY_MAX);
    expect(OutsideKey.safeParse(key).success).toBe(true);
  });

  it('are refused by the route when they are anything else', () => {
    for (const bad of ['tb-abc', 'outside-', 'outside-a/b', `outside-${'a'.repeat(60)}`]) expect(OutsideKey.safeParse(bad).success, bad).toBe(false);
  });
});
