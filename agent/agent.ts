import { chmodSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CloseCode } from '../protocol/close-codes.js';
import { AccessControl } from './auth/access.js';
import { hookSettingsPath, installHooks, loadHookToken, readUserStatusLine } from './claude/hook-files.js';
import { hookRouter } from './claude/hook-intake.js';
import { listClaudeSessions } from './claude/sessions.js';
import { TimelineHub } from './claude/timeline-hub.js';
import { DeviceStore } from './auth/device-store.js';
import { LinkToken } from './auth/link-token.js';
import type { AgentConfig } from './config/config.js';
import { loginShell, resolveLoginPath } from './config/login-env.js';
import { dataPaths } from './config/paths.js';
import { createAgentServer } from './http/server.js';
import { SyncHub } from './http/sync-hub.js';
import { readJsonFile, writeFileAtomic, writeJsonAtomic } from './store/atomic-file.js';
import { StatusHub } from './status/status-hub.js';
import { StatusMonitor } from './status/status-monitor.js';
import { StatusManager } from './status/status-manager.js';
import { InstanceLock } from './store/lock.js';
import { WorkspaceStore } from './store/workspace-store.js';
import { TabService } from './tabs/tab-service.js';
import { TerminalBridge } from './terminal/terminal-bridge.js';
import { Tmux } from './tmux/tmux.js';
import { newId } from './util/ids.js';
import { createLogger, type Logger } from './util/log.js';

const here = dirname(fileURLToPath(import.meta.url));
/** dist/agent/agent.js → repository root. */
const packageRoot = join(here, '..', '..');

export function agentVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const Identity = z.object({ id: z.string().regex(/^ag-[a-z0-9]+$/) });

/** A stable id for this data dir; it names the credential cookie so two agents on one host never collide. */
function loadIdentity(path: string, log: Logger): string {
  const result = readJsonFile(path, Identity);
  if (result.status === 'ok') return result.value.id;
  if (result.status === 'corrupt') log.warn('agent identity file was corrupt; made a new one', { reason: result.reason });
  const id = newId('ag');
  writeJsonAtomic(path, { id });
  return id;
}

export interface RunningAgent {
  port: number;
  host: string;
  /** Local URL of the PWA, without any secret. */
  url: string;
  /** The one-time link for the first browser, or null once used. */
  linkUrl(): string | null;
  close(): Promise<void>;
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startAgent(config: AgentConfig, opts: { log?: Logger } = {}): Promise<RunningAgent> {
  const paths = dataPaths(config.dataDir);
  mkdirSync(paths.dataDir, { recursive: true, mode: 0o700 });
  chmodSync(paths.dataDir, 0o700);
  const lock = InstanceLock.acquire(paths.lock);
  const log = opts.log ?? createLogger({ file: paths.log });

  try {
    const login = await resolveLoginPath(process.env);
    if (login.source === 'fallback') log.warn('could not read the login shell PATH; using the agent PATH', { path: login.path });

    const tmuxEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'TMUX' && k !== 'TMUX_PANE') tmuxEnv[k] = v;
    tmuxEnv.PATH = login.path;
    const shell = loginShell(process.env);
    const tmux = new Tmux({ bin: config.tmuxBin, socket: config.tmuxSocket, configFile: paths.tmuxConf, env: tmuxEnv, defaultShell: shell });
    const tmuxVersion = await tmux.preflight();
    await tmux.start();
    log.info('tmux ready', { version: tmuxVersion, socket: config.tmuxSocket });

    const store = new WorkspaceStore(paths.workspaces, log);
    if (!store.load()) store.addWorkspace('Home', homedir());
    const devices = new DeviceStore(paths.devices, log);
    devices.load();
    const identity = loadIdentity(paths.identity, log);

    const tabs = new TabService(store, tmux, { PATH: login.path }, log, {
      launch: { bin: config.claudeBin, settingsPath: hookSettingsPath(paths.dataDir), extraArgs: config.claudeArgs, shell },
      resumeAfterReboot: config.resumeClaudeAfterReboot,
    });

    const status = new StatusManager(paths.status, log);
    status.load();
    const statusHub = new StatusHub(status);
    const timeline = new TimelineHub(status, log, Math.min(config.transcriptPollMs, 500));
    // A closed tab's status goes with it; unmanaged sessions stay until their claude ends.
    tabs.on('change', () => {
      for (const key of Object.keys(status.snapshot())) {
        if (!key.startsWith('unmanaged-') && !tabs.tab(key)) status.forget(key);
      }
    });
    const hookToken = loadHookToken(paths.hookToken);

    const access = new AccessControl(devices, `pmx_${identity.slice(3)}`, hookToken);
    const link = new LinkToken();
    const bridge = new TerminalBridge({
      tmux,
      tabs,
      log,
      env: { ...tmuxEnv, TERM: 'xterm-256color', COLORTERM: 'truecolor' },
      heartbeatIntervalMs: config.heartbeatIntervalMs,
      heartbeatTimeoutMs: config.heartbeatTimeoutMs,
      maxConnections: config.maxTerminalConnections,
    });
    const sync = new SyncHub(tabs, log, config.titlePollMs);
    const version = agentVersion();
    const server = createAgentServer({
      access,
      devices,
      link,
      store,
      tabs,
      log,
      version,
      secure: false,
      terminalStats: () => bridge.stats(),
      statusSnapshot: () => status.snapshot(),
      hooks: hookRouter({ token: hookToken, tmuxSocket: config.tmuxSocket, tabs, status, log }),
      statusHub,
      timeline,
      claudeSessions: (dir: string) => listClaudeSessions(config.claudeConfigDir, dir),
      bridge,
      sync,
      pwaDir: join(packageRoot, 'dist', 'pwa'),
    });

    const port = await listen(server, config.port, config.host);
    writeFileAtomic(paths.port, `${port}\n`, 0o600);
    // Written at every start: the script carries the live port.
    const hookPaths = installHooks(paths.dataDir, port, hookToken, readUserStatusLine(config.claudeConfigDir));
    log.info('claude hooks installed', { settings: hookPaths.settings });
    // After the hooks: a Claude tab restarted here reports to this agent from its first event.
    const restored = await tabs.restore();
    if (restored.adopted + restored.restarted > 0) log.info('tabs restored', restored);
    const monitor = new StatusMonitor({
      status,
      tabs,
      log,
      claudeConfigDir: config.claudeConfigDir,
      transcriptPollMs: config.transcriptPollMs,
      safetyPollMs: config.safetyPollMs,
    });
    await monitor.start();
    const url = `http://${displayHost(config.host)}:${port}/`;
    log.info('agent listening', { url, pid: process.pid, version });

    let closing: Promise<void> | null = null;
    return {
      port,
      host: config.host,
      url,
      linkUrl: () => {
        const token = link.peek();
        return token ? `${url}#token=${token}` : null;
      },
      close: () => {
        closing ??= (async () => {
          bridge.closeAll(CloseCode.AgentShutdown, 'agent shutting down');
          sync.close();
          monitor.stop();
          statusHub.close();
          timeline.close();
          await status.flush();
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
          try {
            unlinkSync(paths.port);
          } catch {
            // Not written, or already gone.
          }
          lock.release();
          log.info('agent stopped; tmux sessions keep running');
        })();
        return closing;
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}

export class PortInUseError extends Error {}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new PortInUseError(`port ${port} on ${host} is already in use: pass --port (or POCKETMUX_PORT) to pick another`));
      } else if (err.code === 'EADDRNOTAVAIL') {
        reject(new PortInUseError(`cannot bind ${host}: no such address on this machine`));
      } else reject(err);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
