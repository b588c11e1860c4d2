import type { WebSocket } from 'ws';
import { CloseCode } from '../../protocol/close-codes.js';
import { type ConnectionLimits, connectionToDrop } from '../util/connection-to-drop.js';

/** JSON channel sockets (sync, status, timeline): a page opens two or three of them. */
export const CHANNEL_SOCKET_LIMITS: ConnectionLimits = { perDevice: 32, total: 256 };

/**
 * The open JSON channel sockets, capped like terminals: each one that stops reading may hold
 * up to a megabyte in the agent, so their number is bounded too. The one dropped is closed
 * with `ConnectionLimit`, after which clients do not reconnect by themselves.
 */
export class ChannelSocketCap {
  private readonly open: { device: string; ws: WebSocket }[] = [];

  constructor(private readonly limits: ConnectionLimits = CHANNEL_SOCKET_LIMITS) {}

  admit(device: string, ws: WebSocket): void {
    const drop = connectionToDrop(
      this.open.map((o) => o.device),
      device,
      this.limits,
    );
    if (drop) {
      const [victim] = this.open.splice(drop.index, 1);
      victim?.ws.close(
        CloseCode.ConnectionLimit,
        drop.cap === 'device' ? 'too many live connections from this device: this, the oldest, was dropped' : 'too many live connections: this, the oldest, was dropped',
      );
    }
    const entry = { device, ws };
    this.open.push(entry);
    ws.once('close', () => {
      const i = this.open.indexOf(entry);
      if (i >= 0) this.open.splice(i, 1);
    });
  }

  get size(): number {
    return this.open.length;
  }
}
