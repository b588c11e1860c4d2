import { homedir } from 'node:os';
import { join } from 'node:path';
import type { PairingResponse } from '../protocol/api.js';
import { isOutsideKey } from '../protocol/hook-contract.js';
import type { UserHooksView } from '../protocol/outside.js';
import { APPROVAL_LIMITS, ApprovalStore } from './approvals/approval-store.js';
import { PaneDialogs } from './approvals/pane-dialogs.js';
import { planInTranscript } from './claude/plan.js';
import { Presence } from './push/presence.js';
import { PushNotifier } from './push/push-notifier.js';
import { PushSender } from './push/push-sender.js';
import { PushSubscriptions } from './push/push-subscriptions.js';
import { loadVapidKeys } from './push/vapid.js';
import { DeviceProofs } from './auth/device-proof.js';
import { AccessControl } from './auth/access.js';
import { DeviceSockets } from './auth/device-sockets.js';
import { DeviceStore } from './auth/device-store.js';
import { HostGuard } from './auth/host.js';
import { credentialCookieName, loadIdentity } from './auth/identity.js';
import { PairingAttempts } from './auth/pairing.js';
import { PairingService } from './auth/pairing-service.js';
import { RefusalLog } from './auth/refusal-log.js';
import { ConnectionGuard } from './auth/connection-guard.js';
import { ChannelTable } from './channels/channel-table.js';
import { TIMELINE_ENTRIES_KEPT } from './channels/timeline-channel.js';
import { ClaudeVersions } from './claude/claude-version.js';
import { hookSettingsPaths, installHooks, loadHookToken, readUserStatusLine } from './claude/hook-files.js';
import { findClaude, processLister } from './claude/process.js';
import { listClaudeSessions } from './claude/sessions.js';
import { transcriptOpener } from './claude/transcript-file.js';
import { TranscriptFollowers } from './claude/transcript-followers.js';
import { TranscriptReader } from './claude/transcript-reader.js';
import type { AgentConfig } from './config/config.js';
import { loginEnvironment, noProxyWithLoopback } from './config/login-env.js';
import { dataDirIdentity } from './config/tmux-socket.js';
import { agentVersion, PWA_DIR } from './config/package.js';
import { AgentAddress, PLAIN_HTTP_WARNING } from './http/address.js';
import { hookIntake } from './http/hook-routes.js';
import { startMemoryTrim } from './util/memory-trim.js';
import { apiRouter } from './http/routes/api-router.js';
import { createAgentServer } from './http/server.js';
import { loadTls } from './store/tls.js';
import { userHooksInstall } from './claude/user-hooks-file.js';
import { advisedCommand } from './config/command-name.js';
import { adoptOutside } from './outside/adopt.js';
import { claudePanes } from './outside/claude-panes.js';
import { OutsideTmux } from './outside/outside-tmux.js';
import { OutsideSessions, outsidePlace } from './outside/outside-sessions.js';
import { processAlive } from './util/process-alive.js';
import { forgetClosedTabs } from './status/closed-tabs.js';
import { StatusManager } from './status/status-manager.js';
import { StatusMonitor } from './status/status-monitor.js';
import { openDataDir } from './store/data-dir.js';
import { InstanceLock } from './store/lock.js';
import { publishPort } from './store/port-file.js';
import { WorkspaceStore } from './store/workspace-store.js';
import { TabService } from './tabs/tab-service.js';
import { TailscaleServe } from './tailscale.js';
import { ensureSpawnHelperExecutable } from './terminal/spawn-helper.js';
import { TerminalBridge } from './terminal/terminal-bridge.js';
import { tmuxAtLeast } from './tmux/commands.js';
import { Tmux } from './tmux/tmux.js';
import { DisposableStore, toDisposable } from './util/disposable.js';
import { createLogger, type Logger } from './util/log.js';
import { removeLeftoverTempFiles } from './store/atomic-file.js';

export interface RunningAgent {
  port: number;
  host: string;
  /** Local URL of the PWA, without any secret. */
  url: string;
  /** A new pairing for the next device: its URL (secret in the fragment), code and QR. */
  newPairing(): Promise<PairingResponse>;
  close(): Promise<void>;
}

