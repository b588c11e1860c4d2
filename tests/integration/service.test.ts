/**
 * The service files really start the agent: the generated unit's ExecStart line, split by
 * systemd's quoting rules, run with its Environment= and nothing else, serves the PWA; and
 * `pocketmux service install` against a user manager that runs what the unit says, waits
 * for that agent, reports it, and `uninstall` stops it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runService, type ServiceDeps } from '../../agent/cli/service.js';
import { dataPaths } from '../../agent/config/paths.js';
import type { RunResult, Runner } from '../../agent/service/runner.js';
import { serviceCommand, serviceSpec } from '../../agent/service/spec.js';
import { systemdUnit, unitCommand, unitEnvironment } from '../../agent/service/systemd.js';
import { AGENT_BIN, agentEnv, newTestEnvironment, runCli, tmux } from '../support/agent.js';

const children: ChildProcess[] = [];
const sockets: string[] = [];
const roots: string[] = [];

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit').catch(() => undefined);
    }
  }
  for (const socket of sockets) {
    await tmux(socket, 'kill-server').catch(() => undefined);
    // kill-server leaves the socket file behind; the agents here ran without TMUX_TMPDIR.
    rmSync(join('/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
  }
  for (const root of roots) rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

/** A test environment whose data dir and script path hold what a unit file would take as syntax. */
function hostileEnvironment() {
  const env = newTestEnvironment();
  roots.push(env.root);
  sockets.push(env.tmuxSocket);
  const hostile = join(env.root, `da ta $HOME \${X} %h %% "q" 'x' \\b ;`);
  mkdirSync(hostile, { recursive: true });
  // systemd refuses quotes and backslashes in the program path itself: the rest is there.
  const nodeDir = join(env.root, 'node $X %h dir');
  mkdirSync(nodeDir);
  symlinkSync(process.execPath, join(nodeDir, 'node'));
  // node runs the real file behind a symlinked script, so the hostile path still works.
  symlinkSync(realpathSync(AGENT_BIN), join(hostile, 'pocketmux.js'));
  return { ...env, dataDir: join(hostile, 'data'), node: join(nodeDir, 'node'), script: join(hostile, 'pocketmux.js') };
}

