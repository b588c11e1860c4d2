import express, { type Router } from 'express';
import { DecisionBody, DisplayName } from '../../../protocol/api.js';
import type { ApprovalResolver } from '../../../protocol/approvals.js';
import { ON_BEHALF_HEADER } from '../../../protocol/machines.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import type { ApprovalStore } from '../../approvals/approval-store.js';
import { CLI_DEVICE } from '../../auth/access.js';
import type { DeviceRecord } from '../../auth/device-store.js';
import type { LinkedLists } from '../../machines/machine-union.js';
import { deviceOf, HttpError, handler, parse, seesLinked } from './handler.js';
import { on } from './on-route.js';

export interface ApprovalRouteDeps {
  approvals: ApprovalStore;
  /** The linked machines' open approvals, listed after this agent's own. */
  linked: Pick<LinkedLists, 'approvals'>;
}

/**
 * Who decides: the CLI, a paired device, or one of a home agent's devices through it (a linked
 * home agent names the device it forwards for, see ON_BEHALF_HEADER).
 */
export function resolverOf(device: DeviceRecord, onBehalf: string | string[] | undefined): ApprovalResolver {
  if (device.id === CLI_DEVICE.id) return { kind: 'cli', name: null };
  if (device.kind !== 'machine' || typeof onBehalf !== 'string') return { kind: 'device', name: device.name };
  let name: string;
  try {
    name = decodeURIComponent(onBehalf);
  } catch {
    throw new HttpError(400, `${ON_BEHALF_HEADER} is not URI-encoded`);
  }
  return { kind: 'device', name: `${parse(DisplayName, name, ON_BEHALF_HEADER)} via ${device.name}` };
}

/**
 * `GET /approvals`: what Claude is waiting on, oldest first. `POST /approvals/:id`: one
 * decision; the first settles it, a later one gets 409 with who settled it and how.
 */
export function approvalRoutes(deps: ApprovalRouteDeps): Router {
  const router = express.Router();
  on(
    router,
    API_ROUTES.approvals,
    handler((_req, res) => {
      res.json({ approvals: [...deps.approvals.list(), ...(seesLinked(res) ? deps.linked.approvals() : [])] });
    }),
  );
  on(
    router,
    API_ROUTES.decideApproval,
    handler(async (req, res) => {
      const body = parse(DecisionBody, req.body, 'decision');
      const result = await deps.approvals.decide(String(req.params.id), body, resolverOf(deviceOf(res), req.headers[ON_BEHALF_HEADER.toLowerCase()]));
      if (result.ok) {
        res.json({ resolution: result.resolution });
        return;
      }
      res.status(result.status).json({ error: result.error, ...('resolution' in result ? { resolution: result.resolution } : {}), ...('code' in result ? { code: result.code } : {}) });
    }),
  );
  return router;
}
