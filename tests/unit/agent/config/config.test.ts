import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, resolveConfig } from '../../../../agent/config/config.js';
import { extractMarkedPath, noProxyWithLoopback } from '../../../../agent/config/login-env.js';
import { originAllowed, readCookie } from '../../../../agent/auth/access.js';
import type { IncomingMessage } from 'node:http';
import { guessDeviceName } from '../../../../agent/auth/device-name.js';

describe('agent configuration', () => {
  it('uses the documented defaults', () => {
    const c = resolveConfig({}, {});
    expect(c.port).toBe(8420);
    expect(c.host).toBe('127.0.0.1');
    expect(c.dataDir).toBe(join(homedir(), '.pocketmux'));
    expect(c.tmuxSocket).toBe('pocketmux');
    expect(c.heartbeatIntervalMs).toBe(DEFAULTS.heartbeatIntervalMs);
    expect(c.heartbeatTimeoutMs).toBe(90_000);
    expect(c.maxTerminalConnections).toBe(32);
  });

  it('takes environment variables, and flags over them', () => {
    const env = { POCKETMUX_PORT: '9000', POCKETMUX_HOST: '0.0.0.0', POCKETMUX_DIR: '/srv/pmx', POCKETMUX_TMUX_SOCKET: 'env-sock' };
    const fromEnv = resolveConfig({}, env);
    expect([fromEnv.port, fromEnv.host, fromEnv.dataDir, fromEnv.tmuxSocket]).toEqual([9000, '0.0.0.0', '/srv/pmx', 'env-sock']);
    const fromFlags = resolveConfig({ port: '0', host: '::1', dataDir: '~/x', tmuxSocket: 'flag-sock' }, env);
    expect([fromFlags.port, fromFlags.host, fromFlags.dataDir, fromFlags.tmuxSocket]).toEqual([0, '::1', join(homedir(), 'x'), 'flag-sock']);
  });

  it('takes the workspace and tab caps from the environment, and refuses a cap of 0', () => {
    const c = resolveConfig({}, {});
    expect([c.maxWorkspaces, c.maxTabs, c.maxTerminalsPerDevice, c.maxOutsideSessions]).toEqual([500, 500, 8, 200]);
    const set = resolveConfig({}, { POCKETMUX_MAX_WORKSPACES: '3', POCKETMUX_MAX_TABS: '7' });
    expect([set.maxWorkspaces, set.maxTabs]).toEqual([3, 7]);
    expect(() => resolveConfig({}, { POCKETMUX_MAX_TABS: '0' })).toThrow(/POCKETMUX_MAX_TABS must be between 1 and 100000/);
  });

  it('logs at info unless POCKETMUX_LOG_LEVEL says otherwise, and refuses an unknown level', () => {
    expect(resolveConfig({}, {}).logLevel).toBe('info');
    expect(resolveConfig({}, { POCKETMUX_LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
    expect(() => resolveConfig({}, { POCKETMUX_LOG_LEVEL: 'verbose' })).toThrow(ConfigError);
  });

  it.each([
    [{ port: '80a' }, /port must be a whole number/],
    [{ port: '70000' }, /port must be between 0 and 65535/],
    [{ port: '-1' }, /whole number/],
    [{ host: 'a b' }, /not an address/],
    [{ tmuxSocket: '../../etc' }, /tmux socket name/],
  ])('refuses %o with a clear message', (flags, message) => {
    expect(() => resolveConfig(flags, {})).toThrow(ConfigError);
    expect(() => resolveConfig(flags, {})).toThrow(message);
  });

  it('takes TLS files together and a public URL as an origin', () => {
    const c = resolveConfig({ tlsCert: '~/c.pem', tlsKey: '/k.pem', publicUrl: 'https://box.tail1.ts.net' }, {});
    expect(c.tls).toEqual({ certFile: join(homedir(), 'c.pem'), keyFile: '/k.pem' });
    expect(c.publicUrl).toBe('https://box.tail1.ts.net/');
    expect(() => resolveConfig({ tlsCert: '/c.pem' }, {})).toThrow(/go together/);
    expect(() => resolveConfig({ publicUrl: 'ftp://x' }, {})).toThrow(/http:\/\/ or https:\/\//);
    expect(() => resolveConfig({ publicUrl: 'https://x/app' }, {})).toThrow(/origin only/);
    expect(() => resolveConfig({ publicUrl: 'not a url' }, {})).toThrow(/not a URL/);
  });

  it('refuses a heartbeat timeout shorter than the interval', () => {
    expect(() => resolveConfig({}, { POCKETMUX_HEARTBEAT_INTERVAL_MS: '1000', POCKETMUX_HEARTBEAT_TIMEOUT_MS: '500' })).toThrow(
      /longer than the heartbeat interval/,
    );
  });
});

describe('login PATH extraction', () => {
  it('finds the PATH between markers despite what rc files print', () => {
    expect(extractMarkedPath('Welcome!\nfortune says hi\n__POCKETMUX_PATH__/a/bin:/usr/bin__POCKETMUX_PATH__')).toBe('/a/bin:/usr/bin');
  });
  it('returns null without both markers or with an empty PATH', () => {
    expect(extractMarkedPath('nothing')).toBeNull();
    expect(extractMarkedPath('__POCKETMUX_PATH__/a')).toBeNull();
    expect(extractMarkedPath('__POCKETMUX_PATH____POCKETMUX_PATH__')).toBeNull();
  });
});

describe('access helpers', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

  it('reads one cookie among several', () => {
    expect(readCookie('a=1; pmx_x=secret; b=2', 'pmx_x')).toBe('secret');
    expect(readCookie('pmx_xy=other', 'pmx_x')).toBeUndefined();
    expect(readCookie(undefined, 'pmx_x')).toBeUndefined();
    expect(readCookie('broken; ;=', 'pmx_x')).toBeUndefined();
  });

  it('allows no Origin or the same origin, and refuses any other', () => {
    expect(originAllowed(req({ host: '127.0.0.1:8420' }))).toBe(true);
    expect(originAllowed(req({ host: '127.0.0.1:8420', origin: 'http://127.0.0.1:8420' }))).toBe(true);
    expect(originAllowed(req({ host: '127.0.0.1:8420', origin: 'http://evil.example' }))).toBe(false);
    expect(originAllowed(req({ host: '127.0.0.1:8420', origin: 'http://127.0.0.1:9999' }))).toBe(false);
    expect(originAllowed(req({ host: '127.0.0.1:8420', origin: 'null' }))).toBe(false);
    expect(originAllowed(req({ host: '127.0.0.1:8420', origin: 'file://' }))).toBe(false);
    expect(originAllowed(req({ origin: 'http://127.0.0.1:8420' }))).toBe(false);
  });

  it('names a device from its user agent', () => {
    expect(guessDeviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36')).toBe(
      'Chrome on Android',
    );
    expect(guessDeviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605 Version/17.0 Mobile/15E148 Safari/604.1')).toBe(
      'Safari on iOS',
    );
    expect(guessDeviceName(undefined)).toBe('Unknown device');
  });
});

describe('proxy settings for tabs', () => {
  it("keeps the person's NO_PROXY entries from either spelling and adds loopback once", () => {
    expect(noProxyWithLoopback({})).toEqual({ NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost' });
    const merged = noProxyWithLoopback({ NO_PROXY: 'corp.example, localhost', no_proxy: '.internal,corp.example' });
    expect(merged.NO_PROXY).toBe('corp.example,localhost,.internal,127.0.0.1');
    expect(merged.no_proxy).toBe(merged.NO_PROXY);
  });
});
