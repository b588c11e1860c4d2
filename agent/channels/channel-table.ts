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

  constructor(services: ChannelServices) {
    this.byPath = new Map(CHANNELS.map((c): [string, OpenChannel] => [c.path, { caps: c.caps, channel: c.open(services) }]));
  }

  get(path: string): OpenChannel | undefined {
    return this.byPath.get(path);
  }

  /** The agent stops: each channel says goodbye to its sockets in its own words. */
  dispose(): void {
    for (const { channel } of this.byPath.values()) channel.dispose();
  }
}
