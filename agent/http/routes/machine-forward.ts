import type { NextFunction, Request, Response } from 'express';
import type { ApiError } from '../../../protocol/api.js';
import { UPLOAD_FILENAME_HEADER, UPLOAD_MAX_BYTES } from '../../../protocol/limits.js';
import { splitMachineKey } from '../../../protocol/machine-key.js';
import { ON_BEHALF_HEADER } from '../../../protocol/machines.js';
import { API_ROUTES, type ApiRoute, routePath } from '../../../protocol/routes.js';
import { CLI_DEVICE } from '../../auth/access.js';
import type { MachineAnswer } from '../../machines/machine-client.js';
import { MachineLinkError, type Machines } from '../../machines/machines.js';
import { answerOf } from '../../machines/machine-views.js';
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

/** What a linked machine answered, passed on: in the home agent's keys when it names a session, else as it came. */
function passOn(res: Response, route: ApiRoute, machineId: string, answer: MachineAnswer): void {
  const rekeyed = answerOf(route, machineId, answer.body);
  if (rekeyed !== null) {
    res.status(answer.status).json(rekeyed);
    return;
  }
  const answerType = answer.headers['content-type'];
  if (answerType) res.setHeader('content-type', answerType);
  res.status(answer.status).end(answer.bytes);
}

/** One level deep: a linked machine does not reach further through this agent. Whether it was refused. */
function refusedMachine(res: Response): boolean {
  if (deviceOf(res).kind !== 'machine') return false;
  res.status(403).json({ error: 'a linked machine cannot reach the machines this agent links' } satisfies ApiError);
  return true;
}

/** The device a request is made for, told to the machine (a decision is recorded as its); none for the CLI. */
function onBehalfOf(res: Response): Record<string, string> {
  const device = deviceOf(res);
  return device.id === CLI_DEVICE.id ? {} : { [ON_BEHALF_HEADER]: encodeURIComponent(device.name) };
}

/** A machine that is not linked is a 404; one that did not answer, a 502 saying why. */
function failed(err: unknown, res: Response, next: NextFunction): void {
  if (err instanceof MachineLinkError) res.status(err.problem === 'not-found' ? 404 : 502).json({ error: err.message } satisfies ApiError);
  else next(err);
}

/**
 * A request for a session, approval or workspace of a linked machine (its id carries the
 * machine's, see machine-key.ts) goes to that machine, once, with the same method, the id it
 * has there, the query and the body as they came; its answer (status, type, body) comes back
 * as it is, a 409 there a 409 here, the keys in it as the home agent serves them. Mounted
 * after the credential check and before any body parser, so the body is passed on byte for byte.
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
      if (refusedMachine(res)) return;
      const upload = found.route === API_ROUTES.tabUpload;
      const hasBody = req.method !== 'GET' && req.method !== 'DELETE';
      const bytes = hasBody ? await readBody(req, upload ? UPLOAD_MAX_BYTES : JSON_BODY_MAX) : null;
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      const path = `${routePath(found.route, owner.key)}${search}`;
      const type = req.headers['content-type'] ?? 'application/octet-stream';
      const fileName = req.headers[UPLOAD_FILENAME_HEADER.toLowerCase()];
      const headers: Record<string, string> = { ...onBehalfOf(res), ...(upload && typeof fileName === 'string' ? { [UPLOAD_FILENAME_HEADER]: fileName } : {}) };
      const answer = await deps.machines.forward(owner.machineId, req.method, path, bytes && bytes.length > 0 ? { raw: bytes, type, headers } : undefined);
      passOn(res, found.route, owner.machineId, answer);
    } catch (err) {
      failed(err, res, next);
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
    if (refusedMachine(res)) return;
    const forwarded = { ...(body as object), workspaceId: owner.key };
    const answer = await deps.machines.forward(owner.machineId, 'POST', routePath(API_ROUTES.createTab), { raw: Buffer.from(JSON.stringify(forwarded)), type: 'application/json', headers: onBehalfOf(res) });
    passOn(res, API_ROUTES.createTab, owner.machineId, answer);
  } catch (err) {
    failed(err, res, next);
  }
}
