import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import {
  type ApiError,
  type DevicesResponse,
  PairBody,
  type PairingResponse,
  type ClaudeSessionsResponse,
  CreateTabBody,
  CreateWorkspaceBody,
  displayNameFrom,
  RenameBody,
  type SessionResponse,
  TabId,
  TabInputBody,
  type TerminalsResponse,
  WorkspaceId,
  type WorkspacesResponse,
} from '../../protocol/api.js';
import type { TabStatus } from '../../protocol/status.js';
import type { AccessControl } from '../auth/access.js';
import { originAllowed } from '../auth/access.js';
import type { DeviceRecord, DeviceStore } from '../auth/device-store.js';
import type { AttemptLimiter, PairingStore } from '../auth/pairing.js';
import { expandHome } from '../config/config.js';
import { LimitError, type WorkspaceStore } from '../store/workspace-store.js';
import { NotFoundError, type TabService, UnavailableError } from '../tabs/tab-service.js';
import { InputBacklogError } from '../tmux/input-queue.js';
import type { Logger } from '../util/log.js';

export interface RouteDeps {
  /** Every Claude tab's status, for scripts polling over REST. */
  statusSnapshot: () => Record<string, TabStatus>;
  /** Past Claude sessions started in a directory, newest first. */
  claudeSessions: (dir: string) => Promise<ClaudeSessionsResponse['sessions']>;
  /** Open terminal connections and their flow-control counters. */
  terminalStats: () => TerminalsResponse['terminals'];
  access: AccessControl;
  devices: DeviceStore;
  pairings: PairingStore;
  attempts: AttemptLimiter;
  /** Makes a pairing for the next device, with its URL and QR code. */
  newPairing: () => Promise<PairingResponse>;
  /** A device was revoked: cut its open sockets. */
  revoked: (deviceId: string) => void;
  store: WorkspaceStore;
  tabs: TabService;
  log: Logger;
  version: string;
  /** True when the agent is served over HTTPS, so the credential cookie is `Secure`. */
  secure: boolean;
}

/** Thrown inside handlers; turned into a JSON error with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: ApiError['issues'],
  ) {
    super(message);
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new HttpError(400, `invalid ${what}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`, issues);
}

/**
 * The largest body is typed input: 64 K characters, up to three UTF-8 bytes each, and more
 * when a client writes them as `\uXXXX` escapes.
 */
const API_BODY_LIMIT = '512kb';

type Handler = (req: Request, res: Response) => Promise<void> | void;

/** Express 5 forwards rejected promises to the error handler; this keeps types tidy. */
const route = (fn: Handler) => (req: Request, res: Response, next: NextFunction) => {
  Promise.resolve(fn(req, res)).catch(next);
};

const DeviceId = z.string().regex(/^dv-[a-z0-9]{1,32}$/, 'not a device id');

function deviceOf(res: Response): DeviceRecord {
  return res.locals.device as DeviceRecord;
}

function sessionOf(device: DeviceRecord, deps: RouteDeps): SessionResponse {
  return { deviceId: device.id, deviceName: device.name, agentVersion: deps.version, home: homedir() };
}

function resolveDirectory(raw: string): string {
  const expanded = expandHome(raw.trim());
  if (!isAbsolute(expanded)) throw new HttpError(400, `dir must be an absolute path or start with ~, got "${raw}"`);
  const dir = resolve(expanded);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new HttpError(400, `dir ${dir} does not exist`);
  }
  if (!isDir) throw new HttpError(400, `dir ${dir} is not a directory`);
  return dir;
}

/**
 * The REST API. Every path here but pairing requires a device credential; the list
 * of protected paths is the router itself, so a new route cannot skip the check.
 */
