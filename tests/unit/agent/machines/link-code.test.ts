import { describe, expect, it } from 'vitest';
import { decodeLinkCode, encodeLinkCode } from '../../../../agent/machines/link-code.js';
import { isLoopbackHost, transportProblem } from '../../../../agent/machines/machine-client.js';
import { LINK_CODE_MAX } from '../../../../protocol/machines.js';

const PIN = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0').toUpperCase()).join(':');
const BODY = { url: 'https://127.0.0.1:8420/', secret: 'a'.repeat(43), pin: PIN, name: 'build-box' };

function raw(value: unknown): string {
  return `pmlink1.${Buffer.from(JSON.stringify(value)).toString('base64url')}`;
}

describe('link codes', () => {
  it('round-trips, and reads a code a terminal or a chat app broke across lines', () => {
    const code = encodeLinkCode(BODY);
    expect(code).toMatch(/^pmlink1\.[A-Za-z0-9_-]+$/);
    expect(decodeLinkCode(code)).toEqual({ ok: true, body: BODY });
    const broken = `  ${code.slice(0, 30)}\n${code.slice(30, 61)} \r\n${code.slice(61)}\n`;
    expect(decodeLinkCode(broken)).toEqual({ ok: true, body: BODY });
  });

  it('says what is wrong with a code that is not one, cut, or changed', () => {
    expect(decodeLinkCode('ABCD-EFGH')).toEqual({ ok: false, error: expect.stringContaining('not a link code: it starts with pmlink1.') });
    expect(decodeLinkCode(encodeLinkCode(BODY).slice(0, 50))).toEqual({ ok: false, error: expect.stringContaining('damaged') });
    expect(decodeLinkCode('pmlink1.a$b')).toEqual({ ok: false, error: 'the link code is damaged (copied only in part?)' });
    expect(decodeLinkCode(`pmlink1.${'A'.repeat(LINK_CODE_MAX)}`)).toEqual({ ok: false, error: `a link code is at most ${LINK_CODE_MAX} characters` });
  });

  it('refuses a payload of the wrong shape, field by field: never a guess', () => {
    const cases: [unknown, string][] = [
      [{ ...BODY, url: 'https://host:1/path' }, 'url: not an agent URL'],
      [{ ...BODY, url: 'file:///etc/passwd' }, 'url: not an agent URL'],
      [{ ...BODY, secret: 'short' }, 'secret: not a pairing secret'],
      [{ ...BODY, pin: 'ab:cd' }, 'pin: not a SHA-256 certificate fingerprint'],
      [{ ...BODY, name: 'evil\u202Ename' }, 'name: name must not contain'],
      [{ ...BODY, extra: 1 }, 'Unrecognized key'],
      [{ ...BODY, secret: { length: { toString: 1 } } }, 'damaged'],
      [[BODY], 'damaged'],
      [null, 'damaged'],
    ];
    for (const [value, error] of cases) {
      const decoded = decodeLinkCode(raw(value));
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) expect(decoded.error).toContain(error);
    }
  });
});

describe('what another agent may be reached over', () => {
  it('HTTPS anywhere; plain HTTP only on this machine', () => {
    expect(transportProblem('https://build.tail1234.ts.net/')).toBeNull();
    expect(transportProblem('https://192.0.2.1:8420/')).toBeNull();
    expect(transportProblem('http://127.0.0.1:8420/')).toBeNull();
    expect(transportProblem('http://[::1]:8420/')).toBeNull();
    expect(transportProblem('http://localhost:8420/')).toBeNull();
    expect(transportProblem('http://192.0.2.1:8420/')).toContain('refusing plain HTTP to 192.0.2.1:8420');
    expect(transportProblem('http://127.0.0.1.evil.example:80/')).toContain('refusing plain HTTP');
    expect(transportProblem('ftp://127.0.0.1/')).toContain('refusing plain HTTP');
    expect(isLoopbackHost('127.9.9.9')).toBe(true);
    expect(isLoopbackHost('localhost.evil.example')).toBe(false);
  });
});
