import express, { type Router } from 'express';
import type { TabStatus } from '../../../protocol/status.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { handler } from './handler.js';
import { on } from './on-route.js';

export interface StatusRouteDeps {
  /** Every Claude tab's status, for scripts polling over REST. */
  statusSnapshot: () => Record<string, TabStatus>;
}

/** `GET /status`: what `/api/status` sends first, for clients that poll. */
export function statusRoutes(deps: StatusRouteDeps): Router {
  const router = express.Router();
  on(
    router,
    API_ROUTES.status,
    handler((_req, res) => {
      res.json({ tabs: deps.statusSnapshot() });
    }),
  );
  return router;
}
