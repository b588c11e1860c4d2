import express, { type Router } from 'express';
import { DecisionBody } from '../../../protocol/api.js';
import type { ApprovalResolver } from '../../../protocol/approvals.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import type { ApprovalStore } from '../../approvals/approval-store.js';
import { CLI_DEVICE } from '../../auth/access.js';
import type { DeviceRecord } from '../../auth/device-store.js';
import { deviceOf, handler, parse } from './handler.js';
import { on } from './on-route.js';

export interface ApprovalRouteDeps {
  approvals: ApprovalStore;
}

function resolverOf(device: DeviceRecord): ApprovalResolver {
  return device.id === CLI_DEVICE.id ? { kind: 'cli', name: null } : { kind: 'device', name: device.name };
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
      res.json({ approvals: deps.approvals.list() });
    }),
  );
  on(
    router,
    API_ROUTES.decideApproval,
    handler(async (req, res) => {
      const body = parse(DecisionBody, req.body, 'decision');
      const result = await deps.approvals.decide(String(req.params.id), body, resolverOf(deviceOf(res)));
      if (result.ok) {
        res.json({ resolution: result.resolution });
        return;
      }
      res.status(result.status).json({ error: result.error, ...('resolution' in result ? { resolution: result.resolution } : {}), ...('code' in result ? { code: result.code } : {}) });
    }),
  );
  return router;
}
