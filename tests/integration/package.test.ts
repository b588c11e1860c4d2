/**
 * The npm package as a person gets it: `npm pack` of the current build (`npm test` builds
 * first; the pack skips `prepack` so it does not rebuild dist/ under the tests running
 * beside it), installed globally into a temporary prefix, started, and run once by `npx`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEnv, newTestEnvironment, REPO_ROOT, tmux } from '../support/agent.js';

const MAX_TARBALL_BYTES = 5 * 1024 * 1024;

const env = newTestEnvironment();
const packDir = join(env.root, 'pack');
const prefix = join(env.root, 'prefix');
let tarball = '';
let files: string[] = [];
const agents: ChildProcess[] = [];

/** The caller's environment without what an enclosing `npm run` or `npx` put there for itself. */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

function run(command: 'npm' | 'npx', args: string[], cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env: npmEnv(), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

const npm = (args: string[], cwd: string, timeoutMs: number) => run('npm', args, cwd, timeoutMs);

/** Directories of npx's cache made for our tarball: npx leaves them behind. */
async function npxDirsForTarball(): Promise<string[]> {
  const npxRoot = join((await npm(['config', 'get', 'cache'], env.root, 30_000)).trim(), '_npx');
  if (!existsSync(npxRoot)) return [];
  return readdirSync(npxRoot)
    .map((d) => join(npxRoot, d))
    .filter((d) => {
      try {
        return readFileSync(join(d, 'package.json'), 'utf8').includes(tarball);
      } catch {
        return false;
      }
    });
}

beforeAll(async () => {
  if (!existsSync(join(REPO_ROOT, 'dist', 'agent', 'cli', 'main.js')) || !existsSync(join(REPO_ROOT, 'dist', 'pwa', 'index.html'))) {
    throw new Error('no build to pack: run `npm run build` first');
  }
  mkdirSync(packDir);
  const [packed] = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], REPO_ROOT, 120_000)) as {
    filename: string;
    size: number;
    files: { path: string }[];
  }[];
  if (!packed) throw new Error('npm pack packed nothing');
  tarball = join(packDir, packed.filename);
  files = packed.files.map((f) => f.path);
  console.log(`package: ${packed.filename}, ${(packed.size / 1024).toFixed(0)} KiB, ${files.length} files`);
}, 180_000);

afterAll(async () => {
  for (const proc of agents) {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL');
      await once(proc, 'exit').catch(() => undefined);
    }
  }
  // kill-server leaves the socket file behind; a server that already exited cannot say where it was.
  const socketPath =
    (await tmux(env.tmuxSocket, 'display-message', '-p', '#{socket_path}').catch(() => '')).trim() ||
    join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, env.tmuxSocket);
  await tmux(env.tmuxSocket, 'kill-server').catch(() => undefined);
  rmSync(socketPath, { force: true });
  if (tarball) for (const dir of await npxDirsForTarball()) rmSync(dir, { recursive: true, force: true });
  rmSync(env.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}, 60_000);

describe('npm pack', () => {
  it('is small and holds only what the agent runs and serves', () => {
    expect(existsSync(tarball)).toBe(true);
    expect(readFileSync(tarball).length).toBeLessThan(MAX_TARBALL_BYTES);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'bin/pocketmux.js', 'dist/agent/cli/main.js', 'dist/protocol/safe-text.js', 'dist/pwa/index.html']));
    const allowed = /^(package\.json|README\.md|LICENSE|bin\/pocketmux\.js|dist\/agent\/.+\.js|dist\/protocol\/.+\.js|dist\/pwa\/.+)$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith('tests/') || (f.endsWith('.ts') && !f.endsWith('.d.ts')) || f.endsWith('.map'))).toEqual([]);
  });

  it('holds no build output left behind by a source since removed', () => {
    const stale = files
      .filter((f) => /^dist\/(agent|protocol)\/.+\.js$/.test(f))
      .filter((f) => !existsSync(join(REPO_ROOT, f.replace(/^dist\//, '').replace(/\.js$/, '.ts'))));
    expect(stale).toEqual([]);
  });
});

describe('npm install -g of the tarball', () => {
  const bin = join(prefix, 'bin', 'pocketmux');
  const installed = join(prefix, 'lib', 'node_modules', 'pocketmux');

  it('installs with node-pty built and no build-time dependencies', async () => {
    const started = Date.now();
    await npm(['install', '-g', '--prefix', prefix, '--allow-scripts=node-pty', '--prefer-offline', '--no-audit', '--no-fund', tarball], env.root, 400_000);
    console.log(`npm install -g took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(realpathSync(bin)).toBe(realpathSync(join(installed, 'bin', 'pocketmux.js')));
    expect(existsSync(join(installed, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node'))).toBe(true);
    for (const dev of ['vite', 'lit', 'typescript', 'vitest', '@xterm/xterm']) expect(existsSync(join(installed, 'node_modules', dev)), dev).toBe(false);
  }, 420_000);

  it('starts the agent, serves the PWA and names itself `pocketmux` when that is on PATH', async () => {
    const proc = spawn(bin, ['start', '--port', '0', '--data-dir', env.dataDir, '--tmux-socket', env.tmuxSocket], {
      env: agentEnv(env, { PATH: `${join(prefix, 'bin')}:${process.env.PATH}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    agents.push(proc);
    let out = '';
    let err = '';
    proc.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    proc.stderr?.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the installed agent did not start in 30 s\nstdout:\n${out}\nstderr:\n${err}`)), 30_000);
      proc.stdout?.on('data', () => {
        const m = /is running at (http:\/\/\S+)/.exec(out);
        if (m && out.includes('Another device later:')) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the installed agent exited with ${code}\nstdout:\n${out}\nstderr:\n${err}`));
      });
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>pocketmux</title>');
    expect(out).toContain(`Another device later: pocketmux pair --data-dir ${env.dataDir}\n`);

    proc.kill('SIGTERM');
    const [code] = (await once(proc, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('names its own bin by its path when no pocketmux on PATH is this installation', async () => {
    const help = await new Promise<string>((resolve, reject) => {
      execFile(bin, ['--help'], { env: agentEnv(env), timeout: 30_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    });
    expect(help).toContain(`Run these as "${realpathSync(join(installed, 'bin', 'pocketmux.js'))} …"`);
  });
});

describe('npx --package of the tarball', () => {
  it('runs the command, and names it by the path npx installed it at, never `npx pocketmux`', async () => {
    const help = await run('npx', ['--yes', '--allow-scripts=node-pty', '--prefer-offline', '--package', tarball, 'pocketmux', '--help'], env.root, 400_000);
    expect(help).toContain('pocketmux: Claude Code sessions in your pocket');
    expect(help).toMatch(/Run these as "\/\S+\/node_modules\/pocketmux\/bin\/pocketmux\.js …"/);
    const version = await run('npx', ['--yes', '--prefer-offline', '--package', tarball, 'pocketmux', '--version'], env.root, 60_000);
    expect(version.trim()).toBe(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version);
  }, 420_000);
});
