import { describe, expect, it } from 'vitest';
import { revokeDevice } from '../../../../agent/wiring/device-revocation.js';

describe('device revocation', () => {
  it("forgets the device's proofs and push subscriptions and closes its sockets, and no other device's", () => {
    const calls: string[] = [];
    const revoke = revokeDevice({
      proofs: { forget: (id) => void calls.push(`proofs ${id}`) },
      subscriptions: { forget: (id) => void calls.push(`push ${id}`) },
      sockets: { revoke: (id) => void calls.push(`sockets ${id}`) },
    });
    revoke('dev-1');
    expect(calls).toEqual(['proofs dev-1', 'push dev-1', 'sockets dev-1']);
  });
});
