import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { HEARTBEAT_INTERVAL_MS, HEARTBEAT_TIMEOUT_MS } from '../../protocol/limits.js';
import type { LogLevel } from '../util/log.js';
import { dataDirProblem } from './data-dir-check.js';
import { PERMISSION_HOOK_TIMEOUT_S } from './limits.js';
import { expandHome } from './home.js';
import { DEFAULT_TMUX_SOCKET, defaultTmuxSocket } from './tmux-socket.js';

// Where it always was, for the callers that load the rest of the configuration anyway.
export { expandHome };

/**
 * Claude waits PERMISSION_HOOK_TIMEOUT_S for the PermissionRequest hook and the script's curl
 * 5 s less; the agent answers 5 s before that, leaving room for a slow machine.
 */
export const APPROVAL_HOLD_MAX_MS = (PERMISSION_HOOK_TIMEOUT_S - 10) * 1000;
/**
 * How long a request waits for a device before it is left to the terminal, unless a guardrail
 * says otherwise: Claude's own dialog shows in the terminal all the while.
 */
export const DEFAULT_APPROVAL_HOLD_MS = 590_000;

export interface AgentConfig {
  port: number;
  host: string;
  dataDir: string;
  /**
   * Name of the agent's own tmux server socket (`tmux -L <name>`): by default one per data
   * dir (see defaultTmuxSocket).
   */
  tmuxSocket: string;
  tmuxBin: string;
  heartbeatIntervalMs: number;
  heartbeatTimeoutMs: number;
  maxTerminalConnections: number;
  /** Terminal connections one device may hold; past it, its own oldest is dropped. */
  maxTerminalsPerDevice: number;
  /** Workspaces and tabs the agent keeps at most; creating more is refused. */
  maxWorkspaces: number;
  maxTabs: number;
  /** Claude sessions outside the agent's tabs remembered from hooks; past it the least active is forgotten. */
  maxOutsideSessions: number;
  /** How often the agent checks that each Claude outside the tabs still runs (its process, else its pane). */
  outsidePollMs: number;
  /** How often pane titles are polled while a client watches (/api/sync). */
  titlePollMs: number;
  /** The claude command; resolved on the login PATH when it has no slash. */
  claudeBin: string;
  /** The codex command for Codex tabs; resolved on the login PATH when it has no slash. */
  codexBin: string;
  /** Extra arguments for every claude the agent starts. */
  claudeArgs: string[];
  /** Restart a Claude tab with `--resume <its session>` after a reboot. */
  resumeClaudeAfterReboot: boolean;
  /** Codex's home (`CODEX_HOME`, else ~/.codex): its rollouts live in `sessions/` there. */
  codexHome: string;
  /** Claude Code's config dir (`CLAUDE_CONFIG_DIR`, else ~/.claude): sessions and transcripts live there. */
  claudeConfigDir: string;
  /** How long a PermissionRequest hook is held for an answer before the approval expires. */
  approvalHoldMs: number;
  /** What a guardrail's minute lasts: a minute, shorter only in tests. */
  guardrailMinuteMs: number;
  /** The longest wait before following a linked machine again (`POCKETMUX_MACHINE_BACKOFF_MAX_MS`, default 30 s). */
  machineBackoffMaxMs: number;
  /** How often the transcript of a working Claude tab is read for the synthetic interrupt. */
  transcriptPollMs: number;
  /** How long a pairing code stays valid. */
  pairingTtlMs: number;
  /** Serve HTTPS with this certificate and key (PEM files). */
  tls: { certFile: string; keyFile: string } | null;
  /** The URL phones reach the agent at (what the QR carries), when it is not the bound address. */
  publicUrl: string | null;
  /** Put `tailscale serve` in front of the agent (the tailscale CLI, or null when off). */
  tailscaleBin: string | null;
  /** Fixed safety-net poll period; by default it grows from 30 s to 60 s with the tab count. */
  safetyPollMs: number | null;
  /** Push service hosts accepted beside the known ones (`POCKETMUX_PUSH_HOSTS`, comma-separated). */
  pushHosts: string[];
  /** Also accept `http://127.0.0.1:<port>` push endpoints (`POCKETMUX_PUSH_INSECURE_LOOPBACK=1`), for tests. */
  pushInsecureLoopback: boolean;
  /** Record the event loop's delay every second (`POCKETMUX_MEASURE_LOOP_DELAY=1`), for the benchmarks. */
  measureLoopDelay: boolean;
  /**
   * Run by a service manager (`POCKETMUX_SERVICE=1`, set by `pocketmux service install`): the
   * start banner leaves out the pairing secret, which would be kept in the journal, and the log
   * goes to its rotated file only, not to stderr as well.
   */
  service: boolean;
  /** The least important log lines written; `debug` adds one line per hook event. */
  logLevel: LogLevel;
}

