import express, { type Response, type Router } from 'express';
import { RenameBody } from '../../../protocol/api.js';
import { AddMachineBody, type MachineLinkResponse, MachineId, type MachinesResponse } from '../../../protocol/machines.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import type { PairingService } from '../../auth/pairing-service.js';
import { encodeLinkCode } from '../../machines/link-code.js';
import { isLoopbackHost } from '../../machines/machine-client.js';
import { MachineLimitError } from '../../machines/machine-store.js';
import { MachineLinkError, type MachineLinkProblem, type Machines } from '../../machines/machines.js';
import { trustOf } from '../../machines/machine-store.js';
import type { Logger } from '../../util/log.js';
import { deviceOf, handler, HttpError, parse } from './handler.js';
import { on } from './on-route.js';

export interface MachineRouteDeps {
  machines: Machines;
  pairing: PairingService;
  /** The SHA-256 fingerprint of the certificate this agent serves itself, or null (no TLS of its own). */
  certificatePin: string | null;
  /** The name this agent suggests for itself in a link code. */
  machineName: string;
  log: Logger;
}

/** A linked agent signs in as a device of its own kind: it follows sessions, it does not link or unlink machines. */
function notByMachine(res: Response): void {
  if (deviceOf(res).kind === 'machine') throw new HttpError(403, 'a linked machine cannot link or unlink machines');
}

/** The answer to each link problem; an agent that could not be reached or trusted is a bad gateway. */
const PROBLEM_STATUS: Readonly<Record<MachineLinkProblem, number>> = { 'bad-code': 400, 'linked-already': 409, 'not-found': 404, unreachable: 502, refused: 400, busy: 429 };

async function linkErrors<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof MachineLinkError) throw new HttpError(PROBLEM_STATUS[err.problem], err.message);
    if (err instanceof MachineLimitError) throw new HttpError(409, err.message);
    throw err;
  }
}

/** `POST /machine-links` (this agent, to be linked), and `/machines` (the agents this one linked). */
export function machineRoutes(deps: MachineRouteDeps): Router {
  const router = express.Router();
  on(
    router,
    API_ROUTES.newMachineLink,
    handler((_req, res) => {
      notByMachine(res);
      const made = deps.pairing.createForMachine();
      const url = new URL(made.url);
      if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname)) {
        throw new HttpError(
          409,
          `this agent serves plain HTTP at ${url.host}: another machine would link to it without TLS. Start it with --tailscale, or with --tls-cert and --tls-key, and make the code again`,
        );
      }
      const pin = url.protocol === 'https:' ? deps.certificatePin : null;
      const code = encodeLinkCode({ url: made.url, secret: made.secret, pin, name: deps.machineName });
      res.status(201).json({ code, expiresAt: made.expiresAt, validForSeconds: made.validForSeconds, trust: trustOf(made.url, pin) } satisfies MachineLinkResponse);
    }),
  );
  on(
    router,
    API_ROUTES.machines,
    handler(async (req, res) => {
      res.json({ machines: await deps.machines.list(req.query.check === '1') } satisfies MachinesResponse);
    }),
  );
  on(
    router,
    API_ROUTES.addMachine,
    handler(async (req, res) => {
      notByMachine(res);
      const body = parse(AddMachineBody, req.body, 'machine link');
      res.status(201).json(await linkErrors(() => deps.machines.link(body)));
    }),
  );
  on(
    router,
    API_ROUTES.renameMachine,
    handler(async (req, res) => {
      notByMachine(res);
      const id = parse(MachineId, req.params.id, 'machine id');
      const body = parse(RenameBody, req.body, 'name');
      res.json(await linkErrors(() => deps.machines.rename(id, body.name)));
    }),
  );
  on(
    router,
    API_ROUTES.removeMachine,
    handler(async (req, res) => {
      notByMachine(res);
      const id = parse(MachineId, req.params.id, 'machine id');
      res.json(await linkErrors(() => deps.machines.remove(id)));
    }),
  );
  return router;
}
