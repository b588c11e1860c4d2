import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { ApiError } from '../../../protocol/api.js';
import { AGENT_TIME_HEADER, PROOF_TIME_ERROR } from '../../../protocol/device-proof.js';
import type { AccessControl } from '../../auth/access.js';
import type { ConnectionProof } from '../../auth/connection-guard.js';
import { type UploadRefusal, UploadRefused } from '../../composer/upload-request.js';
import { UploadError } from '../../composer/uploads.js';
import { LimitError } from '../../store/workspace-store.js';
import { NotFoundError, UnavailableError } from '../../tabs/tab-service.js';
import { InputBacklogError } from '../../tmux/input-queue.js';
import type { Logger } from '../../util/log.js';
import { type ApprovalRouteDeps, approvalRoutes } from './approvals.js';
import { type ChangesRouteDeps, changesRoutes } from './changes.js';
import { type DeviceRouteDeps, deviceRoutes } from './devices.js';
import { HttpError } from './handler.js';
import { type MachineRouteDeps, machineRoutes } from './machines.js';
import { machineForward } from './machine-forward.js';
import { type OutsideRouteDeps, outsideRoutes, outsideUploadRoutes } from './outside.js';
import { type PairingRouteDeps, pairingRoutes, pairRoutes } from './pairing.js';
import { type PushRouteDeps, pushRoutes } from './push.js';
import { type StatusRouteDeps, statusRoutes } from './status.js';
import { type TabRouteDeps, tabRoutes, tabUploadRoutes } from './tabs.js';
import { type TerminalRouteDeps, terminalRoutes } from './terminals.js';
import { type WorkspaceRouteDeps, workspaceRoutes } from './workspaces.js';

export type RouteDeps = { access: AccessControl; connections: ConnectionProof; log: Logger } & PairingRouteDeps &
  DeviceRouteDeps &
  MachineRouteDeps &
  WorkspaceRouteDeps &
  TabRouteDeps &
  StatusRouteDeps &
  ApprovalRouteDeps &
  PushRouteDeps &
  OutsideRouteDeps &
  ChangesRouteDeps &
  TerminalRouteDeps;

/**
 * The largest body is typed input: 64 K characters, up to three UTF-8 bytes each, and more
 * when a client writes them as `\uXXXX` escapes.
 */
const API_BODY_LIMIT = '512kb';

/** The answer to each refused upload: a bad name, past the limit, no free slot, or a failure. */
const UPLOAD_REFUSAL_STATUS: Readonly<Record<UploadRefusal, number>> = { 'bad-name': 400, 'too-large': 413, busy: 503, failed: 500 };

/**
 * The REST API under `/api`. Every route but pairing is mounted behind the device
 * credential check; the security suite lists them from this router (`listRoutes`), so a
 * new route cannot skip the check.
 */
export function apiRouter(deps: RouteDeps): Router {
  const api = express.Router();
  // Devices sign their requests with the time as the agent knows it (see device-proof.ts).
  api.use((_req, res, next) => {
    res.setHeader(AGENT_TIME_HEADER, String(Date.now()));
    next();
  });
  api.use(pairRoutes(deps));

  // A client without a credential must not make the agent parse anything: bodies are
  // parsed after this check.
  api.use((req, res, next) => {
    const decision = deps.access.check(req, req.originalUrl);
    if (!decision.ok) {
      const code = decision.clock ? PROOF_TIME_ERROR : decision.refusal;
      res.status(decision.status).json({ error: decision.reason, ...(code ? { code } : {}) } satisfies ApiError);
      return;
    }
    res.locals.device = decision.device;
    deps.connections.proven(req);
    next();
  });
  // What is for a linked machine's session goes there, its body as it came: before any parser.
  api.use(machineForward(deps));
  // Uploads are raw bodies with their own limit (UPLOAD_MAX_BYTES), streamed to disk: they
  // come before the JSON parser, which would otherwise take a JSON file for a request body.
  api.use(tabUploadRoutes(deps));
  api.use(outsideUploadRoutes(deps));
  api.use(express.json({ limit: API_BODY_LIMIT, strict: true }));

  api.use(pairingRoutes(deps));
  api.use(deviceRoutes(deps));
  api.use(machineRoutes(deps));
  api.use(workspaceRoutes(deps));
  api.use(tabRoutes(deps));
  api.use(statusRoutes(deps));
  api.use(approvalRoutes(deps));
  api.use(pushRoutes(deps));
  api.use(outsideRoutes(deps));
  api.use(changesRoutes(deps));
  api.use(terminalRoutes(deps));

  api.use((_req, res) => {
    res.status(404).json({ error: 'no such API route' } satisfies ApiError);
  });
  api.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof HttpError) {
      res.status(err.status).json({ error: err.message, ...(err.issues ? { issues: err.issues } : {}) } satisfies ApiError);
      return;
    }
    if (err instanceof UploadRefused || err instanceof UploadError) {
      res.status(err instanceof UploadRefused ? UPLOAD_REFUSAL_STATUS[err.reason] : err.status).json({ error: err.message } satisfies ApiError);
      return;
    }
    if (err instanceof UnavailableError || err instanceof LimitError) {
      res.status(409).json({ error: err.message } satisfies ApiError);
      return;
    }
    if (err instanceof NotFoundError) {
      res.status(404).json({ error: err.message } satisfies ApiError);
      return;
    }
    if (err instanceof InputBacklogError) {
      res.setHeader('Retry-After', '1');
      res.status(503).json({ error: err.message } satisfies ApiError);
      return;
    }
    // body-parser's errors carry a status (400 bad JSON, 413 too large, 415 bad type).
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json({ error: (err as Error).message } satisfies ApiError);
      return;
    }
    // A full disk (or quota) under the data dir: the change was undone and not saved.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      deps.log.error('could not save a change: no space left on the disk of the data dir', { error: (err as Error).message });
      res.status(507).json({ error: 'not saved: no space left on the disk of the data dir' } satisfies ApiError);
      return;
    }
    deps.log.error('request failed', { error: (err as Error).message });
    res.status(500).json({ error: 'internal error; see the agent log' } satisfies ApiError);
  });

  return api;
}

export interface ListedRoute {
  method: string;
  path: string;
}

/** What Express keeps of a route beside its path; its types leave it out. */
type RouteMethods = { methods: Record<string, boolean> };

/**
 * Every route a router serves, found by walking its stack into the routers mounted in it
 * (all mounted without a path of their own, so a route's path is the one it declares).
 */
export function listRoutes(router: Router): ListedRoute[] {
  return router.stack.flatMap((layer) => {
    if (layer.route) {
      const { path } = layer.route;
      const { methods } = layer.route as unknown as RouteMethods;
      return Object.keys(methods).map((m) => ({ method: m.toUpperCase(), path }));
    }
    const mounted = layer.handle as unknown as Partial<Router>;
    return mounted.stack ? listRoutes(mounted as Router) : [];
  });
}
