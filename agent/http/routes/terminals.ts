import express, { type Router } from 'express';
import type { TerminalsResponse } from '../../../protocol/api.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { handler } from './handler.js';
import { on } from './on-route.js';

export interface TerminalRouteDeps {
  /** Open terminal connections and their flow-control counters. */
  terminalStats: () => TerminalsResponse['terminals'];
}

/** `GET /terminals`: each open terminal's bytes sent and flow-control pauses. */
export function terminalRoutes(deps: TerminalRouteDeps): Router {
  const router = express.Router();
  on(
    router,
    API_ROUTES.terminals,
    handler((_req, res) => {
      res.json({ terminals: deps.terminalStats() } satisfies TerminalsResponse);
    }),
  );
  return router;
}
