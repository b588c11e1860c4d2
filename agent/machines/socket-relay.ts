import type WebSocket from 'ws';

/** What waits for the slower side, at most, before the faster one is no longer read. */
export const RELAY_HIGH_WATER_BYTES = 1024 * 1024;
/** Reading starts again once the slower side has taken this much of it. */
export const RELAY_LOW_WATER_BYTES = 256 * 1024;
/** How often a paused side looks whether the other has taken enough. */
const RELAY_POLL_MS = 25;

/** A code one end closed with, as the other may be closed with it (ws refuses 1005, 1006 and the like). */
function passableCode(code: number): number {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999) ? code : 1011;
}

/**
 * Joins a phone's socket to the same channel on a linked machine: every frame passed on as it
 * came, in order, binary or text, and each close passed to the other end with its code and
 * reason. Flow control holds across it: while one end has more than RELAY_HIGH_WATER_BYTES
 * unsent, the other is not read (its TCP window fills, and the far agent's own flow control
 * takes over, as for a phone on a slow link), until it is under RELAY_LOW_WATER_BYTES.
 * The phone's frames wait, unread, until the far socket is open. Returns what ends it.
 */
export function relaySockets(client: WebSocket, far: WebSocket, onEnd: () => void): { end: (code: number, reason: string) => void } {
  let ended = false;
  const timers = new Set<NodeJS.Timeout>();
  client.pause();

  const pipe = (from: WebSocket, to: WebSocket) => {
    from.on('message', (data, isBinary) => {
      if (to.readyState !== to.OPEN) return;
      to.send(data, { binary: isBinary });
      if (to.bufferedAmount <= RELAY_HIGH_WATER_BYTES || from.isPaused) return;
      from.pause();
      const timer = setInterval(() => {
        if (to.readyState !== to.OPEN || to.bufferedAmount <= RELAY_LOW_WATER_BYTES) {
          clearInterval(timer);
          timers.delete(timer);
          if (!ended) from.resume();
        }
      }, RELAY_POLL_MS);
      timers.add(timer);
    });
  };

  const end = (code: number, reason: string) => {
    if (ended) return;
    ended = true;
    for (const t of timers) clearInterval(t);
    timers.clear();
    for (const ws of [client, far]) {
      if (ws.readyState === ws.OPEN) ws.close(passableCode(code), reason.slice(0, 120));
      else if (ws.readyState === ws.CONNECTING) ws.terminate();
    }
    onEnd();
  };

  far.once('open', () => {
    if (!ended) client.resume();
  });
  pipe(client, far);
  pipe(far, client);
  client.on('close', (code, reason) => end(code, reason.toString()));
  far.on('close', (code, reason) => end(code, reason.toString()));
  client.on('error', () => end(1011, 'the connection failed'));
  far.on('error', (err) => end(4007, `the linked machine's socket failed: ${err.message}`));
  return { end };
}
