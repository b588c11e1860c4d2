import { dirname, join } from 'node:path';
import type { PairingResponse } from '../protocol/api.js';
import { APPROVAL_LIMITS, ApprovalStore } from './approvals/approval-store.js';
import { PANE_DIALOG_TIMINGS, PaneDialogs } from './approvals/pane-dialogs.js';
import type { ClaudeMode } from '../protocol/claude-mode.js';
import { ModeSwitchError, switchMode } from './wiring/mode-switch.js';
import { ConnectionGuard } from './auth/connection-guard.js';
import { openAccess } from './auth/open-access.js';
import { MachinePushes } from './machines/machine-pushes.js';
import { machineAnnouncer } from './wiring/machine-announcer.js';
import { openMachines } from './machines/open-machines.js';
import { RefusalLog } from './auth/refusal-log.js';
import { ChannelTable } from './channels/channel-table.js';
import { TIMELINE_ENTRIES_KEPT } from './channels/timeline-channel.js';
import { installHooks, loadHookToken, readUserStatusLine } from './claude/hook-files.js';
import { openTranscripts } from './claude/open-transcripts.js';
import { planInTranscript } from './claude/plan.js';
import { listClaudeSessions } from './claude/sessions.js';
import type { AgentConfig } from './config/config.js';
import { loginEnvironment } from './config/login-env.js';
import { agentVersion, PWA_DIR } from './config/package.js';
import { openGit } from './changes/git.js';
import { COMPARE_FOLDER, SessionChanges } from './changes/session-changes.js';
import { TranscriptChanges } from './changes/transcript-changes.js';
import { transcriptOpener } from './claude/transcript-file.js';
import { openAddress, PLAIN_HTTP_WARNING } from './http/address.js';
import { hookIntake } from './http/hook-routes.js';
import { apiRouter } from './http/routes/api-router.js';
import { createAgentServer } from './http/server.js';
import { openOutside } from './outside/open-outside.js';
import { openPush } from './push/open-push.js';
import { Presence } from './push/presence.js';
import { PushNotifier } from './push/push-notifier.js';
import { StatusManager } from './status/status-manager.js';
import { StatusMonitor } from './status/status-monitor.js';
import { removeLeftoverTempFiles } from './store/atomic-file.js';
import { openDataDir } from './store/data-dir.js';
import { InstanceLock } from './store/lock.js';
import { keepPort, keptPort, publishPort } from './store/port-file.js';
import { loadTls } from './store/tls.js';
import { openTabs } from './tabs/open-tabs.js';
import { conversationFolders, openAgentClis, sessionCli } from './wiring/agent-clis.js';
import { ensureSpawnHelperExecutable } from './terminal/spawn-helper.js';
import { TerminalBridge } from './terminal/terminal-bridge.js';
import { tmuxAtLeast } from './tmux/commands.js';
import { openTmux } from './tmux/open-tmux.js';
import { DisposableStore, toDisposable } from './util/disposable.js';
import { createLogger, type Logger } from './util/log.js';
import { TypingClock } from './terminal/typing-clock.js';
import { LoopDelayRecorder } from './util/loop-delay.js';
import { startMemoryTrim } from './util/memory-trim.js';
import { adoptOutside } from './wiring/adopt.js';
import { settleApprovalsWithStatus } from './wiring/approval-settlement.js';
import { claudePanes, dialogPanes, paneActivity } from './wiring/claude-panes.js';
import { forgetClosedTabs } from './wiring/closed-tabs.js';
import { forgetDialogsWithStatus } from './wiring/forgotten-dialogs.js';
import { guardrailOfTab, hookApprovals } from './wiring/hook-approvals.js';
import { PHONE_CONTEXT, PhonePrompts } from './wiring/phone-prompts.js';
import { revokeDevice } from './wiring/device-revocation.js';
import { sessionDir } from './wiring/session-dir.js';
import { turnChanges } from './wiring/turn-changes.js';
import { sessionPlace } from './wiring/session-place.js';
import { outsideLifecycle } from './wiring/outside-lifecycle.js';
import { userHooksView } from './wiring/user-hooks-view.js';

export interface RunningAgent {
  port: number;
  host: string;
  /** Local URL of the PWA, without any secret. */
  url: string;
  /** A new pairing for the next device: its URL (secret in the fragment), code and QR. */
  newPairing(): Promise<PairingResponse>;
  dispose(): Promise<void>;
}

/**
 * The composition root: makes the agent's services and the rules that join them (agent/wiring/),
 * registering each one where it is made, so stopping (or failing to start) undoes them in
 * reverse order: held hooks are answered before the servers close, the channels and servers
 * close before the status is flushed, the log is flushed last, and the lock goes after that.
 */
