import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export class PortInUseError extends Error {}

/** Listens, turning the two failures a person can fix into one clear sentence each. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new PortInUseError(`port ${port} on ${host} is already in use: pass --port (or POCKETMUX_PORT) to pick another`));
      } else if (err.code === 'EADDRNOTAVAIL') {
        reject(new PortInUseError(`cannot bind ${host}: no such address on this machine`));
      } else reject(err);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** How long a stopping server waits for its connections to finish their goodbyes. */
export const CLOSE_GRACE_MS = 3_000;

/** Every connection a server has open, from its accept on: kept for the moment it stops. */
export function openConnections(server: Server): ReadonlySet<Socket> {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return open;
}

/**
 * Stops listening once every connection is gone: the HTTP ones (keep-alive) are cut at once,
 * the rest (WebSockets saying goodbye, a peer that never answers their close, a TLS handshake
 * still under way) get `graceMs`, and what is still open then is cut.
 */
export function closeServer(server: Server, open: ReadonlySet<Socket>, graceMs = CLOSE_GRACE_MS): Promise<void> {
  if (!server.listening) return Promise.resolve();
  server.closeAllConnections();
  const deadline = setTimeout(() => {
    for (const socket of open) socket.destroy();
  }, graceMs);
  deadline.unref();
  return new Promise<void>((resolve) => server.close(() => resolve())).finally(() => clearTimeout(deadline));
}
