import { describe, expect, it } from 'vitest';
import { AgentAddress } from '../../../../agent/http/address.js';

describe('agent address', () => {
  it('on loopback over HTTP: no twin, no warning, cookies not Secure', () => {
    const a = new AgentAddress({ host: '127.0.0.1', tls: false, publicUrl: null });
    expect([a.url(8420), a.secure, a.needsLocalTwin, a.plainHttpToOthers]).toEqual(['http://127.0.0.1:8420/', false, false, false]);
  });

  it('bound to every address: shown as 127.0.0.1, and phones would use plain HTTP', () => {
    const a = new AgentAddress({ host: '0.0.0.0', tls: false, publicUrl: null });
    expect([a.url(8420), a.needsLocalTwin, a.plainHttpToOthers]).toEqual(['http://127.0.0.1:8420/', false, true]);
  });

  it('with its own TLS on a LAN address: https, Secure, and a plain twin on loopback for hooks', () => {
    const a = new AgentAddress({ host: 'fd00::7', tls: true, publicUrl: null });
    expect([a.url(8443), a.secure, a.needsLocalTwin, a.plainHttpToOthers]).toEqual(['https://[fd00::7]:8443/', true, true, false]);
  });

  it('behind an HTTPS proxy: the public URL, Secure, no warning', () => {
    const a = new AgentAddress({ host: '127.0.0.1', tls: false, publicUrl: 'https://box.tail1234.ts.net/' });
    expect([a.url(8420), a.secure, a.needsLocalTwin, a.plainHttpToOthers]).toEqual(['https://box.tail1234.ts.net/', true, false, false]);
  });
});
