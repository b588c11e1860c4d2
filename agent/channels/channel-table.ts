import type { Channel, ChannelDefinition, ChannelServices } from './channel.js';
import { statusChannel } from './status-channel.js';
import { syncChannel } from './sync-channel.js';
import { terminalChannel } from './terminal-channel.js';
import { timelineChannel } from './timeline-channel.js';

/** Every WebSocket channel the agent serves: a new channel is its own module and one line here. */
const CHANNELS: readonly ChannelDefinition[] = [terminalChannel, statusChannel, syncChannel, timelineChannel];

/** The paths of the channels; an upgrade to any other is refused, and the security suite tries each. */
export const WEBSOCKET_PATHS: readonly string[] = CHANNELS.map((c) => c.path);

export interface OpenChannel {
  caps: ChannelDefinition['caps'];
  channel: Channel;
}

/** The channels, made once the agent's services exist, looked up by the path of an upgrade. */
export class ChannelTable {
  private readonly byPath: ReadonlyMap<string, OpenChannel>;
  private disposed = false;

  constructor(services: ChannelServices) {
    this.byPath = new Map(CHANNELS.map((c): [string, OpenChannel] => [c.path, { caps: c.caps, channel: c.open(services) }]));
  }

  get(path: string): OpenChannel | undefined {
    return this.byPath.get(path);
  }

  /**
   * Once the agent is stopping no channel takes a socket: one that upgraded after the
   * goodbyes (its TLS handshake still under way when they were said) would otherwise stay
   * open, and the server, which waits for its last connection, with it.
   */
  get closed(): boolean {
    return this.disposed;
  }

  /** The agent stops: each channel says goodbye to its sockets in its own words. */
  dispose(): void {
    this.disposed = true;
    for (const { channel } of this.byPath.values()) channel.dispose();
  }
}
