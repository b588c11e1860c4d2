/** Where a terminal's socket stands; the view shows it, the connection drives it. */
export type TerminalConnectionState =
  | { kind: 'connecting' }
  | { kind: 'open' }
  /** Dropped; attempts go on with backoff until one opens. */
  | { kind: 'reconnecting' }
  /** The agent said reconnecting cannot help (the tab or its session is gone). */
  | { kind: 'ended'; code: number; reason: string };
