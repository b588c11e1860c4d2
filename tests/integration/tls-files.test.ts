import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTls, TlsError } from '../../agent/store/tls.js';

describe('loadTls', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a certificate path that holds a FIFO, naming it, instead of waiting on it', () => {
    dir = mkdtempSync(join(tmpdir(), 'pocketmux-tls-'));
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    execFileSync('mkfifo', [certFile]);
    writeFileSync(keyFile, 'not a key', { mode: 0o600 });
    expect(() => loadTls({ certFile, keyFile })).toThrow(TlsError);
    expect(() => loadTls({ certFile, keyFile })).toThrow(`cannot read the TLS certificate or key: refusing to read ${certFile}: it is a FIFO, not a regular file`);
  });
});
