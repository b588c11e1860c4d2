import { execFile } from 'node:child_process';
import { userInfo } from 'node:os';
import type { Logger } from '../util/log.js';

const MARK = '__POCKETMUX_PATH__';

/** The person's login shell: $SHELL, else the passwd entry, else /bin/sh. */
export function loginShell(env: NodeJS.ProcessEnv): string {
  if (env.SHELL?.startsWith('/')) return env.SHELL;
  try {
    const shell = userInfo().shell;
    if (shell?.startsWith('/')) return shell;
  } catch {
    // No passwd entry (some containers).
  }
  return '/bin/sh';
}

/** Pulls the PATH printed between markers out of whatever a login shell's rc files printed. */
export function extractMarkedPath(output: string): string | null {
  const start = output.indexOf(MARK);
  if (start < 0) return null;
  const end = output.indexOf(MARK, start + MARK.length);
  if (end < 0) return null;
  const path = output.slice(start + MARK.length, end).trim();
  return path.length > 0 ? path : null;
}

/**
 * Asks the login shell for its PATH, so `claude` and the person's tools are found even when
 * the agent was started by a service manager or from a bare environment. Falls back to the
 * agent's own PATH (with common directories added) when the shell fails or takes too long.
 */
export async function resolveLoginPath(env: NodeJS.ProcessEnv, timeoutMs = 5_000): Promise<{ path: string; source: 'login-shell' | 'fallback' }> {
  const shell = loginShell(env);
  const script = `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`;
  const printed = await new Promise<string | null>((resolve) => {
    execFile(
      shell,
      ['-l', '-c', script],
      { env: { ...env, TERM: 'dumb' }, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (err, stdout) => resolve(err ? null : stdout),
    );
  });
  const path = printed === null ? null : extractMarkedPath(printed);
  if (path) return { path, source: 'login-shell' };
  const extra = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/sbin', '/sbin'];
  const parts = (env.PATH ?? '').split(':').filter(Boolean);
  for (const dir of extra) if (!parts.includes(dir)) parts.push(dir);
  return { path: parts.join(':'), source: 'fallback' };
}

export interface LoginEnvironment {
  shell: string;
  /** The login shell's PATH, so new shells and claude find what a terminal would. */
  path: string;
  /** The agent's environment for tmux and its clients, with the login PATH. */
  env: Record<string, string>;
}

/**
 * The environment tmux and every shell in it start from. An agent started inside tmux
 * passes on neither TMUX nor TMUX_PANE: tmux refuses to attach a client that looks nested,
 * and the outer pane's id means nothing on the agent's server.
 */
export async function loginEnvironment(env: NodeJS.ProcessEnv, log: Logger): Promise<LoginEnvironment> {
  const login = await resolveLoginPath(env);
  if (login.source === 'fallback') log.warn('could not read the login shell PATH; using the agent PATH', { path: login.path });
  const forTmux: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && k !== 'TMUX' && k !== 'TMUX_PANE') forTmux[k] = v;
  forTmux.PATH = login.path;
  return { shell: loginShell(env), path: login.path, env: forTmux };
}

/** The names the agent is reached by on this machine (Claude's HTTP hooks use the first). */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'] as const;

/**
 * NO_PROXY for the shells and claudes in tabs: their HTTP(S)_PROXY stays for the rest of the
 * world, but the agent on loopback is reached directly. Claude's HTTP hooks follow the proxy
 * variables, so behind a proxy they would otherwise never reach the agent. Both spellings
 * get the same list: tools disagree on which one they read.
 */
export function noProxyWithLoopback(env: NodeJS.ProcessEnv): { NO_PROXY: string; no_proxy: string } {
  const hosts: string[] = [];
  for (const value of [env.NO_PROXY, env.no_proxy]) {
    for (const host of (value ?? '').split(',')) {
      const trimmed = host.trim();
      if (trimmed && !hosts.includes(trimmed)) hosts.push(trimmed);
    }
  }
  for (const host of LOOPBACK_HOSTS) if (!hosts.includes(host)) hosts.push(host);
  const list = hosts.join(',');
  return { NO_PROXY: list, no_proxy: list };
}
