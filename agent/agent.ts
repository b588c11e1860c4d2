import { mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
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
import { transcriptOpener } from './claude/transcript-file.js';
import { DeviceStore } from './auth/device-store.js';
import QRCode from 'qrcode';
import type { PairingResponse } from '../protocol/api.js';
import { DeviceSockets } from './auth/device-sockets.js';
import { HostGuard } from './auth/host.js';
import { RefusalLog } from './auth/refusal-log.js';
import { TailscaleServe } from './tailscale.js';
import { AttemptLimiter, formatCode, PairingStore } from './auth/pairing.js';
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
import { assertPrivate } from './store/permissions.js';
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
  /** A new pairing for the next device: its URL (secret in the fragment), code and QR. */
  newPairing(): Promise<PairingResponse>;
  close(): Promise<void>;
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startAgent(config: AgentConfig, opts: { log?: Logger } = {}): Promise<RunningAgent> {
  const paths = dataPaths(config.dataDir);
  assertPrivate([
    ...(config.tls ? [{ path: config.tls.keyFile, kind: 'file' as const }] : []),
    { path: paths.dataDir, kind: 'dir' },
    { path: paths.hookToken, kind: 'file' },
    { path: paths.devices, kind: 'file' },
    { path: paths.identity, kind: 'file' },
    { path: paths.status, kind: 'file' },
  ]);
  mkdirSync(paths.dataDir, { recursive: true, mode: 0o700 });
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

    let tls: { cert: Buffer; key: Buffer } | null = null;
    if (config.tls) {
      try {
        tls = { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) };
        // Fails here, with a clear message, on a key that does not match or a damaged PEM.
        createSecureContext(tls);
      } catch (err) {
        throw new TlsError(`cannot read the TLS certificate or key: ${(err as Error).message}`);
      }
    }

    const store = new WorkspaceStore(paths.workspaces, log, { workspaces: config.maxWorkspaces, tabs: config.maxTabs });
    if (!store.load()) store.addWorkspace('Home', homedir());
    const devices = new DeviceStore(paths.devices, log);
    devices.load();
    const identity = loadIdentity(paths.identity, log);

    const tabs = new TabService(store, tmux, { PATH: login.path }, log, {
      launch: { bin: config.claudeBin, settingsPath: hookSettingsPath(paths.dataDir), extraArgs: config.claudeArgs, shell },
      resumeAfterReboot: config.resumeClaudeAfterReboot,
    });

    const status = new StatusManager(paths.status, log, config.maxUnmanagedSessions);
    status.load();
    const channel = { heartbeatIntervalMs: config.heartbeatIntervalMs, heartbeatTimeoutMs: config.heartbeatTimeoutMs };
    const statusHub = new StatusHub(status, channel);
    const openTranscript = transcriptOpener(config.claudeConfigDir, log);
    const timeline = new TimelineHub(status, log, { pollMs: Math.min(config.transcriptPollMs, 500), channel, openTranscript });
    // A closed tab's status goes with it; unmanaged sessions stay until their claude ends.
    tabs.on('change', () => {
      for (const key of Object.keys(status.snapshot())) {
        if (!key.startsWith('unmanaged-') && !tabs.tab(key)) status.forget(key);
      }
    });
    const hookToken = loadHookToken(paths.hookToken);

    const access = new AccessControl(devices, `pmx_${identity.slice(3)}`, hookToken);
    const pairings = new PairingStore(config.pairingTtlMs);
    const sockets = new DeviceSockets();
    const tailscale = config.tailscaleBin ? new TailscaleServe(config.tailscaleBin) : null;
    const publicUrl = tailscale ? await tailscale.publicUrl() : config.publicUrl;
    const hostGuard = new HostGuard({ host: config.host, publicUrl });
    let baseUrl = '';
    const newPairing = async (): Promise<PairingResponse> => {
      const pairing = pairings.create();
      const url = `${baseUrl}#pair=${pairing.secret}`;
      return {
        url,
        code: formatCode(pairing.code),
        expiresAt: new Date(pairing.expiresAt).toISOString(),
        qrSvg: await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }),
      };
    };
    const bridge = new TerminalBridge({
      tmux,
      tabs,
      log,
      env: { ...tmuxEnv, TERM: 'xterm-256color', COLORTERM: 'truecolor' },
      heartbeatIntervalMs: config.heartbeatIntervalMs,
      heartbeatTimeoutMs: config.heartbeatTimeoutMs,
      maxConnections: config.maxTerminalConnections,
      maxConnectionsPerDevice: config.maxTerminalsPerDevice,
    });
    const sync = new SyncHub(tabs, log, config.titlePollMs, channel);
    const version = agentVersion();
    const refusals = new RefusalLog(log);
    const { server, local } = createAgentServer({
      access,
      devices,
      pairings,
      attempts: new AttemptLimiter(),
      newPairing,
      revoked: (id) => sockets.revoke(id),
      hostGuard,
      sockets,
      store,
      tabs,
      log,
      refusals,
      version,
      secure: tls !== null || publicUrl?.startsWith('https:') === true,
      tls,
      localTwin: tls !== null || !(isLoopbackHost(config.host) || config.host === '0.0.0.0' || config.host === '::'),
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
    const localPort = local ? await listen(local, 0, '127.0.0.1') : null;
    hostGuard.listening(port, localPort);
    /** Where this machine's tools (hook.sh, the CLI) reach the agent over plain HTTP. */
    const toolsPort = localPort ?? port;
    writeFileAtomic(paths.port, `${toolsPort}\n`, 0o600);
    // Written at every start: the script carries the live port.
    const hookPaths = installHooks(paths.dataDir, toolsPort, hookToken, readUserStatusLine(config.claudeConfigDir));
    log.info('claude hooks installed', { settings: hookPaths.settings });
    // After the hooks: a Claude tab restarted here reports to this agent from its first event.
    const restored = await tabs.restore();
    if (restored.adopted + restored.restarted > 0) log.info('tabs restored', restored);
    const monitor = new StatusMonitor({
      status,
      tabs,
      log,
      claudeConfigDir: config.claudeConfigDir,
      openTranscript,
      transcriptPollMs: config.transcriptPollMs,
      safetyPollMs: config.safetyPollMs,
    });
    await monitor.start();
    if (tailscale) {
      await tailscale.start(port);
      log.info('tailscale serve forwards to the agent', { url: publicUrl });
    }
    const url = publicUrl ?? `${tls ? 'https' : 'http'}://${displayHost(config.host)}:${port}/`;
    if (!tls && !publicUrl?.startsWith('https:') && !isLoopbackHost(config.host)) log.warn(PLAIN_HTTP_WARNING);
    baseUrl = url;
    log.info('agent listening', { url, pid: process.pid, version });

    let closing: Promise<void> | null = null;
    return {
      port,
      host: config.host,
      url,
      newPairing,
      close: () => {
        closing ??= (async () => {
          bridge.closeAll(CloseCode.AgentShutdown, 'agent shutting down');
          sync.close();
          monitor.stop();
          await tailscale?.stop().catch((err: Error) => log.warn('could not undo tailscale serve', { error: err.message }));
          statusHub.close();
          timeline.close();
          await status.flush();
          for (const s of local ? [server, local] : [server]) {
            s.closeAllConnections();
            await new Promise<void>((resolve) => s.close(() => resolve()));
          }
          try {
            unlinkSync(paths.port);
          } catch {
            // Not written, or already gone.
          }
          lock.release();
          refusals.close();
          log.info('agent stopped; tmux sessions keep running');
          await log.flush();
        })();
        return closing;
      },
    };
  } catch (err) {
    lock.release();
    await log.flush();
    throw err;
  }
}

export class PortInUseError extends Error {}
export class TlsError extends Error {}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Said once, in full, when phones would reach the agent over plain HTTP. */
export const PLAIN_HTTP_WARNING =
  'pocketmux is reachable from other machines over plain HTTP. Phones can use it as a web page, ' +
  'but browsers allow installing the app, offline use and push notifications only over HTTPS ' +
  '(or on 127.0.0.1), and the pairing secret and credentials cross the network unencrypted. ' +
  'Fix it with --tls-cert/--tls-key (a certificate for this machine), or keep the agent on ' +
  '127.0.0.1 behind an HTTPS proxy such as `tailscale serve` and pass --public-url.';

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