export const DEFAULTS = {
  port: 8420,
  host: '127.0.0.1',
  /** The default data dir's; any other data dir's is derived from it (defaultTmuxSocket). */
  tmuxSocket: DEFAULT_TMUX_SOCKET,
  heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
  heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
  maxTerminalConnections: 32,
  maxTerminalsPerDevice: 8,
  maxWorkspaces: 500,
  maxTabs: 500,
  maxOutsideSessions: 200,
  outsidePollMs: 5_000,
  titlePollMs: 2_000,
} as const;

export class ConfigError extends Error {}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function logLevel(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((l) => l === raw.toLowerCase());
  if (!level) throw new ConfigError(`POCKETMUX_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

export interface ConfigInput {
  claudeBin?: string | undefined;
  codexBin?: string | undefined;
  tlsCert?: string | undefined;
  tailscale?: boolean | undefined;
  tlsKey?: string | undefined;
  publicUrl?: string | undefined;
  port?: string | undefined;
  host?: string | undefined;
  dataDir?: string | undefined;
  tmuxSocket?: string | undefined;
}

function parseIntIn(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number.parseInt(raw, 10);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/**
 * Flags win over environment variables, which win over defaults. Every value is checked
 * here so a typo stops the agent with a message rather than a strange failure later.
 */
export function resolveConfig(flags: ConfigInput, env: NodeJS.ProcessEnv): AgentConfig {
  const portRaw = flags.port ?? env.POCKETMUX_PORT;
  const port = portRaw === undefined ? DEFAULTS.port : parseIntIn('port', portRaw, 0, 65535);

  const host = (flags.host ?? env.POCKETMUX_HOST ?? DEFAULTS.host).trim();
  if (host === '' || /[\s/]/.test(host)) throw new ConfigError(`host "${host}" is not an address`);

  const dataDirRaw = flags.dataDir ?? env.POCKETMUX_DIR ?? '~/.pocketmux';
  const expanded = expandHome(dataDirRaw);
  const dataDir = isAbsolute(expanded) ? expanded : resolve(expanded);
  const dataDirRefused = dataDirProblem(dataDir);
  if (dataDirRefused) throw new ConfigError(dataDirRefused);

  const tmuxSocket = flags.tmuxSocket ?? env.POCKETMUX_TMUX_SOCKET ?? defaultTmuxSocket(dataDir, homedir());
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(tmuxSocket)) {
    throw new ConfigError(`tmux socket name "${tmuxSocket}" may use only letters, digits, '_', '.', '-'`);
  }

  const ms = (name: string, fallback: number) => {
    const raw = env[name];
    return raw === undefined ? fallback : parseIntIn(name, raw, 10, 3_600_000);
  };
  const heartbeatIntervalMs = ms('POCKETMUX_HEARTBEAT_INTERVAL_MS', DEFAULTS.heartbeatIntervalMs);
  const heartbeatTimeoutMs = ms('POCKETMUX_HEARTBEAT_TIMEOUT_MS', DEFAULTS.heartbeatTimeoutMs);
  if (heartbeatTimeoutMs <= heartbeatIntervalMs) {
    throw new ConfigError('POCKETMUX_HEARTBEAT_TIMEOUT_MS must be longer than the heartbeat interval');
  }

  const count = (name: string, fallback: number) => {
    const raw = env[name];
    return raw === undefined ? fallback : parseIntIn(name, raw, 1, 100_000);
  };

  const certFile = flags.tlsCert ?? env.POCKETMUX_TLS_CERT;
  const keyFile = flags.tlsKey ?? env.POCKETMUX_TLS_KEY;
  if ((certFile === undefined) !== (keyFile === undefined)) throw new ConfigError('--tls-cert and --tls-key go together');
  const tls = certFile && keyFile ? { certFile: resolve(expandHome(certFile)), keyFile: resolve(expandHome(keyFile)) } : null;

  const publicRaw = flags.publicUrl ?? env.POCKETMUX_PUBLIC_URL;
  let publicUrl: string | null = null;
  if (publicRaw !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(publicRaw);
    } catch {
      throw new ConfigError(`--public-url "${publicRaw}" is not a URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new ConfigError('--public-url must be http:// or https://');
    if (parsed.pathname !== '/' || parsed.search || parsed.hash) throw new ConfigError('--public-url is an origin only, like https://box.example.ts.net/');
    publicUrl = `${parsed.origin}/`;
  }

  const tailscale = flags.tailscale === true || /^(1|true|yes|on)$/i.test(env.POCKETMUX_TAILSCALE ?? '');
  if (tailscale && (tls || publicRaw !== undefined)) throw new ConfigError('--tailscale provides HTTPS and the public URL itself: drop --tls-cert/--public-url');
  if (tailscale && !/^(127\.|localhost$|::1$)/.test(host)) throw new ConfigError('--tailscale keeps the agent on loopback: drop --host');

  return {
    tls,
    publicUrl,
    tailscaleBin: tailscale ? (env.POCKETMUX_TAILSCALE_BIN ?? 'tailscale') : null,
    port,
    host,
    dataDir,
    tmuxSocket,
    tmuxBin: env.POCKETMUX_TMUX_BIN ?? 'tmux',
    heartbeatIntervalMs,
    heartbeatTimeoutMs,
    maxTerminalConnections: DEFAULTS.maxTerminalConnections,
    maxTerminalsPerDevice: DEFAULTS.maxTerminalsPerDevice,
    maxWorkspaces: count('POCKETMUX_MAX_WORKSPACES', DEFAULTS.maxWorkspaces),
    maxTabs: count('POCKETMUX_MAX_TABS', DEFAULTS.maxTabs),
    maxOutsideSessions: DEFAULTS.maxOutsideSessions,
    outsidePollMs: ms('POCKETMUX_OUTSIDE_POLL_MS', DEFAULTS.outsidePollMs),
    titlePollMs: ms('POCKETMUX_TITLE_POLL_MS', DEFAULTS.titlePollMs),
    claudeBin: flags.claudeBin ?? env.POCKETMUX_CLAUDE ?? 'claude',
    codexBin: flags.codexBin ?? env.POCKETMUX_CODEX ?? 'codex',
    claudeArgs: (env.POCKETMUX_CLAUDE_ARGS ?? '').split(/\s+/).filter(Boolean),
    resumeClaudeAfterReboot: !/^(0|false|no|off)$/i.test(env.POCKETMUX_CLAUDE_RESUME ?? ''),
    claudeConfigDir: resolve(expandHome(env.CLAUDE_CONFIG_DIR ?? '~/.claude')),
    codexHome: resolve(expandHome(env.CODEX_HOME ?? '~/.codex')),
    transcriptPollMs: ms('POCKETMUX_TRANSCRIPT_POLL_MS', 1_000),
    // Never longer than Claude waits: an answer after its hook timed out would be lost.
    approvalHoldMs: Math.min(ms('POCKETMUX_APPROVAL_HOLD_MS', DEFAULT_APPROVAL_HOLD_MS), APPROVAL_HOLD_MAX_MS),
    guardrailMinuteMs: ms('POCKETMUX_GUARDRAIL_MINUTE_MS', 60_000),
    machineBackoffMaxMs: ms('POCKETMUX_MACHINE_BACKOFF_MAX_MS', 30_000),
    pairingTtlMs: ms('POCKETMUX_PAIRING_TTL_MS', 10 * 60_000),
    safetyPollMs: env.POCKETMUX_SAFETY_POLL_MS === undefined ? null : ms('POCKETMUX_SAFETY_POLL_MS', 30_000),
    pushHosts: (env.POCKETMUX_PUSH_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    pushInsecureLoopback: /^(1|true|yes|on)$/i.test(env.POCKETMUX_PUSH_INSECURE_LOOPBACK ?? ''),
    measureLoopDelay: /^(1|true|yes|on)$/i.test(env.POCKETMUX_MEASURE_LOOP_DELAY ?? ''),
    service: /^(1|true|yes|on)$/i.test(env.POCKETMUX_SERVICE ?? ''),
    logLevel: logLevel(env.POCKETMUX_LOG_LEVEL),
  };
}
