import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { type ConnectionState, ReconnectingSocket } from './reconnecting-socket.js';
import { type MessageSchema, parseServerMessage } from './server-message.js';

export interface JsonChannel<Message> {
  path: string;
  /** Names the channel in the warning about a message that failed its schema. */
  name: string;
  schema: MessageSchema<Message>;
  /** The message asking the agent for its full state, which also proves the socket alive. */
  requestFullState: string;
}

/**
 * The state an element shows from one JSON channel, kept live by a reconnecting socket that
 * the element starts and stops. Each message is parsed by the channel's schema on arrival.
 */
export abstract class JsonChannelController<Message> implements ReactiveController {
  protected readonly live: ReconnectingSocket;

  constructor(
    protected readonly host: ReactiveControllerHost,
    channel: JsonChannel<Message>,
  ) {
    host.addController(this);
    this.live = new ReconnectingSocket({
      path: () => channel.path,
      liveness: { probe: () => channel.requestFullState },
      onConnecting: () => this.connecting(),
      onMessage: (data) => {
        const msg = parseServerMessage(channel.schema, data, channel.name);
        if (msg) this.receive(msg);
      },
      onState: () => this.host.requestUpdate(),
    });
  }

  get state(): ConnectionState {
    return this.live.state;
  }

  start(): void {
    this.live.start();
  }

  stop(): void {
    this.live.stop();
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** A new socket is on its way: what the last one said may no longer hold. */
  protected abstract connecting(): void;

  protected abstract receive(msg: Message): void;
}
