import { describe, expect, it } from 'vitest';
import { OutsideKey } from '../../protocol/api.js';
import { isUnmanagedKey, UNMANAGED_KEY_MAX, unmanagedKey } from '../../protocol/hook-contract.js';

describe('outside session keys', () => {
  it("are the prefix and Claude's session id", () => {
    const key = unmanagedKey('9cc33040-84d7-4e14-8db7-8fcffd47527d');
    expect(key).toBe('unmanaged-9cc33040-84d7-4e14-8db7-8fcffd47527d');
    expect(isUnmanagedKey(key)).toBe(true);
    expect(OutsideKey.safeParse(key).success).toBe(true);
  });

  it('keep only characters safe in a path and fit wherever a tab id goes', () => {
    const key = unmanagedKey(`../${'a'.repeat(200)}/#?`);
    expect(key).toMatch(/^unmanaged-a+$/);
    expect(key).toHaveLength(UNMANAGED_KEY_MAX);
    expect(OutsideKey.safeParse(key).success).toBe(true);
  });

  it('are refused by the route when they are anything else', () => {
    for (const bad of ['tb-abc', 'unmanaged-', 'unmanaged-a/b', `unmanaged-${'a'.repeat(60)}`]) expect(OutsideKey.safeParse(bad).success, bad).toBe(false);
  });
});
