import express, { type Router } from 'express';
import type { TerminalsResponse } from '../../../protocol/api.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { handler } from './handler.js';
import { on } from './on-route.js';

export interface TerminalRouteDeps {
  /** Open terminal connections and their flow-control counters. */
  terminalStats: () => TerminalsResponse['terminals'];
  /** The agent's event-loop delay by the second, or null when it is not measured. */
  loopDelay: () => TerminalsResponse['loopDelay'];
}

/** `GET /terminals`: each open terminal's bytes sent and flow-control pauses, and the agent's loop delay if measured. */
export function terminalRoutes(deps: TerminalRouteDeps): Router {
  const router = express.Router();
  on(
    router,
    API_ROUTES.terminals,
    handler((_req, res) => {
      res.json({ terminals: deps.terminalStats(), loopDelay: deps.loopDelay() } satisfies TerminalsResponse);
    }),
  );
  return router;
}
