import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { AccessControl } from '../auth/access.js';
import type { ConnectionProof } from '../auth/connection-guard.js';
import type { DeviceSockets } from '../auth/device-sockets.js';
import type { HostGuard } from '../auth/host.js';
import type { RefusalLog } from '../auth/refusal-log.js';
import type { ChannelTable } from './channel-table.js';
import { ChannelSocketCap } from './connection-limits.js';

export interface UpgradeDeps {
  channels: ChannelTable;
  hostGuard: HostGuard;
  access: AccessControl;
  /** Where refusals any client can cause are logged, at a bounded rate per source. */
  refusals: RefusalLog;
  /** Every socket by its device, so revoking the device cuts them. */
  sockets: DeviceSockets;
  /** Told of an upgrade with a credential: that socket is no longer one that proved nothing. */
  connections: ConnectionProof;
}

/** The largest message any channel takes; a bigger one closes the socket. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  const body = JSON.stringify({ error: text });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The server's `upgrade` handler: the checks every channel shares, made once and before
 * upgrading (a known path, the Host, the device credential and Origin), then the socket is
 * registered to its device, counted against the caps, and handed to the path's channel.
 */
export function channelUpgradeHandler(deps: UpgradeDeps): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const sharedCap = new ChannelSocketCap();

  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    if (deps.channels.closed) return refuseUpgrade(socket, 503, 'Service Unavailable');
    const url = new URL(req.url ?? '/', 'http://agent.invalid');
    const entry = deps.channels.get(url.pathname);
    if (!entry) return refuseUpgrade(socket, 404, 'Not Found');
    if (!deps.hostGuard.allows(req.headers.host)) return refuseUpgrade(socket, 421, 'Misdirected Request');
    const decision = deps.access.check(req, req.url ?? '/');
    if (!decision.ok) {
      deps.refusals.refused(req.socket.remoteAddress ?? 'unknown', 'refused a WebSocket', { path: url.pathname, reason: decision.reason });
      return refuseUpgrade(socket, decision.status, decision.status === 401 ? 'Unauthorized' : 'Forbidden');
    }
    const device = decision.device;
    deps.connections.proven(req);
    wss.handleUpgrade(req, socket, head, (ws) => {
      deps.sockets.register(device.id, ws);
      if (entry.caps === 'shared') sharedCap.admit(device.id, ws);
      entry.channel.accept(ws, { device, url, socket });
    });
  };
}
