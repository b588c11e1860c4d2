import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import express, { type Router } from 'express';
import { type WebSocket, WebSocketServer } from 'ws';
import { CloseCode } from '../../protocol/close-codes.js';
import { MAX_TERMINAL_DIMENSION } from '../../protocol/terminal-frame.js';
import type { AccessControl } from '../auth/access.js';
import type { DeviceSockets } from '../auth/device-sockets.js';
import type { HostGuard } from '../auth/host.js';
import type { RefusalLog } from '../auth/refusal-log.js';
import { ChannelSocketCap } from '../channels/connection-limits.js';
import type { TimelineHub } from '../claude/timeline-hub.js';
import type { StatusHub } from '../status/status-hub.js';
import type { TerminalBridge } from '../terminal/terminal-bridge.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Logger } from '../util/log.js';
import { apiRouter, type RouteDeps } from './routes.js';
import type { SyncHub } from './sync-hub.js';

export interface ServerDeps extends RouteDeps {
  /** PEM certificate and key: serve HTTPS (and WSS) instead of HTTP. */
  tls: { cert: Buffer; key: Buffer } | null;
  /** Also serve plain HTTP on loopback for local tools (when the main server is HTTPS or not on loopback). */
  localTwin: boolean;
  hostGuard: HostGuard;
  sockets: DeviceSockets;
  hooks: Router;
  statusHub: StatusHub;
  timeline: TimelineHub;
  access: AccessControl;
  bridge: TerminalBridge;
  sync: SyncHub;
  tabs: TabService;
  log: Logger;
  /** Where refusals any client can cause are logged, at a bounded rate per source. */
  refusals: RefusalLog;
  /** Built PWA (vite output); served as static files. */
  pwaDir: string;
}

/** The WebSocket paths the agent serves; anything else is refused before upgrading. */
export const WEBSOCKET_PATHS = ['/api/terminal', '/api/sync', '/api/status', '/api/timeline'] as const;

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  const body = JSON.stringify({ error: text });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function dimension(raw: string | null, fallback: number): number {
  if (raw === null || !/^\d{1,5}$/.test(raw)) return fallback;
  const n = Number(raw);
  return n >= 1 && n <= MAX_TERMINAL_DIMENSION ? n : fallback;
}

export interface AgentServers {
  server: Server;
  /**
   * A plain-HTTP twin of the app for this machine's own tools (hook.sh, the CLI), bound to
   * loopback only: with TLS hooks then pay no handshake, and an agent bound to one LAN
   * address stays reachable from 127.0.0.1. Null when the main server already is that.
   */
  local: Server | null;
}

export function createAgentServer(deps: ServerDeps): AgentServers {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req, res, next) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    if (!deps.hostGuard.allows(req.headers.host)) {
      res.status(421).json({ error: `this agent does not answer to the host "${req.headers.host ?? ''}"` });
      return;
    }
    next();
  });
  app.use('/hooks', deps.hooks);
  app.use('/api', apiRouter(deps));

  if (existsSync(join(deps.pwaDir, 'index.html'))) {
    app.use(
      express.static(deps.pwaDir, {
        index: 'index.html',
        setHeaders(res, path) {
          // Hashed assets never change; the shell and service worker must be revalidated.
          if (/\/assets\//.test(path)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
          else res.setHeader('Cache-Control', 'no-cache');
        },
      }),
    );
    app.get(/^\/(?!api\/).*/, (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(join(deps.pwaDir, 'index.html'));
    });
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text/plain').send('The PWA is not built. Run `npm run build` (or `npm start`, which builds first).\n');
    });
  }

  const server = deps.tls ? createHttpsServer({ cert: deps.tls.cert, key: deps.tls.key }, app) : createServer(app);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const channelCap = new ChannelSocketCap();

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://agent.invalid');
    if (!(WEBSOCKET_PATHS as readonly string[]).includes(url.pathname)) return refuseUpgrade(socket, 404, 'Not Found');
    if (!deps.hostGuard.allows(req.headers.host)) return refuseUpgrade(socket, 421, 'Misdirected Request');
    const decision = deps.access.check(req);
    if (!decision.ok) {
      deps.refusals.refused(req.socket.remoteAddress ?? 'unknown', 'refused a WebSocket', { path: url.pathname, reason: decision.reason });
      return refuseUpgrade(socket, decision.status, decision.status === 401 ? 'Unauthorized' : 'Forbidden');
    }

    const device = decision.device;
    const handle = (accept: (ws: WebSocket) => void) =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        deps.sockets.register(device.id, ws);
        accept(ws);
      });
    /** A JSON channel socket, counted against the channel caps. */
    const handleChannel = (accept: (ws: WebSocket) => void) =>
      handle((ws) => {
        channelCap.admit(device.id, ws);
        accept(ws);
      });

    if (url.pathname === '/api/sync') {
      handleChannel((ws) => deps.sync.add(ws));
      return;
    }
    if (url.pathname === '/api/timeline') {
      const tabId = url.searchParams.get('tab') ?? '';
      handleChannel((ws) => {
        // An outside session is followed only while the agent knows it, so no client can make up feeds.
        if (!deps.tabs.tab(tabId) && !deps.timeline.knows(tabId)) ws.close(CloseCode.TabNotFound, 'no such tab');
        else deps.timeline.add(ws, tabId);
      });
      return;
    }
    if (url.pathname === '/api/status') {
      handleChannel((ws) => deps.statusHub.add(ws));
      return;
    }

    const tab = deps.tabs.tab(url.searchParams.get('tab') ?? '');
    handle((ws) => {
      if (!tab) {
        ws.close(CloseCode.TabNotFound, 'no such tab');
        return;
      }
      deps.bridge.attach(ws, tab, device.id, {
        cols: dimension(url.searchParams.get('cols'), 80),
        rows: dimension(url.searchParams.get('rows'), 24),
      });
    });
  });

  return { server, local: deps.localTwin ? createServer(app) : null };
}
