/**
 * The service files checked by other programs' readers (systemd-analyze, Python's plistlib), and
 * a TLS pair made by openssl; the cases that start no process are in the unit tier.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InsecurePermissionsError } from '../../agent/store/permissions.js';
import { launchdPlist, parsePlist } from '../../agent/service/launchd.js';
import { serviceCommand, serviceSpec } from '../../agent/service/spec.js';
import { systemdUnit } from '../../agent/service/systemd.js';
import { HOSTILE, hostileSpec, spec } from '../support/service-spec.js';
import { tempFolders } from '../support/temp-folders.js';

const tempRoot = tempFolders('pocketmux-service-');

describe('the systemd user unit', () => {
  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  const verifyName = 'passes systemd-analyze verify, with the program found through a hostile path';
  it.skipIf(!analyze)(analyze ? verifyName : `${verifyName} (SKIPPED: systemd-analyze is not installed here)`, () => {
    const root = tempRoot();
    // The program must exist and be executable: verify checks it, so this proves the path
    // (spaces, quotes, $, %, backslashes) reaches systemd intact.
    // systemd itself refuses quotes and backslashes in a program path (the unit tests check that refusal).
    const dir = join(root, HOSTILE.replace(/["'\\]/g, '_'));
    mkdirSync(dir, { recursive: true });
    symlinkSync(process.execPath, join(dir, 'node'));
    const scriptDir = join(root, HOSTILE);
    mkdirSync(join(scriptDir, 'bin'), { recursive: true });
    writeFileSync(join(scriptDir, 'bin', 'pocketmux.js'), '');
    const s = spec({
      node: join(dir, 'node'),
      script: join(scriptDir, 'bin', 'pocketmux.js'),
      args: ['start', '--data-dir', join(dir, 'data')],
      env: [
        ['HOME', dir],
        ['PATH', `${dir}:/usr/bin`],
      ],
    });
    const file = join(root, 'pocketmux.service');
    writeFileSync(file, systemdUnit(s));
    const runtime = join(root, 'runtime');
    mkdirSync(runtime, { mode: 0o700 });
    const verify = (path: string) =>
      spawnSync('systemd-analyze', ['--user', 'verify', path], { env: { PATH: process.env.PATH, HOME: root, XDG_RUNTIME_DIR: runtime }, encoding: 'utf8' });
    const ok = verify(file);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);

    // The check has teeth: the same path with its $ doubled names a program that is not there.
    const broken = join(root, 'broken.service');
    writeFileSync(broken, systemdUnit(s).replace(/^ExecStart="([^"]*)"/m, (_, p: string) => `ExecStart="${p.replace(/\$/g, '$$$$')}"`));
    const bad = verify(broken);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/is not executable/);
  });
});

describe('the launchd plist', () => {
  const python = spawnSync('python3', ['-c', 'import plistlib']).status === 0;
  // plutil is macOS only: Python's plistlib is the independent reader here, when there is one.
  const plistlibName = "is a property list for Python's plistlib too";
  it.skipIf(!python)(python ? plistlibName : `${plistlibName} (SKIPPED: no python3 with plistlib here)`, () => {
    const s = hostileSpec();
    const parsed = execFileSync('python3', ['-c', 'import json, plistlib, sys; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))'], {
      input: launchdPlist(s),
      encoding: 'utf8',
    });
    expect(JSON.parse(parsed)).toEqual(parsePlist(launchdPlist(s)));
    expect((JSON.parse(parsed) as { ProgramArguments: string[] }).ProgramArguments).toEqual(serviceCommand(s));
  });
});

describe('what the service runs', () => {
  const base = { node: '/usr/bin/node', script: '/opt/pocketmux/bin/pocketmux.js', home: '/home/me' };
  it('checks the TLS pair as start does: a key others can read is refused', () => {
    const root = tempRoot();
    const cert = join(root, 'cert.pem');
    const key = join(root, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    chmodSync(key, 0o600);
    expect(serviceSpec({ ...base, flags: { tlsCert: cert, tlsKey: key }, env: {} }).args).toEqual(['start', '--data-dir', expect.any(String), '--tls-cert', cert, '--tls-key', key]);
    chmodSync(key, 0o644);
    expect(() => serviceSpec({ ...base, flags: { tlsCert: cert, tlsKey: key }, env: {} })).toThrow(InsecurePermissionsError);
  });
});
