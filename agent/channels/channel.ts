import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { CHANNEL_PATHS } from '../../protocol/routes.js';
import type { DeviceRecord } from '../auth/device-store.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { Presence } from '../push/presence.js';
import type { TranscriptFollowers } from '../claude/transcript-followers.js';
import type { AgentConfig } from '../config/config.js';
import type { StatusManager } from '../status/status-manager.js';
import type { TabService } from '../tabs/tab-service.js';
import type { TerminalBridge } from '../terminal/terminal-bridge.js';
import type { OutsideSessions } from '../outside/outside-sessions.js';
import type { Logger } from '../util/log.js';
import type { ClaudePanes } from '../wiring/claude-pane.js';
import type { MachineUnion } from '../machines/machine-union.js';

/** What an upgrade carries besides its socket, once the shared checks passed. */
export interface ChannelContext {
  /** The device whose credential opened the socket (the CLI is one too). */
  device: DeviceRecord;
  /** The upgrade's URL: a channel reads its parameters (`?tab=`) from the query. */
  url: URL;
  /** The connection under the WebSocket, for holding its writes together (JsonClient). */
  socket?: Duplex;
}

/**
 * One WebSocket channel: one purpose, never multiplexed. Before a channel sees a socket the
 * upgrade has checked the Host, the device credential and the Origin, and counted the
 * socket against the caps; what is left to the channel is its own rule (the tab must
 * exist, say), its messages, parsed by its schema from protocol/, and its updates.
 */
export interface Channel {
  /** Takes an upgraded socket; one it cannot serve it closes, with a code saying why. */
  accept(ws: WebSocket, ctx: ChannelContext): void;
  /** The agent stops: every socket gets the channel's goodbye and its timers end. */
  dispose(): void;
}

/** The agent's services a channel may build on. */
export interface ChannelServices {
  config: AgentConfig;
  tabs: TabService;
  /** Claude sessions outside the tabs. */
  outside: OutsideSessions;
  /** The pane each session's Claude runs in, a tab's or an outside session's. */
  panes: ClaudePanes;
  status: StatusManager;
  /** What Claude waits on the person for, sent with the status. */
  approvals: ApprovalStore;
  /** Which tab each device looks at, as its app reports on /api/status. */
  presence: Presence;
  terminals: TerminalBridge;
  /** A terminal was opened on a session (its key): what waits for one is told (see HookApprovals.terminalOpened). */
  terminalOpened(key: string): void;
  /** The agent's one reader per transcript file, shared with the status monitor. */
  transcripts: TranscriptFollowers;
  /** The linked machines' sessions and approvals, served beside this agent's own. */
  union: MachineUnion;
  log: Logger;
}

/** A channel as the table lists it: where it is served, and how it is made. */
export interface ChannelDefinition {
  /** One of the protocol's channel paths, so the app cannot open a channel the agent does not serve. */
  path: (typeof CHANNEL_PATHS)[keyof typeof CHANNEL_PATHS];
  /**
   * `shared`: its sockets count against the caps all JSON channels share
   * (`CHANNEL_SOCKET_LIMITS`); `own`: the channel caps its sockets itself.
   */
  caps: 'shared' | 'own';
  open(services: ChannelServices): Channel;
}
