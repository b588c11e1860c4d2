import type { NextFunction, Request, Response } from 'express';
import type { ApiError } from '../../../protocol/api.js';
import { UPLOAD_FILENAME_HEADER, UPLOAD_MAX_BYTES } from '../../../protocol/limits.js';
import { machineKey, splitMachineKey } from '../../../protocol/machine-key.js';
import { API_ROUTES, type ApiRoute, routePath } from '../../../protocol/routes.js';
import { MachineLinkError, type Machines } from '../../machines/machines.js';
import { deviceOf } from './handler.js';

/** Routes of this agent alone: its devices and its links are never another machine's. */
const HOME_ONLY: ReadonlySet<ApiRoute> = new Set([API_ROUTES.revokeDevice, API_ROUTES.renameMachine, API_ROUTES.removeMachine]);

/** Every route with a resource in its path, as a pattern over the path under `/api`. */
const ROUTES_WITH_ID = Object.values(API_ROUTES)
  .filter((r) => r.path.includes('/:') && !HOME_ONLY.has(r))
  .map((route) => ({ route, pattern: new RegExp(`^${route.path.replace(/:[A-Za-z]+/, '([^/]+)')}$`) }));

/** The largest JSON body a route takes (see api-router.ts); uploads have their own. */
const JSON_BODY_MAX = 512 * 1024;

function readBody(req: Request, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        reject(Object.assign(new Error(`request body larger than ${max} bytes`), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A request for a session, approval or workspace of a linked machine (its id carries the
 * machine's, see machine-key.ts) goes to that machine, once, with the same method, the id it
 * has there, the query and the body as they came; its answer (status, type, body) comes back
 * as it is: a 409 there is a 409 here. Mounted after the credential check and before any body
 * parser, so the body is passed on byte for byte.
 */
export function machineForward(deps: { machines: Machines }) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method === API_ROUTES.createTab.method && req.path === API_ROUTES.createTab.path) return newTabOnMachine(deps, req, res, next);
    const found = ROUTES_WITH_ID.find((r) => r.route.method === req.method && r.pattern.test(req.path));
    if (!found) return next();
    let id: string;
    try {
      id = decodeURIComponent(found.pattern.exec(req.path)?.[1] ?? '');
    } catch {
      return next();
    }
    const owner = splitMachineKey(id);
    if (!owner) return next();
    try {
      // One level deep: a linked machine does not reach further through this agent.
      if (deviceOf(res).kind === 'machine') {
        res.status(403).json({ error: 'a linked machine cannot reach the machines this agent links' } satisfies ApiError);
        return;
      }
      const upload = found.route === API_ROUTES.tabUpload;
      const hasBody = req.method !== 'GET' && req.method !== 'DELETE';
      const bytes = hasBody ? await readBody(req, upload ? UPLOAD_MAX_BYTES : JSON_BODY_MAX) : null;
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      const path = `${routePath(found.route, owner.key)}${search}`;
      const type = req.headers['content-type'] ?? 'application/octet-stream';
      const fileName = req.headers[UPLOAD_FILENAME_HEADER.toLowerCase()];
      const headers: Record<string, string> = upload && typeof fileName === 'string' ? { [UPLOAD_FILENAME_HEADER]: fileName } : {};
      const answer = await deps.machines.forward(owner.machineId, req.method, path, bytes && bytes.length > 0 ? { raw: bytes, type, headers } : undefined);
      const answerType = answer.headers['content-type'];
      if (answerType) res.setHeader('content-type', answerType);
      res.status(answer.status).end(answer.bytes);
    } catch (err) {
      if (err instanceof MachineLinkError) {
        res.status(err.problem === 'not-found' ? 404 : 502).json({ error: err.message } satisfies ApiError);
        return;
      }
      next(err);
    }
  };
}

/**
 * `POST /tabs` names its workspace in the body: one of a linked machine's makes the tab there,
 * and the new tab comes back under the home agent's keys (so the app opens it). Any other body
 * is left, parsed, to the route (body-parser reads no stream twice).
 */
async function newTabOnMachine(deps: { machines: Machines }, req: Request, res: Response, next: NextFunction): Promise<void> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return next();
  try {
    const bytes = await readBody(req, JSON_BODY_MAX);
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      res.status(400).json({ error: `invalid JSON: ${(err as Error).message}`.slice(0, 200) } satisfies ApiError);
      return;
    }
    const workspaceId = (body as { workspaceId?: unknown } | null)?.workspaceId;
    const owner = typeof workspaceId === 'string' ? splitMachineKey(workspaceId) : null;
    if (!owner) {
      req.body = body;
      return next();
    }
    if (deviceOf(res).kind === 'machine') {
      res.status(403).json({ error: 'a linked machine cannot reach the machines this agent links' } satisfies ApiError);
      return;
    }
    const forwarded = { ...(body as object), workspaceId: owner.key };
    const answer = await deps.machines.forward(owner.machineId, 'POST', routePath(API_ROUTES.createTab), { raw: Buffer.from(JSON.stringify(forwarded)), type: 'application/json' });
    const tab = answer.body as { id?: unknown; workspaceId?: unknown } | null;
    if (answer.status === 201 && typeof tab?.id === 'string' && typeof tab.workspaceId === 'string') {
      res.status(201).json({ ...tab, id: machineKey(owner.machineId, tab.id), workspaceId: machineKey(owner.machineId, tab.workspaceId) });
      return;
    }
    const answerType = answer.headers['content-type'];
    if (answerType) res.setHeader('content-type', answerType);
    res.status(answer.status).end(answer.bytes);
  } catch (err) {
    if (err instanceof MachineLinkError) {
      res.status(err.problem === 'not-found' ? 404 : 502).json({ error: err.message } satisfies ApiError);
      return;
    }
    next(err);
  }
}
