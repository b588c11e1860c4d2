import { TimelineServerMessage } from '../../protocol/timeline.js';
import { CHANNEL_PATHS } from '../core/api.js';
import { type ConnectionState, ReconnectingSocket } from '../core/reconnecting-socket.js';
import { parseServerMessage } from '../core/server-message.js';

/**
 * A phone asleep this long may hold a dead socket that does not know it, and the timeline has
 * no message the agent answers to prove otherwise; start over.
 */
const STALE_AFTER_HIDDEN_MS = 20_000;

/**
 * `/api/timeline?tab=<id>`: each (re)connection starts with a reset and a full page, so nothing
 * is lost while the socket was down.
 */
export class TimelineConnection {
  private readonly socket: ReconnectingSocket;

  constructor(tabId: string, onMessage: (msg: TimelineServerMessage) => void, onState: (state: ConnectionState) => void) {
    this.socket = new ReconnectingSocket({
      path: () => `${CHANNEL_PATHS.timeline}?${new URLSearchParams({ tab: tabId })}`,
      liveness: { awayLimitMs: STALE_AFTER_HIDDEN_MS },
      onMessage: (data) => {
        const msg = parseServerMessage(TimelineServerMessage, data, 'timeline');
        if (msg) onMessage(msg);
      },
      onState,
    });
    this.socket.start();
  }

  reconnectNow(): void {
    this.socket.reconnectNow();
  }

  dispose(): void {
    this.socket.dispose();
  }
}