export async function startAgent(config: AgentConfig, opts: { log?: Logger } = {}): Promise<RunningAgent> {
  const paths = openDataDir(config.dataDir);
  const tls = loadTls(config.tls);
  const agent = new DisposableStore();
  agent.register(InstanceLock.acquire(paths.lock));
  // The data dir is this agent's now: what a killed one left half-way through a write goes.
  for (const dir of [paths.dataDir, join(paths.dataDir, 'hooks')]) removeLeftoverTempFiles(dir);
  const log = opts.log ?? createLogger({ file: paths.log, level: config.logLevel, stderr: !config.service });
  agent.register(toDisposable(() => log.flush()));
  let started = false;
  // A start that failed is explained by its error, not by this.
  agent.register(toDisposable(() => (started ? log.info('agent stopped; tmux sessions keep running') : undefined)));

  try {
    const refusals = agent.register(new RefusalLog(log));
    const connections = agent.register(new ConnectionGuard(refusals));
    const login = await loginEnvironment(process.env, log);
    for (const helper of ensureSpawnHelperExecutable()) log.info('made node-pty\'s spawn-helper executable (npm unpacks it without that bit on macOS)', { helper });
    const { tmux, version: tmuxVersion } = await openTmux({ bin: config.tmuxBin, socket: config.tmuxSocket, configFile: paths.tmuxConf, dataDir: config.dataDir }, login, log);
    const clis = openAgentClis(config, paths.dataDir, login, log);
    const { store, tabs } = openTabs(config, paths, clis, tmux, login, log);
    const hookToken = loadHookToken(paths.hookToken);
    const { devices, proofs, access, sockets, pairing, attempts } = openAccess({ paths, hookToken, pairingTtlMs: config.pairingTtlMs, behindProxy: config.tailscaleBin !== null || config.publicUrl !== null, log });
    const { machines, certificatePin, machineName } = openMachines({ path: paths.machines, tls, backoffMaxMs: config.machineBackoffMaxMs, log });
    agent.register(machines);
    const status = agent.register(new StatusManager(paths.status, log, config.maxOutsideSessions));
    status.load();
    agent.register(forgetClosedTabs(status, tabs));
    const { outside, outsideTmux } = openOutside({ path: paths.outside, tmuxBin: config.tmuxBin, env: login.env, noStartServer: tmuxAtLeast(tmuxVersion, 3, 2), claudeConfigDir: config.claudeConfigDir, clis, max: config.maxOutsideSessions, log });
    agent.register(outside);
    const cliOf = sessionCli(clis, (key) => tabs.tab(key)?.kind ?? outside.get(key)?.agent);
    // The store answers dialogs by keys through the panes, and the panes offer dialogs to the store.
    const approvals: ApprovalStore = new ApprovalStore(log, { ...APPROVAL_LIMITS, holdMs: config.approvalHoldMs }, (approval, option, toolInput) => dialogs.answer(approval, option, toolInput));
    agent.register(outsideLifecycle({ outside, status, approvals, log, sweepMs: config.outsidePollMs }));
    const typing = new TypingClock();
    agent.register(startMemoryTrim(log, () => typing.typing()));
    const loopDelay = config.measureLoopDelay ? agent.register(new LoopDelayRecorder()) : null;
    const transcripts = agent.register(openTranscripts(conversationFolders(config), TIMELINE_ENTRIES_KEPT, log));
    const terminals = new TerminalBridge({ log, env: login.env, heartbeatIntervalMs: config.heartbeatIntervalMs, heartbeatTimeoutMs: config.heartbeatTimeoutMs, maxConnections: config.maxTerminalConnections, maxConnectionsPerDevice: config.maxTerminalsPerDevice, typing });
    const panes = claudePanes(tabs, tmux, outside, outsideTmux);
    const phonePrompts = new PhonePrompts();
    const modeSeen = (key: string, mode: ClaudeMode) => void status.apply(key, { kind: 'mode-seen', mode, at: Date.now() });
    const dialogs: PaneDialogs = new PaneDialogs(dialogPanes(panes, paneActivity(tabs, outside, outsideTmux), (key) => cliOf(key).readScreen), approvals, () => status.snapshot(), log, (key) => planInTranscript(transcripts, status.get(key)?.transcriptPath ?? null), PANE_DIALOG_TIMINGS, Date.now, modeSeen);
    agent.register(settleApprovalsWithStatus({ status, approvals }));
    agent.register(forgetDialogsWithStatus(status, dialogs));
    const { vapid, subscriptions, sender } = openPush(paths, devices.list().map((d) => d.id), log);
    agent.register(sender);
    const presence = new Presence();
    const git = openGit({ env: login.env });
    const edits = new TranscriptChanges({ git, folder: join(dirname(paths.changes), COMPARE_FOLDER), transcriptOf: (key) => status.get(key)?.transcriptPath ?? null, open: transcriptOpener(config.claudeConfigDir, log) });
    const changes = agent.register(new SessionChanges(git, paths.changes, log, { edits }));
    changes.load();
    const turns = turnChanges(changes, status, log);
    const ownPlace = sessionPlace(tabs, outside);
    const place = (key: string) => ownPlace(key) ?? machines.union.place(key);
    const notifier = agent.register(new PushNotifier({ subscriptions, sender, approvals, status, presence, place, turnTotal: (key) => turns.totalOf(key), log }));
    agent.register(new MachinePushes(machines.union, machineAnnouncer(notifier), paths.machinePushes, log));
    const fromHooks = hookApprovals({ approvals, status, outside, dialogs, guardrailOf: (key) => guardrailOfTab(store, key), minuteMs: config.guardrailMinuteMs, log });
    const channels = new ChannelTable({ config, tabs, outside, panes, status, approvals, presence, terminals, terminalOpened: (key) => fromHooks.terminalOpened(key), transcripts, union: machines.union, log });
    const { address, hostGuard, tailscale } = await openAddress(config, tls !== null, log);
    const version = agentVersion();
    const api = apiRouter({
      access, connections, devices, pairing, attempts, store, tabs, tmux, log, version, approvals, outside, outsideTmux, claudeConfigDir: config.claudeConfigDir, secure: address.secure,
      machines, certificatePin, machineName,
      revoked: revokeDevice({ proofs, subscriptions, sockets }),
      push: { publicKey: vapid.publicKey, subscriptions, notifier, endpointRules: { extraHosts: config.pushHosts, insecureLoopback: config.pushInsecureLoopback } },
      linked: machines.union,
      statusSnapshot: () => status.snapshot(), terminalStats: () => terminals.stats(), loopDelay: () => loopDelay?.seconds() ?? null,
      phonePrompt: (key, text) => phonePrompts.note(key, text),
      dialogShown: async (key) => status.get(key)?.claudeRunning === true && (await dialogs.dialogShown(key)),
      switchMode: async (key, body) => {
        if (!status.get(key)?.claudeRunning) throw new ModeSwitchError(409, 'no Claude runs in this session');
        const mode = await switchMode(dialogPanes(panes), key, body.mode, { confirm: body.confirm === true, log });
        modeSeen(key, mode);
        return mode;
      },
      changes, sessionDir: sessionDir(store, outside),
      claudeSessions: (dir) => listClaudeSessions(config.claudeConfigDir, dir), userHooks: () => userHooksView(config.claudeConfigDir, config.dataDir),
      adoptOutside: async (key, workspaceId) => tabs.tabView(await adoptOutside({ outside, status, approvals, store, tabs, log }, key, workspaceId)),
    });
    const outsideTerminalOpen = async (key: string) => {
      const pane = outside.get(key)?.tmux;
      return pane ? outsideTmux.attached(pane) : false;
    };
    const hooks = hookIntake({ token: hookToken, tmuxSocket: config.tmuxSocket, tabs, clis, status, outside, outsideTerminalOpen, promptContext: (key, prompt) => (phonePrompts.take(key, prompt) ? PHONE_CONTEXT : null), starts: turns, approvals: fromHooks, connections, log });
    const servers = agent.register(createAgentServer({ tls, localTwin: address.needsLocalTwin, hostGuard, pwaDir: PWA_DIR, api, hooks, channels, access, refusals, sockets, connections }));
    // Before the servers close: every held hook gets its answer (no decision) while its
    // connection is still there, so no claude sees a failed hook, and its dialog stays.
    agent.register(approvals);
    const localBefore = keptPort(paths.localPort);
    const { port, localPort, localMoved } = await servers.listen(config.port, config.host, localBefore);
    if (localPort !== null) keepPort(paths.localPort, localPort);
    if (localMoved) log.warn('the port Claude sessions started before this restart post their hooks to was taken: their status comes back once each is restarted', { before: localBefore, now: localPort });
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
    const monitor = agent.register(new StatusMonitor({ status, tabs, log, cliOf, transcripts, transcriptPollMs: config.transcriptPollMs, safetyPollMs: config.safetyPollMs, outsideRunning: (key) => outside.claudeAlive(key) }));
    await monitor.start();
    agent.register(dialogs).start();
    if (tailscale) agent.register(await tailscale.start(port));

    const url = address.url(port);
    if (address.plainHttpToOthers) log.warn(PLAIN_HTTP_WARNING);
    pairing.publishAt(url);
    // The linked machines' sessions join this agent's own on the status and sync channels.
    machines.start();
    log.info('agent listening', { url, pid: process.pid, version });
    started = true;
    return { port, host: config.host, url, newPairing: () => pairing.create(), dispose: () => agent.dispose() };
  } catch (err) {
    // Why it could not start is what the person needs to read, not what failed after.
    await agent.dispose().catch(() => undefined);
    throw err;
  }
}