/** Starts what a unit says, as systemd would: its ExecStart words, its Environment= only, in ~. */
function runUnit(unit: string, home: string): { child: ChildProcess; stdout: () => string; stderr: () => string } {
  const argv = unitCommand(unit);
  if (!argv?.[0]) throw new Error('no ExecStart in the unit');
  const child = spawn(argv[0], argv.slice(1), { env: unitEnvironment(unit), cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  return { child, stdout: () => out, stderr: () => err };
}

/**
 * A login shell's PATH: this process's, without what npm adds to it for a script
 * (node_modules/.bin, node-gyp-bin), which the unit leaves out, and each directory once.
 */
const loginPath = () => [...new Set((process.env.PATH ?? '/usr/bin:/bin').split(':').filter((dir) => dir.startsWith('/') && !dir.includes('/node_modules/') && !dir.includes('node-gyp-bin')))].join(':');
const loginEnv = () => ({ PATH: loginPath(), SHELL: '/bin/bash', LANG: 'C.UTF-8' });

describe('the generated systemd unit', () => {
  it("starts the agent from its ExecStart line, exactly as written", async () => {
    const env = hostileEnvironment();
    const spec = serviceSpec({
      flags: { port: '0', dataDir: env.dataDir, tmuxSocket: env.tmuxSocket },
      env: loginEnv(),
      node: env.node,
      script: env.script,
      home: env.home,
    });
    const unit = systemdUnit(spec);
    expect(unitCommand(unit)).toEqual(serviceCommand(spec));
    expect(unitCommand(unit)).toEqual([env.node, env.script, 'start', '--data-dir', env.dataDir, '--port', '0', '--tmux-socket', env.tmuxSocket]);
    expect(unitEnvironment(unit)).toEqual({ HOME: env.home, ...loginEnv(), POCKETMUX_SERVICE: '1' });

    const agent = runUnit(unit, env.home);
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL in 20 s\nstdout:\n${agent.stdout()}\nstderr:\n${agent.stderr()}`)), 20_000);
      agent.child.stdout?.on('data', () => {
        const m = /is running at (http:\/\/\S+)/.exec(agent.stdout());
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      });
      agent.child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`agent exited with ${code}\nstdout:\n${agent.stdout()}\nstderr:\n${agent.stderr()}`));
      });
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<html');
    // Its own log is where `service status` says it is.
    expect(existsSync(dataPaths(env.dataDir).log)).toBe(true);
    expect(agent.stdout()).toContain(`Data: ${env.dataDir}`);
    // Kept by the journal: how to pair, never a pairing secret; the log goes to its file only.
    expect(agent.stdout()).toMatch(/Pair a device: (pocketmux|\/\S+\/bin\/pocketmux\.js) pair --data-dir /);
    expect(agent.stdout()).not.toContain('#pair=');
    expect(agent.stderr()).not.toMatch(/ info /);

    agent.child.kill('SIGTERM');
    const [code] = (await once(agent.child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });
});

describe('pocketmux service install, against a user manager that runs the unit', () => {
  it('waits for the started agent, reports it, and uninstall stops it', async () => {
    const env = hostileEnvironment();
    let agent: ReturnType<typeof runUnit> | null = null;
    const alive = () => agent !== null && agent.child.exitCode === null && agent.child.signalCode === null;
    const unitPath = join(env.home, '.config', 'systemd', 'user', 'pocketmux.service');
    const ok = (stdout = ''): RunResult => ({ code: 0, stdout, stderr: '' });
    const calls: string[] = [];
    const run: Runner = async (command, args) => {
      calls.push([command, ...args].join(' '));
      if (command !== 'systemctl') return ok();
      const verb = args[1];
      if (verb === 'restart') agent = runUnit(readFileSync(unitPath, 'utf8'), env.home);
      if (verb === 'disable' && agent && alive()) {
        agent.child.kill('SIGTERM');
        await once(agent.child, 'exit');
      }
      if (verb === 'show') {
        const state = alive() ? 'ActiveState=active\nSubState=running' : agent ? 'ActiveState=failed\nSubState=failed' : 'ActiveState=inactive\nSubState=dead';
        return ok(`${state}\nMainPID=${alive() ? agent?.child.pid : 0}\nUnitFileState=enabled\n`);
      }
      return ok();
    };
    let out = '';
    let err = '';
    const deps: ServiceDeps = {
      platform: 'linux',
      env: { ...loginEnv(), HOME: env.home },
      home: env.home,
      uid: process.getuid?.() ?? 0,
      node: env.node,
      script: () => env.script,
      run,
      out: (t) => {
        out += t;
      },
      err: (t) => {
        err += t;
      },
      waitMs: 30_000,
      pollMs: 100,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    command: 'pocketmux',
      lingering: () => true,
    };

    const code = await runService(['install'], { port: '0', 'data-dir': env.dataDir, 'tmux-socket': env.tmuxSocket }, deps);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const pid = (agent as ReturnType<typeof runUnit> | null)?.child.pid;
    expect(out).toContain(`pocketmux runs as a service (pid ${pid})`);
    const port = readFileSync(dataPaths(env.dataDir).port, 'utf8').trim();
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);

    out = '';
    expect(await runService(['status'], { json: true }, deps)).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ installed: true, running: true, pid, dataDir: env.dataDir });

    // The agent handles SIGTERM once it has printed its URL (its port file comes a moment before).
    await expect.poll(() => (agent as ReturnType<typeof runUnit> | null)?.stdout() ?? '', { timeout: 20_000 }).toContain('is running at');
    out = '';
    expect(await runService(['uninstall'], {}, deps)).toBe(0);
    expect(alive()).toBe(false);
    expect((agent as ReturnType<typeof runUnit> | null)?.child.exitCode).toBe(0);
    expect(existsSync(unitPath)).toBe(false);
    expect(calls.filter((c) => !c.includes(' show '))).toEqual([
      'systemctl --user daemon-reload',
      'systemctl --user enable pocketmux.service',
      'systemctl --user restart pocketmux.service',
      'systemctl --user disable --now pocketmux.service',
      'systemctl --user daemon-reload',
    ]);
  });
});

describe('pocketmux service from the command line', () => {
  it.skipIf(process.platform !== 'linux')('is dispatched by main: status of nothing installed, usage errors', async () => {
    const env = newTestEnvironment();
    roots.push(env.root);
    const status = await runCli(['service', 'status', '--json'], agentEnv(env));
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout)).toMatchObject({ manager: 'systemd', installed: false, path: join(env.home, '.config', 'systemd', 'user', 'pocketmux.service') });
    const bad = await runCli(['service', 'install', '--port', 'x', '--data-dir', env.dataDir], agentEnv(env));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('port must be a whole number');
    expect(existsSync(join(env.home, '.config'))).toBe(false);
    const usage = await runCli(['service'], agentEnv(env));
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/usage: \S*pocketmux(\.js)? service install/);
  });
});
