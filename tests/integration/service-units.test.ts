import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InsecurePermissionsError } from '../../agent/store/permissions.js';
import { LABEL, launchdPlist, parsePlist, plistJob, xmlText } from '../../agent/service/launchd.js';
import { failureReason, shellWords } from '../../agent/service/runner.js';
import { ServiceError, type ServiceSpec, serviceCommand, serviceSpec } from '../../agent/service/spec.js';
import {
  environmentLine,
  execLine,
  splitExecLine,
  systemdQuote,
  systemdUnit,
  systemdUnitPath,
  UNIT_MARKER,
  unitCommand,
  unitEnvironment,
  unitSettings,
} from '../../agent/service/systemd.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'pocketmux-service-'));
  roots.push(root);
  return root;
}

/** Everything a path may hold that a unit file or a plist would otherwise take as syntax. */
const HOSTILE = `sp ace 'single' "double" $HOME \${HOME} $$ %h %% %i \\back\\slash\\ ; & | < > ]]> &amp; * ? ~ # é 漢 🙂`;

function spec(overrides: Partial<ServiceSpec> = {}): ServiceSpec {
  return {
    node: '/usr/bin/node',
    script: '/opt/pocketmux/bin/pocketmux.js',
    args: ['start', '--data-dir', '/home/me/.pocketmux'],
    env: [
      ['HOME', '/home/me'],
      ['PATH', '/usr/bin:/bin'],
    ],
    dataDir: '/home/me/.pocketmux',
    home: '/home/me',
    ...overrides,
  };
}

function hostileSpec(): ServiceSpec {
  const dir = `/tmp/${HOSTILE}`;
  return spec({
    // systemd refuses quotes and backslashes in the program path alone (tested below).
    node: `/tmp/${HOSTILE.replace(/["'\\]/g, '_')}/node`,
    script: `${dir}/bin/pocketmux.js`,
    args: ['start', '--data-dir', `${dir}/data`, '--claude-bin', `${dir}/claude`, '--public-url', 'https://box.example.ts.net/', ';', '-', '@x', ''],
    env: [
      ['HOME', dir],
      ['PATH', `${dir}/bin:/usr/bin`],
      ['POCKETMUX_CLAUDE_ARGS', '--model "opus" $X %n'],
    ],
    dataDir: `${dir}/data`,
    home: dir,
  });
}

describe('systemd unit quoting', () => {
  it('double-quotes every word, escapes \\ and ", doubles % always and $ in arguments', () => {
    expect(systemdQuote('plain', 'escape')).toBe('"plain"');
    expect(systemdQuote('a b', 'escape')).toBe('"a b"');
    expect(systemdQuote('say "hi"', 'escape')).toBe('"say \\"hi\\""');
    expect(systemdQuote('C:\\dir\\', 'escape')).toBe('"C:\\\\dir\\\\"');
    expect(systemdQuote('100% %h', 'escape')).toBe('"100%% %%h"');
    expect(systemdQuote(`$HOME \${X} $$`, 'escape')).toBe(`"$$HOME $\${X} $$$$"`);
    // The program path is taken literally by systemd: no $ doubling there.
    expect(systemdQuote('/opt/$x%y/node', 'literal')).toBe('"/opt/$x%%y/node"');
    expect(execLine(['/usr/bin/node', 'a$b'])).toBe('"/usr/bin/node" "a$$b"');
    // Environment= does no variable expansion: $ stays, % is doubled.
    expect(environmentLine('PATH', '/a b/$x%y')).toBe('"PATH=/a b/$x%%y"');
  });

  it('splits a hostile command back into exactly its words', () => {
    const s = hostileSpec();
    const unit = systemdUnit(s);
    expect(unitCommand(unit)).toEqual(serviceCommand(s));
    expect(unitEnvironment(unit)).toEqual(Object.fromEntries(s.env));
    // One line each: nothing in the values ended a line or started a new setting.
    expect(unitSettings(unit, 'ExecStart')).toHaveLength(1);
    expect(unitSettings(unit, 'Environment')).toHaveLength(s.env.length);
    expect(unit.split('\n').filter((l) => l.startsWith('['))).toEqual(['[Unit]', '[Service]', '[Install]']);
  });

  it('reads systemd syntax it did not write the way systemd does', () => {
    expect(splitExecLine(`/bin/echo 'single quoted' "a\\tb" plain\\x41 %% $$`)).toEqual(['/bin/echo', 'single quoted', 'a\tb', 'plainA', '%', '$']);
    expect(() => splitExecLine('/bin/echo "unbalanced')).toThrow(/unbalanced/);
    expect(() => splitExecLine('/bin/echo %h')).toThrow(/specifier/);
    expect(() => splitExecLine('/bin/echo $HOME')).toThrow(/variable/);
  });
});

