import type { Server } from 'node:http';

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

/** Stops listening once every connection is gone, cutting the HTTP ones (keep-alive) at once. */
export function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
