import { describe, expect, it } from 'vitest';
import { outsideSessionKey } from '../../../protocol/hook-contract.js';
import { parseSessionKey } from '../../../protocol/session-key.js';

describe('session keys', () => {
  it('name an outside session by its prefix, keeping the wire key whole', () => {
    const key = outsideSessionKey('9cc33040-84d7-4e14-8db7-8fcffd47527d');
    expect(parseSessionKey(key)).toEqual({ kind: 'outside', id: key });
  });

  it('name a tab otherwise', () => {
    expect(parseSessionKey('tb-abc123')).toEqual({ kind: 'tab', id: 'tb-abc123' });
  });

  it('take the prefix only at the start', () => {
    expect(parseSessionKey('tb-outside-1')).toEqual({ kind: 'tab', id: 'tb-outside-1' });
  });
});