/**
 * Makes the agent's services and wires them together. Each one's teardown is registered
 * where it is made, so stopping (or failing to start) undoes them in reverse order: the
 * channels and servers close before the status is flushed, the log is flushed last of all,
 * and the lock is given up only after that.
 */
export async function startAgent(config: AgentConfig, opts: { log?: Logger } = {}): Promise<RunningAgent> {
  const paths = openDataDir(config.dataDir);
  const tls = loadTls(config.tls);
  const agent = new DisposableStore();
  const lock = InstanceLock.acquire(paths.lock);
  agent.register(toDisposable(() => lock.release()));
  // The data dir is this agent's now: what a killed one left half-way through a write goes.
  removeLeftoverTempFiles(paths.dataDir);
  removeLeftoverTempFiles(join(paths.dataDir, 'hooks'));
  const log = opts.log ?? createLogger({ file: paths.log, level: config.logLevel, stderr: !config.service });
  agent.register(toDisposable(() => log.flush()));
  let started = false;
  agent.register(
    toDisposable(() => {
      // A start that failed is explained by its error, not by this.
      if (started) log.info('agent stopped; tmux sessions keep running');
    }),
  );

  try {
    const refusals = new RefusalLog(log);
    agent.register(toDisposable(() => refusals.close()));
    const connections = agent.register(new ConnectionGuard(refusals));

    const login = await loginEnvironment(process.env, log);
    for (const helper of ensureSpawnHelperExecutable()) log.info('made node-pty\'s spawn-helper executable (npm unpacks it without that bit on macOS)', { helper });
    const tmux = new Tmux({
      bin: config.tmuxBin,
      socket: config.tmuxSocket,
      configFile: paths.tmuxConf,
      env: login.env,
      defaultShell: login.shell,
      owner: dataDirIdentity(config.dataDir),
    });
    const tmuxVersion = await tmux.preflight();
    await tmux.start();
    log.info('tmux ready', { version: tmuxVersion, socket: config.tmuxSocket });

    const store = new WorkspaceStore(paths.workspaces, log, { workspaces: config.maxWorkspaces, tabs: config.maxTabs });
    if (!store.load()) store.addWorkspace('Home', homedir());
    const devices = new DeviceStore(paths.devices, log);
    devices.load();
    const tabs = new TabService(store, tmux, { PATH: login.path, ...noProxyWithLoopback(process.env) }, log, {
      launch: { bin: config.claudeBin, extraArgs: config.claudeArgs, shell: login.shell },
      settings: hookSettingsPaths(paths.dataDir),
      versions: new ClaudeVersions({ PATH: login.path }, log),
      resumeAfterReboot: config.resumeClaudeAfterReboot,
    });
    const status = new StatusManager(paths.status, log, config.maxOutsideSessions);
    status.load();
    agent.register(toDisposable(() => status.flush()));
    agent.register(forgetClosedTabs(status, tabs));

    // Claude started outside the tabs (pocketmux hooks install): kept while its claude runs.
    const outsideTmux = new OutsideTmux(config.tmuxBin, login.env, tmuxAtLeast(tmuxVersion, 3, 2));
    const outside = new OutsideSessions({
      path: paths.outside,
      log,
      claudeConfigDir: config.claudeConfigDir,
      max: config.maxOutsideSessions,
      paneExists: (pane) => outsideTmux.paneExists(pane),
      claudeInPane: async (pane) => {
        const pid = await outsideTmux.panePid(pane);
        return pid !== null && findClaude(pid, config.claudeConfigDir, await processLister().list()) !== null;
      },
    });
    outside.load();
    agent.register(toDisposable(() => outside.flush()));
    // A status of an outside session the agent no longer knows (from before this file) goes.
    for (const key of Object.keys(status.snapshot())) if (isOutsideKey(key) && !outside.has(key)) status.forget(key);
    outside.on('forgotten', (session) => {
      approvals.settleTab(session.key, 'claude-exited');
      status.forget(session.key);
    });
    // The status cap let one go: so does the list.
    status.on('message', (msg) => {
      if (msg.type === 'status:removed' && isOutsideKey(msg.tabId)) outside.forget(msg.tabId, 'status-dropped');
    });
    const outsideSweep = setInterval(() => void outside.sweep().catch((err: Error) => log.warn('outside sessions check failed', { error: err.message })), config.outsidePollMs);
    outsideSweep.unref();
    agent.register(toDisposable(() => clearInterval(outsideSweep)));
    const memoryTrim = startMemoryTrim(log);
    agent.register(toDisposable(memoryTrim.stop));

    const openTranscript = transcriptOpener(config.claudeConfigDir, log);
    // A transcript the status monitor follows for Esc while a timeline shows it is read once.
    const transcripts = new TranscriptFollowers((path) => new TranscriptReader(path, { maxEntries: TIMELINE_ENTRIES_KEPT, open: openTranscript }));
    agent.register(toDisposable(() => transcripts.clear()));
    const terminals = new TerminalBridge({
      log,
      env: login.env,
      heartbeatIntervalMs: config.heartbeatIntervalMs,
      heartbeatTimeoutMs: config.heartbeatTimeoutMs,
      maxConnections: config.maxTerminalConnections,
      maxConnectionsPerDevice: config.maxTerminalsPerDevice,
    });
    // The store answers dialogs by keys through the panes, and the panes offer dialogs to the store.
    const approvals: ApprovalStore = new ApprovalStore(log, { ...APPROVAL_LIMITS, holdMs: config.approvalHoldMs }, (approval, option) => dialogs.answer(approval, option));
    const dialogs: PaneDialogs = new PaneDialogs(claudePanes(tabs, outside, outsideTmux), approvals, () => status.snapshot(), log, (tabId) => planInTranscript(transcripts, status.get(tabId)?.transcriptPath ?? null));
    // Claude moved on without a hook saying so (Esc in a dialog, claude gone): nothing it
    // asked in that tab is waiting any more.
    status.on('effect', (key, effect) => {
      if (effect.kind !== 'permission-settled') return;
      if (effect.reason === 'claude-gone' || effect.reason === 'session-ended') approvals.settleTab(key, 'claude-exited');
      else if (effect.reason === 'turn-ended') approvals.settleTab(key, 'answered-in-terminal');
    });
    // A dialog read off the screen is a wait the hooks did not report (after a restart, say).
    approvals.on('message', (msg) => {
      if (msg.type === 'approval-opened' && status.get(msg.approval.tabId)) status.apply(msg.approval.tabId, { kind: 'approval-open', at: Date.now() });
    });
    const vapid = loadVapidKeys(paths.vapid, log);
    const subscriptions = new PushSubscriptions(paths.push, log);
    subscriptions.load();
    subscriptions.keepOnly(devices.list().map((d) => d.id));
    const sender = new PushSender(vapid, log);
    agent.register(toDisposable(() => sender.close()));
    sender.on('gone', (endpoint) => subscriptions.dropEndpoint(endpoint));
    const presence = new Presence();
    const notifier = new PushNotifier({ subscriptions, sender, approvals, status, presence, place: (key) => tabs.place(key) ?? outsidePlace(outside.get(key)), log });
    agent.register(toDisposable(() => notifier.dispose()));

    const channels = new ChannelTable({ config, tabs, tmux, outside, outsideTmux, status, approvals, presence, terminals, transcripts, log });

    const hookToken = loadHookToken(paths.hookToken);
    const tailscale = config.tailscaleBin ? new TailscaleServe(config.tailscaleBin, log) : null;
    const publicUrl = tailscale ? await tailscale.publicUrl() : config.publicUrl;
    const address = new AgentAddress({ host: config.host, tls: tls !== null, publicUrl });
    const hostGuard = new HostGuard({ host: config.host, publicUrl });
    const proofs = new DeviceProofs();
    const access = new AccessControl(devices, credentialCookieName(loadIdentity(paths.identity, log)), hookToken, proofs);
    const sockets = new DeviceSockets();
    const pairing = new PairingService(config.pairingTtlMs);
    const version = agentVersion();
    const servers = agent.register(
      createAgentServer({
        tls,
        localTwin: address.needsLocalTwin,
        hostGuard,
        pwaDir: PWA_DIR,
        api: apiRouter({
          access,
          connections,
          devices,
          pairing,
          // Behind a proxy on loopback, attempts count per forwarded client.
          attempts: new PairingAttempts({ behindProxy: config.tailscaleBin !== null || config.publicUrl !== null }),
          revoked: (id) => {
            proofs.forget(id);
            subscriptions.forget(id);
            sockets.revoke(id);
          },
          store,
          tabs,
          tmux,
          claudeConfigDir: config.claudeConfigDir,
          log,
          version,
          secure: address.secure,
          claudeSessions: (dir) => listClaudeSessions(config.claudeConfigDir, dir),
          statusSnapshot: () => status.snapshot(),
          approvals,
          push: {
            publicKey: vapid.publicKey,
            subscriptions,
            notifier,
            endpointRules: { extraHosts: config.pushHosts, insecureLoopback: config.pushInsecureLoopback },
          },
          terminalStats: () => terminals.stats(),
          outside,
          outsideTmux,
          userHooks: () => userHooksView(config),
          adoptOutside: async (key, workspaceId) => tabs.tabView(await adoptOutside({ outside, status, approvals, store, tabs, log }, key, workspaceId)),
        }),
        hooks: hookIntake({ token: hookToken, tmuxSocket: config.tmuxSocket, tabs, status, outside, approvals, dialogs, connections, log }),
        channels,
        access,
        refusals,
        sockets,
        connections,
      }),
    );

    // Before the servers close: every held hook gets its answer (no decision) while its
    // connection is still there, so no claude sees a failed hook, and its dialog stays.
    agent.register(
      toDisposable(async () => {
        approvals.close();
        await new Promise((resolve) => setImmediate(resolve));
      }),
    );

    const { port, localPort } = await servers.listen(config.port, config.host);
    hostGuard.listening(port, localPort);
    /** Where this machine's tools (hook.sh, the CLI) reach the agent over plain HTTP. */
    const toolsPort = localPort ?? port;
    agent.register(publishPort(paths.port, toolsPort));
    // Written at every start: the script and the HTTP hooks carry the live port.
    const hookPaths = installHooks(paths.dataDir, toolsPort, hookToken, readUserStatusLine(config.claudeConfigDir, log));
    log.info('claude hooks installed', { settings: hookPaths.settings.http, commandOnly: hookPaths.settings.command });
    // After the hooks: a Claude tab restarted here reports to this agent from its first event.
    const restored = await tabs.restore();
    if (restored.adopted + restored.restarted > 0) log.info('tabs restored', restored);
    const monitor = new StatusMonitor({
      status,
      tabs,
      log,
      claudeConfigDir: config.claudeConfigDir,
      transcripts,
      transcriptPollMs: config.transcriptPollMs,
      safetyPollMs: config.safetyPollMs,
      outsideRunning: (key) => {
        const pid = outside.get(key)?.pid ?? null;
        return pid !== null && processAlive(pid);
      },
    });
    await monitor.start();
    agent.register(toDisposable(() => monitor.stop()));
    dialogs.start();
    agent.register(toDisposable(() => dialogs.stop()));
    if (tailscale) agent.register(await tailscale.start(port));

    const url = address.url(port);
    if (address.plainHttpToOthers) log.warn(PLAIN_HTTP_WARNING);
    pairing.publishAt(url);
    log.info('agent listening', { url, pid: process.pid, version });
    started = true;
    return { port, host: config.host, url, newPairing: () => pairing.create(), close: () => agent.dispose() };
  } catch (err) {
    // Why it could not start is what the person needs to read, not what failed after.
    await agent.dispose().catch(() => undefined);
    throw err;
  }
}

/** Whether claude started anywhere reports: the app's settings show it. */
function userHooksView(config: AgentConfig): UserHooksView {
  // The hooks run this data dir's script: another data dir than the default must be named.
  const installCommand = advisedCommand('hooks install', config.dataDir);
  try {
    const found = userHooksInstall(config.claudeConfigDir, config.dataDir);
    return { state: found.state, settingsPath: found.path, installCommand, detail: null };
  } catch (err) {
    return { state: 'unknown', settingsPath: `${config.claudeConfigDir}/settings.json`, installCommand, detail: (err as Error).message };
  }
}