describe('the systemd user unit', () => {
  const unit = systemdUnit(spec({ args: ['start', '--data-dir', '/home/me/.pocketmux', '--port', '8420'] }));

  it('runs node on the script with the options, restarts on failure, logs to the journal', () => {
    expect(unit.split('\n')[0]).toBe(UNIT_MARKER);
    expect(unitSettings(unit, 'ExecStart')).toEqual(['"/usr/bin/node" "/opt/pocketmux/bin/pocketmux.js" "start" "--data-dir" "/home/me/.pocketmux" "--port" "8420"']);
    expect(unitSettings(unit, 'Environment')).toEqual(['"HOME=/home/me"', '"PATH=/usr/bin:/bin"']);
    expect(unitSettings(unit, 'Restart')).toEqual(['on-failure']);
    expect(unitSettings(unit, 'RestartSec')).toEqual(['10']);
    expect(unitSettings(unit, 'StartLimitBurst')).toEqual(['5']);
    expect(unitSettings(unit, 'StartLimitIntervalSec')).toEqual(['300']);
    expect(unitSettings(unit, 'StandardOutput')).toEqual(['journal']);
    expect(unitSettings(unit, 'StandardError')).toEqual(['journal']);
    expect(unitSettings(unit, 'WantedBy')).toEqual(['default.target']);
    // Stopping the service stops the agent, not the tmux server with everyone's sessions.
    expect(unitSettings(unit, 'KillMode')).toEqual(['process']);
    expect(unit.endsWith('\n')).toBe(true);
  });

  it('refuses a node path systemd cannot run: quotes, backslashes, not normalized', () => {
    for (const node of [`/opt/it's/node`, '/opt/"q"/node', '/opt/back\\slash/node', '/opt//node', '/opt/./node']) {
      expect(() => systemdUnit(spec({ node }))).toThrow(ServiceError);
    }
    expect(() => systemdUnit(spec({ node: '/opt/sp ace/$x/%h/node' }))).not.toThrow();
  });

  it('goes in $XDG_CONFIG_HOME/systemd/user when that is absolute, else ~/.config', () => {
    expect(systemdUnitPath({}, '/home/me')).toBe('/home/me/.config/systemd/user/pocketmux.service');
    expect(systemdUnitPath({ XDG_CONFIG_HOME: '/cfg' }, '/home/me')).toBe('/cfg/systemd/user/pocketmux.service');
    expect(systemdUnitPath({ XDG_CONFIG_HOME: 'relative' }, '/home/me')).toBe('/home/me/.config/systemd/user/pocketmux.service');
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  const verifyName = 'passes systemd-analyze verify, with the program found through a hostile path';
  it.skipIf(!analyze)(analyze ? verifyName : `${verifyName} (SKIPPED: systemd-analyze is not installed here)`, () => {
    const root = tempRoot();
    // The program must exist and be executable: verify checks it, so this proves the path
    // (spaces, quotes, $, %, backslashes) reaches systemd intact.
    // systemd itself refuses quotes and backslashes in a program path (see the next test).
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
  it('runs node on the script with the options, kept alive after a failure, logging in the data dir', () => {
    const s = spec();
    const plist = parsePlist(launchdPlist(s));
    expect(plist).toEqual({
      Label: LABEL,
      ProgramArguments: serviceCommand(s),
      EnvironmentVariables: { HOME: '/home/me', PATH: '/usr/bin:/bin' },
      WorkingDirectory: '/home/me',
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      ThrottleInterval: 10,
      AbandonProcessGroup: true,
      ProcessType: 'Interactive',
      StandardOutPath: '/home/me/.pocketmux/logs/launchd.stdout.log',
      StandardErrorPath: '/home/me/.pocketmux/logs/launchd.stderr.log',
    });
  });

  it('escapes every hostile value, and reads back exactly', () => {
    const s = hostileSpec();
    const xml = launchdPlist(s);
    // No raw markup from the values: every < starts one of our tags, every & an entity.
    for (const tag of xml.match(/<[^>]*>/g) ?? []) expect(tag).toMatch(/^<(\?xml .*\?|!DOCTYPE plist .*|!-- .* --|\/?(plist|dict|array|key|string|integer)( version="1\.0")?|true\/|false\/)>$/);
    expect(xml.replace(/<[^>]*>/g, '')).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos);)/);
    const job = plistJob(xml);
    expect(job?.command).toEqual(serviceCommand(s));
    expect((parsePlist(xml) as { EnvironmentVariables: unknown }).EnvironmentVariables).toEqual(Object.fromEntries(s.env));
    expect(xmlText(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
  });

  it('refuses malformed XML when reading one back', () => {
    expect(() => parsePlist('<plist version="1.0"><dict><key>a</key><string>x & y</string></dict></plist>')).toThrow();
    expect(() => parsePlist('<plist version="1.0"><dict><key>a</key><string>x</string></plist>')).toThrow();
    expect(() => parsePlist('<plist version="1.0"><array><string>x</string></array></plist><extra/>')).toThrow();
    expect(plistJob('not xml')).toBeNull();
  });

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

  it('passes the resolved options as flags and the rest of the environment through', () => {
    const s = serviceSpec({
      ...base,
      flags: { port: '9000', dataDir: '/srv/pmx data', claudeBin: 'bin/claude', tailscale: true },
      env: {
        PATH: '/usr/local/bin:/usr/bin',
        SHELL: '/bin/zsh',
        LANG: 'en_US.UTF-8',
        POCKETMUX_TMUX_SOCKET: 'mine',
        POCKETMUX_LOG_LEVEL: 'debug',
        POCKETMUX_CLAUDE_ARGS: '--model opus',
        SECRET_TOKEN: 'not copied',
      },
    });
    expect(s.args).toEqual(['start', '--data-dir', '/srv/pmx data', '--port', '9000', '--tmux-socket', 'mine', '--claude-bin', resolve('bin/claude'), '--tailscale']);
    expect(s.env).toEqual([
      ['HOME', '/home/me'],
      ['PATH', '/usr/local/bin:/usr/bin'],
      ['SHELL', '/bin/zsh'],
      ['LANG', 'en_US.UTF-8'],
      ['POCKETMUX_SERVICE', '1'],
      ['POCKETMUX_CLAUDE_ARGS', '--model opus'],
      ['POCKETMUX_LOG_LEVEL', 'debug'],
    ]);
    expect(s.dataDir).toBe('/srv/pmx data');
  });

  it('always names the data dir, and keeps a bare claude name for the login PATH', () => {
    const s = serviceSpec({ ...base, flags: { claudeBin: 'claude' }, env: {} });
    expect(s.args).toEqual(['start', '--data-dir', join(homedir(), '.pocketmux'), '--claude-bin', 'claude']);
    expect(s.env).toEqual([
      ['HOME', '/home/me'],
      ['PATH', '/usr/local/bin:/usr/bin:/bin'],
      ['POCKETMUX_SERVICE', '1'],
    ]);
  });

  it('leaves out of PATH what npx added for the install: its cache and the node_modules/.bin folders', () => {
    const root = tempRoot();
    const dir = (...parts: string[]) => {
      const d = join(root, ...parts);
      mkdirSync(d, { recursive: true });
      return d;
    };
    const tool = (d: string, name: string) => {
      writeFileSync(join(d, name), '#!/bin/sh\n');
      chmodSync(join(d, name), 0o755);
    };
    const npx = dir('.npm', '_npx', '3f2a', 'node_modules', '.bin');
    tool(npx, 'pocketmux');
    const project = dir('work', 'app', 'node_modules', '.bin');
    const above = dir('work', 'node_modules', '.bin');
    const gyp = dir('lib', 'node_modules', 'npm', 'node_modules', '@npmcli', 'run-script', 'lib', 'node-gyp-bin');
    const nodeDir = dir('nvm', 'v22', 'bin');
    tool(nodeDir, 'node');
    const usr = dir('usr', 'bin');
    tool(usr, 'tmux');
    const local = dir('local', 'bin');
    tool(local, 'claude');
    const PATH = [npx, project, above, gyp, nodeDir, usr, local, usr, 'relative/bin'].join(':');
    const s = serviceSpec({ ...base, node: join(nodeDir, 'node'), flags: {}, env: { PATH } });
    expect(s.env.find(([name]) => name === 'PATH')).toEqual(['PATH', [nodeDir, usr, local].join(':')]);

    // claude (or tmux) found only in a project's node_modules/.bin: that folder stays, npx's cache never.
    tool(project, 'claude');
    tool(npx, 'tmux');
    const t = serviceSpec({ ...base, node: join(nodeDir, 'node'), flags: {}, env: { PATH: [npx, project, nodeDir].join(':') } });
    expect(t.env.find(([name]) => name === 'PATH')).toEqual(['PATH', [project, nodeDir].join(':')]);
  });

  it('fails on a bad option as start would, before anything is written', () => {
    expect(() => serviceSpec({ ...base, flags: { port: '70000' }, env: {} })).toThrow(/port must be between/);
    expect(() => serviceSpec({ ...base, flags: { tlsCert: '/x.pem' }, env: {} })).toThrow(/go together/);
    expect(() => serviceSpec({ ...base, flags: { publicUrl: 'ftp://x' }, env: {} })).toThrow(/http/);
    expect(() => serviceSpec({ ...base, flags: { tlsCert: '/nonexistent/c.pem', tlsKey: '/nonexistent/k.pem' }, env: {} })).toThrow(/cannot read the TLS/);
  });

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

  it('refuses newlines and other control characters anywhere, naming the value visibly', () => {
    const flagsWith = (value: string) => ({ ...base, flags: { dataDir: `/tmp/a${value}b` }, env: {} });
    for (const bad of ['\n', '\r', '\t', '\x1b', '\x00', '\u0085', '\ud800']) {
      expect(() => serviceSpec(flagsWith(bad))).toThrow(ServiceError);
    }
    expect(() => serviceSpec(flagsWith('\n'))).toThrow(/control character.*\/tmp\/a\\x0ab/);
    expect(() => serviceSpec({ ...base, node: '/opt/no\nde', flags: {}, env: {} })).toThrow(/node path/);
    expect(() => serviceSpec({ ...base, flags: {}, env: { POCKETMUX_CLAUDE_ARGS: 'a\nb' } })).toThrow(/POCKETMUX_CLAUDE_ARGS/);
    expect(() => serviceSpec({ ...base, home: 'relative', flags: {}, env: {} })).toThrow(/absolute/);
    // Everything else is fine: it is quoted.
    expect(serviceSpec(flagsWith(` ${HOSTILE} `)).dataDir).toBe(`/tmp/a ${HOSTILE} b`);
  });
});

describe('messages', () => {
  it('quotes shell words only when needed, and finds the reason in a failed command', () => {
    expect(shellWords(['systemctl', '--user', 'a b', "it's"])).toBe(`systemctl --user 'a b' 'it'\\''s'`);
    expect(failureReason({ code: 1, stdout: '', stderr: 'Removed "/x".\nFailed to connect to bus: No medium found\n' })).toBe('Failed to connect to bus: No medium found');
    expect(failureReason({ code: 5, stdout: '', stderr: 'Bootstrap failed: 5: Input/output error\nTry re-running the command as root for richer errors.\n' })).toBe(
      'Bootstrap failed: 5: Input/output error',
    );
    expect(failureReason({ code: 2, stdout: '', stderr: '' })).toBe('exit code 2');
  });
});
