import { describe, expect, it } from 'vitest';
import { DeviceProofs, MAX_PROOFS_PER_WINDOW, validPublicKey } from '../../../../agent/auth/device-proof.js';
import { parseProof, PROOF_WINDOW_MS, splitTargetProof, withTargetProof } from '../../../../protocol/device-proof.js';
import { newDeviceKey, signProof } from '../../../support/client.js';

const START = Date.parse('2026-06-01T12:00:00Z');

function setup() {
  let now = START;
  const proofs = new DeviceProofs(() => now);
  const device = newDeviceKey();
  return {
    proofs,
    device,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    check: (proof: string | undefined, method = 'GET', target = '/api/session') => proofs.check('dv-a', device.publicKey, method, target, proof),
  };
}

describe('device proofs', () => {
  it('takes a proof signed by the device for this method and target, once', () => {
    const t = setup();
    const proof = signProof(t.device.privateKey, 'GET', '/api/session', t.now());
    expect(t.check(proof)).toEqual({ ok: true });
    expect(t.check(proof)).toMatchObject({ ok: false, reason: /used already/ });
  });

  it('refuses a proof of another method, another target, or another key', () => {
    const t = setup();
    expect(t.check(signProof(t.device.privateKey, 'POST', '/api/session', t.now()))).toMatchObject({ ok: false, clock: false });
    expect(t.check(signProof(t.device.privateKey, 'GET', '/api/devices', t.now()))).toMatchObject({ ok: false, clock: false });
    expect(t.check(signProof(t.device.privateKey, 'GET', '/api/session?x=1', t.now()))).toMatchObject({ ok: false, clock: false });
    expect(t.check(signProof(newDeviceKey().privateKey, 'GET', '/api/session', t.now()))).toMatchObject({ ok: false, reason: /not signed by this device/ });
  });

  it('refuses no proof and a malformed one, saying which', () => {
    const t = setup();
    expect(t.check(undefined)).toMatchObject({ ok: false, reason: /no proof/ });
    for (const bad of ['', 'x', `${t.now()}.abc.def`, `${signProof(t.device.privateKey, 'GET', '/api/session', t.now())}=`, '1.2.3.4']) {
      expect(t.check(bad), bad).toMatchObject({ ok: false, reason: /malformed/ });
    }
    // A signature of the right length that is not one: refused, never thrown.
    expect(t.check(`${t.now()}.${'A'.repeat(22)}.${'A'.repeat(86)}`)).toMatchObject({ ok: false, reason: /not signed/ });
  });

  it('refuses a time out of the window either way, as a matter of clocks', () => {
    const t = setup();
    t.advance(10 * 60_000);
    const late = signProof(t.device.privateKey, 'GET', '/api/session', t.now() - PROOF_WINDOW_MS - 1);
    const early = signProof(t.device.privateKey, 'GET', '/api/session', t.now() + PROOF_WINDOW_MS + 1);
    expect(t.check(late)).toMatchObject({ ok: false, clock: true });
    expect(t.check(early)).toMatchObject({ ok: false, clock: true });
    expect(t.check(signProof(t.device.privateKey, 'GET', '/api/session', t.now() - PROOF_WINDOW_MS + 1000))).toEqual({ ok: true });
  });

  it('refuses a proof made before the agent started: nonces of an earlier run are not remembered', () => {
    const t = setup();
    const before = signProof(t.device.privateKey, 'GET', '/api/session', START - 30_000);
    expect(t.check(before)).toMatchObject({ ok: false, clock: true });
  });

  it('remembers a bounded number of proofs per device, and takes more once the old ones are out of the window', () => {
    const t = setup();
    for (let i = 0; i < MAX_PROOFS_PER_WINDOW; i++) {
      expect(t.check(signProof(t.device.privateKey, 'GET', `/api/session?n=${i}`, t.now()), 'GET', `/api/session?n=${i}`).ok).toBe(true);
    }
    expect(t.check(signProof(t.device.privateKey, 'GET', '/api/session', t.now()))).toMatchObject({ ok: false, reason: /too many/ });
    t.advance(PROOF_WINDOW_MS + 1);
    expect(t.check(signProof(t.device.privateKey, 'GET', '/api/session', t.now()))).toEqual({ ok: true });
  });

  it('forgets a revoked device: its key and nonces', () => {
    const t = setup();
    const proof = signProof(t.device.privateKey, 'GET', '/api/session', t.now());
    expect(t.check(proof)).toEqual({ ok: true });
    t.proofs.forget('dv-a');
    // Forgotten nonces would take the same proof again: only a device still known is asked.
    expect(t.check(proof)).toEqual({ ok: true });
  });

  it('tells a public key that is a point on P-256 from one that is not', () => {
    expect(validPublicKey(newDeviceKey().publicKey)).toBe(true);
    expect(validPublicKey({ kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) })).toBe(false);
  });
});

describe('proof format', () => {
  it('parses only its own shape', () => {
    expect(parseProof(`1780000000000.${'a'.repeat(22)}.${'b'.repeat(86)}`)).toEqual({ time: 1780000000000, nonce: 'a'.repeat(22), signature: 'b'.repeat(86) });
    expect(parseProof(`178000000000.${'a'.repeat(22)}.${'b'.repeat(86)}`)).toBeNull();
    expect(parseProof(`1780000000000.${'a'.repeat(22)}.${'b'.repeat(86)}\n`)).toBeNull();
    expect(parseProof(`1780000000000.${'a'.repeat(21)}+.${'b'.repeat(86)}`)).toBeNull();
  });

  it('puts the proof last in a WebSocket target and takes it back out', () => {
    expect(withTargetProof('/api/status', 'P')).toBe('/api/status?proof=P');
    expect(withTargetProof('/api/terminal?tab=t1&cols=80', 'P')).toBe('/api/terminal?tab=t1&cols=80&proof=P');
    expect(splitTargetProof('/api/terminal?tab=t1&cols=80&proof=P')).toEqual({ signed: '/api/terminal?tab=t1&cols=80', proof: 'P' });
    expect(splitTargetProof('/api/status?proof=P')).toEqual({ signed: '/api/status', proof: 'P' });
    // Only the last parameter counts: a proof elsewhere signs nothing.
    expect(splitTargetProof('/api/terminal?proof=P&tab=t1')).toBeNull();
    expect(splitTargetProof('/api/status')).toBeNull();
  });
});