export function apiRouter(deps: RouteDeps): Router {
  const api = express.Router();
  // A client without a credential must not make the agent parse anything: bodies are
  // parsed after the check below. Pairing parses its own, which is tiny.
  const pairingBody = express.json({ limit: '4kb', strict: true });

  // Pairing is how a device gets in; it cannot need a credential. Wrong attempts are
  // limited per source address.
  api.post(
    '/pair',
    pairingBody,
    route((req, res) => {
      if (!originAllowed(req)) throw new HttpError(403, 'foreign origin');
      const source = req.socket.remoteAddress ?? 'unknown';
      const wait = deps.attempts.retryAfter(source);
      if (wait > 0) {
        res.setHeader('Retry-After', String(wait));
        throw new HttpError(429, `too many wrong pairing attempts; try again in ${wait} s`);
      }
      const body = parse(PairBody, req.body, 'pairing');
      if (!deps.pairings.redeem({ secret: body.secret, code: body.code })) {
        deps.attempts.fail(source);
        throw new HttpError(401, 'this pairing link or code is wrong, already used or expired; get a new one with `pocketmux pair`');
      }
      deps.attempts.succeed(source);
      const ua = req.headers['user-agent'];
      const { device, credential } = deps.devices.add(body.deviceName ?? guessDeviceName(ua), guessDeviceName(ua));
      deps.log.info('device paired', { device: device.id, name: device.name });
      res.cookie(deps.access.cookieName, credential, {
        httpOnly: true,
        sameSite: 'strict',
        secure: deps.secure,
        path: '/',
        maxAge: 400 * 24 * 3600 * 1000,
      });
      res.status(201).json(sessionOf(device, deps));
    }),
  );

  api.use((req, res, next) => {
    const decision = deps.access.check(req);
    if (!decision.ok) {
      res.status(decision.status).json({ error: decision.reason } satisfies ApiError);
      return;
    }
    res.locals.device = decision.device;
    next();
  });
  api.use(express.json({ limit: API_BODY_LIMIT, strict: true }));

  api.post(
    '/pairings',
    route(async (_req, res) => {
      res.status(201).json(await deps.newPairing());
    }),
  );

  api.get(
    '/devices',
    route((_req, res) => {
      const me = deviceOf(res).id;
      const devices = deps.devices.list().map((d) => ({
        id: d.id,
        name: d.name,
        platform: d.platform,
        pairedAt: d.pairedAt,
        lastSeenAt: d.lastSeenAt,
        current: d.id === me,
      }));
      res.json({ devices } satisfies DevicesResponse);
    }),
  );

  api.delete(
    '/devices/:id',
    route((req, res) => {
      const id = parse(DeviceId, req.params.id, 'device id');
      if (!deps.devices.remove(id)) throw new HttpError(404, `no device ${id}`);
      deps.revoked(id);
      deps.log.info('device revoked', { device: id });
      res.status(204).end();
    }),
  );

  api.get(
    '/session',
    route((_req, res) => {
      res.json(sessionOf(deviceOf(res), deps));
    }),
  );

  api.get(
    '/workspaces',
    route(async (_req, res) => {
      await deps.tabs.refreshPanes();
      res.json({ workspaces: deps.tabs.views() } satisfies WorkspacesResponse);
    }),
  );

  api.post(
    '/workspaces',
    route((req, res) => {
      const body = parse(CreateWorkspaceBody, req.body, 'workspace');
      const dir = resolveDirectory(body.dir);
      const ws = deps.store.addWorkspace(body.name ?? displayNameFrom(basename(dir) || dir, 'Workspace'), dir);
      res.status(201).json({ ...ws, tabs: [] });
    }),
  );

  api.patch(
    '/workspaces/:id',
    route((req, res) => {
      const id = parse(WorkspaceId, req.params.id, 'workspace id');
      const body = parse(RenameBody, req.body, 'rename');
      const ws = deps.store.renameWorkspace(id, body.name);
      if (!ws) throw new HttpError(404, `no workspace ${id}`);
      res.json({ ...ws, tabs: deps.store.tabsOf(id).map((t) => deps.tabs.tabView(t)) });
    }),
  );

  api.get(
    '/workspaces/:id/claude-sessions',
    route(async (req, res) => {
      const id = parse(WorkspaceId, req.params.id, 'workspace id');
      const ws = deps.store.workspace(id);
      if (!ws) throw new HttpError(404, `no workspace ${id}`);
      res.json({ sessions: await deps.claudeSessions(ws.dir) } satisfies ClaudeSessionsResponse);
    }),
  );

  api.delete(
    '/workspaces/:id',
    route(async (req, res) => {
      const id = parse(WorkspaceId, req.params.id, 'workspace id');
      await deps.tabs.closeWorkspace(id);
      res.status(204).end();
    }),
  );

  api.get(
    '/status',
    route((_req, res) => {
      res.json({ tabs: deps.statusSnapshot() });
    }),
  );

  api.post(
    '/tabs/:id/input',
    route(async (req, res) => {
      const id = parse(TabId, req.params.id, 'tab id');
      const body = parse(TabInputBody, req.body, 'input');
      await deps.tabs.sendInput(id, body.text, body.enter);
      res.status(204).end();
    }),
  );

  api.get(
    '/terminals',
    route((_req, res) => {
      res.json({ terminals: deps.terminalStats() } satisfies TerminalsResponse);
    }),
  );

  api.get(
    '/tabs',
    route(async (_req, res) => {
      await deps.tabs.refreshPanes();
      res.json({ tabs: deps.store.tabs().map((t) => deps.tabs.tabView(t)) });
    }),
  );

  api.post(
    '/tabs',
    route(async (req, res) => {
      const body = parse(CreateTabBody, req.body, 'tab');
      const tab = await deps.tabs.createTab(body.workspaceId, body.name ?? null, {
        kind: body.kind,
        ...(body.claude?.resume ? { resume: body.claude.resume } : {}),
        ...(body.claude?.permissionMode ? { permissionMode: body.claude.permissionMode } : {}),
      });
      res.status(201).json(deps.tabs.tabView(tab));
    }),
  );

  api.patch(
    '/tabs/:id',
    route((req, res) => {
      const id = parse(TabId, req.params.id, 'tab id');
      const body = parse(RenameBody, req.body, 'rename');
      const tab = deps.store.renameTab(id, body.name);
      if (!tab) throw new HttpError(404, `no tab ${id}`);
      res.json(deps.tabs.tabView(tab));
    }),
  );

  api.delete(
    '/tabs/:id',
    route(async (req, res) => {
      const id = parse(TabId, req.params.id, 'tab id');
      await deps.tabs.closeTab(id);
      res.status(204).end();
    }),
  );

  api.use((_req, res) => {
    res.status(404).json({ error: 'no such API route' } satisfies ApiError);
  });

  api.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof HttpError) {
      res.status(err.status).json({ error: err.message, ...(err.issues ? { issues: err.issues } : {}) } satisfies ApiError);
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
    deps.log.error('request failed', { error: (err as Error).message });
    res.status(500).json({ error: 'internal error; see the agent log' } satisfies ApiError);
  });

  return api;
}

/** "Chrome on Android" and the like, from a User-Agent, as a default device name. */
export function guessDeviceName(ua: string | undefined): string {
  if (!ua) return 'Unknown device';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const platform = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'Unknown';
  return `${browser} on ${platform}`;
}
