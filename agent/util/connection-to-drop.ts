/** Caps on one kind of connection (terminals, or JSON channel sockets). */
export interface ConnectionLimits {
  /** Connections the agent serves at once, across all devices. */
  total: number;
  /** Connections one device (or the CLI) may hold at once. */
  perDevice: number;
}

export interface ConnectionToDrop {
  /** Index into the open connections, which are listed oldest first. */
  index: number;
  /** Which cap made room necessary, for the close reason. */
  cap: 'device' | 'total';
}

/**
 * The connection to drop before `device` opens another one, or null when there is room. A
 * device past its own cap loses its own oldest connection, so it cannot push anyone else
 * out; at the agent's cap the device holding the most loses its oldest (on a tie, the one
 * whose oldest connection is older).
 *
 * `open` holds the device of each open connection, oldest first.
 */
export function connectionToDrop(open: readonly string[], device: string, limits: ConnectionLimits): ConnectionToDrop | null {
  if (open.filter((d) => d === device).length >= limits.perDevice) return { index: open.indexOf(device), cap: 'device' };
  if (open.length < limits.total) return null;
  // Map order is first appearance, so the first device at the highest count is the tie-breaker.
  const counts = new Map<string, number>();
  for (const d of open) counts.set(d, (counts.get(d) ?? 0) + 1);
  let busiest: string | null = null;
  let most = 0;
  for (const [d, n] of counts) {
    if (n > most) {
      busiest = d;
      most = n;
    }
  }
  return busiest === null ? null : { index: open.indexOf(busiest), cap: 'total' };
}
