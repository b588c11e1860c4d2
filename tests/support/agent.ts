/**
 * Starts a real pocketmux agent for a test: the built CLI in its own process, with its own
 * data dir, HOME, tmux socket and a free port. Everything it starts is stopped by `cleanup`.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { descendants, processLister } from '../../agent/claude/process.js';
import { defaultTmuxSocket } from '../../agent/config/tmux-socket.js';
import { testSocketName, tmuxSocketPath } from './temp.js';
import { eventually } from './eventually.js';
import { collectOutput } from './child-output.js';
import { processAlive } from '../../agent/util/process-alive.js';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const AGENT_BIN = join(REPO_ROOT, 'bin', 'pocketmux.js');

export interface AgentHandle {
  process: ChildProcess;
  pid: number;
  port: number;
  url: string;
  /** The pairing URL the agent printed at start (`#pair=<secret>`). */
  link: string;
  /** The pairing secret from that URL. */
  token: string;
  /** The short code printed beside it, as shown (XXXX-XXXX). */
  pairCode: string;
  dataDir: string;
  home: string;
  root: string;
  tmuxSocket: string;
  stdout(): string;
  stderr(): string;
  /** Sends a signal and waits for the process to exit; returns its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  /** Reuse a test environment (data dir, HOME, tmux socket) from an earlier agent. */
  reuse?: Pick<AgentHandle, 'dataDir' | 'home' | 'root' | 'tmuxSocket'>;
  env?: Record<string, string>;
  args?: string[];
  /** Another build's `bin/pocketmux.js`, to measure a baseline beside this one. */
  bin?: string;
  /** No --tmux-socket: the agent runs its data dir's own tmux server (`tmuxSocket` names it). */
  dataDirSocket?: boolean;
}

const started: { root: string; tmuxSocket: string; proc: ChildProcess }[] = [];

/**
 * A self-signed certificate for 127.0.0.1 (and localhost), made for one test in `dir`: the
 * files for `--tls-cert` and `--tls-key`.
 */
export function testCertificate(dir: string, days = 30): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', String(days), '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** Every test environment's root, removed by cleanupAgents whether or not an agent ran in it. */
const environmentRoots = new Set<string>();

/** Each test tmux server's HOME: a server the test's own `tmux` starts runs its shells there too. */
const homeOfSocket = new Map<string, string>();

export function newTestEnvironment(): Pick<AgentHandle, 'dataDir' | 'home' | 'root' | 'tmuxSocket'> {
  const root = mkdtempSync(join(tmpdir(), 'pocketmux-test-'));
  environmentRoots.add(root);
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const tmuxSocket = testSocketName('test');
  homeOfSocket.set(tmuxSocket, home);
  return { root, home, dataDir: join(root, 'data'), tmuxSocket };
}

export function agentEnv(env: Pick<AgentHandle, 'home'>, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: env.home,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    ...extra,
  };
  return out;
}

export async function startAgent(options: StartOptions = {}): Promise<AgentHandle> {
  const given = options.reuse ?? newTestEnvironment();
  const env = options.dataDirSocket ? { ...given, tmuxSocket: defaultTmuxSocket(given.dataDir, given.home) } : given;
  homeOfSocket.set(env.tmuxSocket, env.home);
  const socketArgs = options.dataDirSocket ? [] : ['--tmux-socket', env.tmuxSocket];
  const proc = spawn(
    process.execPath,
    [options.bin ?? AGENT_BIN, 'start', '--port', '0', '--data-dir', env.dataDir, ...socketArgs, ...(options.args ?? [])],
    { env: agentEnv(env, options.env), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started.push({ root: env.root, tmuxSocket: env.tmuxSocket, proc });
  let out = '';
  let err = '';
  proc.stdout?.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  proc.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });

  const link = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`agent did not start in 20 s\nstdout:\n${out}\nstderr:\n${err}`)), 20_000);
    const check = () => {
      const m = /(https?:\/\/\S+#pair=\S+)/.exec(out);
      if (m && /enter the code: [A-Z0-9]{4}-[A-Z0-9]{4}/.test(out)) {
        clearTimeout(timer);
        resolvePromise(m[1] as string);
      }
    };
    proc.stdout?.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`agent exited with ${code} before it was ready\nstdout:\n${out}\nstderr:\n${err}`));
    });
  });
  const url = new URL(link);
  return {
    ...env,
    process: proc,
    pid: proc.pid as number,
    port: Number(url.port),
    url: `${url.origin}/`,
    link,
    token: url.hash.replace(/^#pair=/, ''),
    pairCode: (/enter the code: ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(out) as RegExpExecArray)[1] as string,
    stdout: () => out,
    stderr: () => err,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill(signal);
      const [code] = (await once(proc, 'exit')) as [number | null];
      return code;
    },
  };
}

/**
 * Runs the pocketmux CLI to completion and returns what it printed (decoded as UTF-8). With
 * `cutAfterMs`, a CLI still running then is killed and reported with code null: a hang fails
 * the test rather than outlasting it.
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv, cutAfterMs?: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [AGENT_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collectOutput(child);
  const cut = cutAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), cutAfterMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(cut);
  return { code, stdout: output.stdout, stderr: output.stderr };
}

/**
 * Runs tmux against a test agent's server, in that test's environment: when this command is
 * what starts the server (a session made by hand before the agent made any), its shells get
 * the test's HOME, not the person's, whose shell startup files may take a minute.
 */
export function tmux(socket: string, ...args: string[]): Promise<string> {
  const home = homeOfSocket.get(socket);
  const env = home === undefined ? process.env : agentEnv({ home });
  return new Promise((resolvePromise, reject) => {
    execFile('tmux', ['-L', socket, ...args], { timeout: 5_000, env }, (error, stdout, stderr) => {
      if (error) reject(new Error(`tmux ${args.join(' ')}: ${stderr || error.message}`));
      else resolvePromise(stdout);
    });
  });
}

/** Stops every agent this test file started, kills their tmux servers, removes their dirs. */
export async function cleanupAgents(): Promise<void> {
  const all = started.splice(0);
  // Every process first: a later agent may share an earlier one's dirs (a restart test).
  for (const { proc } of all) {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL');
      await once(proc, 'exit').catch(() => undefined);
    }
  }
  // Everything running in the panes (claude among it) is waited for: it writes as it dies.
  const table = await processLister().list();
  const inPanes: number[] = [];
  for (const socket of new Set(all.map((a) => a.tmuxSocket))) {
    const panes = await tmux(socket, 'list-panes', '-a', '-F', '#{pane_pid}\t#{socket_path}').catch(() => '');
    const rows = panes.split('\n').filter(Boolean).map((l) => l.split('\t'));
    for (const [pid] of rows) inPanes.push(Number(pid), ...descendants(table, Number(pid)));
    await tmux(socket, 'kill-server').catch(() => undefined);
    // kill-server leaves the socket file behind, also where no pane is left to say where it is.
    rmSync(rows[0]?.[1] ?? tmuxSocketPath(socket), { force: true });
  }
  await eventually(() => !inPanes.some(processAlive), 10_000, 'the processes of the panes to end').catch(() => undefined);
  for (const pid of inPanes.filter(processAlive)) process.kill(pid, 'SIGKILL');
  const roots = new Set([...all.map((a) => a.root), ...environmentRoots]);
  environmentRoots.clear();
  for (const root of roots) {
    // A process killed a moment ago (claude in a pane) may still be writing as it dies.
    rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
