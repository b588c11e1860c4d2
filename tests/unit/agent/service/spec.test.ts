import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceError, serviceSpec } from '../../../../agent/service/spec.js';
import { HOSTILE } from '../../../support/service-spec.js';
import { tempFolders } from '../../../support/temp-folders.js';

const tempRoot = tempFolders('pocketmux-service-');

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
