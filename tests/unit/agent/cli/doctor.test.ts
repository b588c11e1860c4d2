import { describe, expect, it } from 'vitest';
import { curlCheck, parseCurlVersion } from '../../../../agent/cli/doctor.js';

describe('doctor: curl', () => {
  it('reads the version from the first line of curl --version', () => {
    expect(parseCurlVersion('curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/7.88.1 OpenSSL/3.0.11\nRelease-Date: 2023-02-20\n')).toEqual([7, 88, 1]);
    expect(parseCurlVersion('curl 8.7.1 (x86_64-apple-darwin23.0) libcurl/8.7.1')).toEqual([8, 7, 1]);
    expect(parseCurlVersion('curl 7.55 (custom)')).toEqual([7, 55, 0]);
    expect(parseCurlVersion('Usage: curl [options...] <url>')).toBeNull();
  });

  it('asks for 7.55 or newer, which reads a header from a file (-H @file)', () => {
    expect(curlCheck('curl 7.55.0 (x86_64-pc-linux-gnu)')).toMatchObject({ ok: true, detail: '7.55.0' });
    expect(curlCheck('curl 8.0.1 (x86_64-pc-linux-gnu)')).toMatchObject({ ok: true });
    expect(curlCheck('curl 7.54.1 (x86_64-pc-linux-gnu)')).toMatchObject({ ok: false, detail: expect.stringContaining('7.54.1 is too old') });
    expect(curlCheck('curl 6.99.0 (x)')).toMatchObject({ ok: false });
    expect(curlCheck(null)).toMatchObject({ ok: false, detail: expect.stringContaining('install it') });
    expect(curlCheck('something else')).toMatchObject({ ok: false, detail: expect.stringContaining('cannot tell') });
  });
});
