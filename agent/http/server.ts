import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import express, { type Router } from 'express';
import { API_PREFIX } from '../../protocol/routes.js';
import type { ConnectionGuard } from '../auth/connection-guard.js';
import type { ChannelTable } from '../channels/channel-table.js';
import { channelUpgradeHandler, type UpgradeDeps } from '../channels/upgrade.js';
import type { Disposable } from '../util/disposable.js';
import { type HookIntake, isHookUrl, replyJson } from './hook-routes.js';
import { closeServer, listen, openConnections, PortInUseError } from './listen.js';
import { pwaFiles } from './pwa-files.js';
import type { TlsMaterial } from '../store/tls.js';

export interface ServerDeps extends UpgradeDeps {
  /** Serve HTTPS (and WSS) instead of HTTP. */
  tls: TlsMaterial | null;
  /** Also serve plain HTTP on loopback for local tools (see `AgentAddress.needsLocalTwin`). */
  localTwin: boolean;
  /** The REST API, mounted at `/api`. */
  api: Router;
  /** The hook intake: every request under `/hooks/`, before the app sees it. */
  hooks: HookIntake;
  /** Built PWA (vite output, with the compressed copies the build writes); served as files. */
  pwaDir: string;
  /** Counts every connection until it proves itself, and cuts the ones past the caps. */
  connections: ConnectionGuard;
}

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};
const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

/**
 * How long an idle kept-alive connection stays open. A hook posted on a connection just as
 * the agent closes it for idleness is reset, and Claude does not retry a hook, so the event is
 * lost. Node's default (5 s, plus a second Node adds) did that under load to a client that
 * leaves closing to the server, and left Claude itself (2.1.332 closes its hook connection
 * after about 5 s idle) a margin of one second. Kept this long, a client with an idle timeout
 * of its own closes first, with nothing in flight, and one without meets the race far more
 * rarely. Stopping the agent closes them all at once.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * The agent's server, and a plain-HTTP twin of the app for this machine's own tools
 * (hook.sh, the CLI), bound to loopback only: with TLS hooks then pay no handshake, and an
 * agent bound to one LAN address stays reachable from 127.0.0.1.
 */
export class AgentServers implements Disposable {
  private readonly open: ReadonlySet<Socket>;
  private readonly localOpen: ReadonlySet<Socket>;

  constructor(
    private readonly server: Server,
    private readonly local: Server | null,
    private readonly channels: ChannelTable,
  ) {
    this.open = openConnections(server);
    this.localOpen = local ? openConnections(local) : new Set();
  }

  /**
   * The ports bound. The twin asks for the port it had before (`localPort`): the Claudes that
   * went on running through a restart post their hooks there. Taken meanwhile, the system
   * picks one, and `localMoved` says so.
   */
  async listen(port: number, host: string, localPort: number | null = null): Promise<{ port: number; localPort: number | null; localMoved: boolean }> {
    const bound = await listen(this.server, port, host);
    if (!this.local) return { port: bound, localPort: null, localMoved: false };
    if (localPort !== null) {
      try {
        return { port: bound, localPort: await listen(this.local, localPort, '127.0.0.1'), localMoved: false };
      } catch (err) {
        if (!(err instanceof PortInUseError)) throw err;
      }
    }
    return { port: bound, localPort: await listen(this.local, 0, '127.0.0.1'), localMoved: localPort !== null };
  }

  async dispose(): Promise<void> {
    // Upgraded sockets are no longer the server's HTTP connections: unless their channels
    // close them first, with their own close codes, closing the server waits on them.
    this.channels.dispose();
    await Promise.all([closeServer(this.server, this.open), this.local ? closeServer(this.local, this.localOpen) : undefined]);
  }
}

export function createAgentServer(deps: ServerDeps): AgentServers {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(API_PREFIX, deps.api);

  if (existsSync(join(deps.pwaDir, 'index.html'))) {
    app.use(pwaFiles(deps.pwaDir));
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text/plain').send('The PWA is not built. Run `npm run build` (or `npm start`, which builds first).\n');
    });
  }

  // Every request: the same headers, the host checked, then hooks to their intake and the rest to the app.
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    deps.connections.requestStarted(req, res);
    for (const [k, v] of SECURITY_HEADER_ENTRIES) res.setHeader(k, v);
    if (!deps.hostGuard.allows(req.headers.host)) {
      replyJson(res, 421, { error: `this agent does not answer to the host "${req.headers.host ?? ''}"` });
      return;
    }
    if (isHookUrl(req.url)) deps.hooks(req, res);
    else app(req, res);
  };
  const server = deps.tls ? createHttpsServer({ cert: deps.tls.cert, key: deps.tls.key }, handle) : createServer(handle);
  server.on('upgrade', channelUpgradeHandler(deps));
  const local = deps.localTwin ? createServer(handle) : null;
  for (const s of [server, local]) {
    if (!s) continue;
    s.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    deps.connections.watch(s);
  }
  return new AgentServers(server, local, deps.channels);
}
