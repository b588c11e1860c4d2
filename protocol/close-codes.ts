/**
 * WebSocket close codes the agent uses (4000–4999 is the range RFC 6455 leaves to
 * applications). Clients read them to decide whether to reconnect.
 */
export const CloseCode = {
  /** The client sent a frame that does not decode, or one only the server may send. */
  MalformedFrame: 4000,
  /** Nothing arrived from the client within the heartbeat timeout. */
  HeartbeatTimeout: 4001,
  /** The agent reached its connection limit and dropped this, the oldest, connection. */
  ConnectionLimit: 4002,
  /** The tab named in the request does not exist. */
  TabNotFound: 4004,
  /** The tab's session ended (shell exited, killed from a client). Do not reconnect. */
  SessionEnded: 4005,
  /** The agent is shutting down; reconnect later. */
  AgentShutdown: 4006,
  /** The terminal could not be attached (tmux failed). */
  AttachFailed: 4007,
  /**
   * The client read too slowly to keep up (its unsent backlog grew too large, or stayed
   * behind too long). Reconnecting starts it over from a fresh snapshot.
   */
  TooSlow: 4008,
  /**
   * The client sent input faster than it can be typed into tmux: over 1 MB of frames waiting
   * for tmux, 4 MB the pty has not taken, or input held for the whole heartbeat timeout.
   */
  InputOverflow: 4009,
  /** This device was revoked: pair again. */
  DeviceRevoked: 4401,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** The reason given with `TabNotFound` for a Claude started outside tmux: it is known, but has no terminal to attach. */
export const NO_TERMINAL_REASON = 'no terminal: started outside tmux';

/**
 * Codes after which a client must not reconnect by itself: reconnecting cannot help, or
 * (connection limit) would only push another client out in turn.
 */
export const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  CloseCode.TabNotFound,
  CloseCode.SessionEnded,
  CloseCode.MalformedFrame,
  CloseCode.ConnectionLimit,
  CloseCode.DeviceRevoked,
]);
