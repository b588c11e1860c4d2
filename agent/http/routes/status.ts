import express, { type Router } from 'express';
import type { TabStatus } from '../../../protocol/status.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import type { Logger } from '../../util/log.js';
import type { LinkedLists } from '../../machines/machine-union.js';
import { handler, seesLinked } from './handler.js';
import { on } from './on-route.js';

export interface StatusRouteDeps {
  /** Every Claude tab's status, for scripts polling over REST. */
  statusSnapshot: () => Record<string, TabStatus>;
  /** The linked machines' sessions, listed after this agent's own. */
  linked: Pick<LinkedLists, 'tabs'>;
  log: Logger;
}

/** `GET /status`: what `/api/status` sends first, for clients that poll. */
export function statusRoutes(deps: StatusRouteDeps): Router {
  const router = express.Router();
  on(
    router,
    API_ROUTES.status,
    handler((_req, res) => {
      const tabs = { ...deps.statusSnapshot(), ...(seesLinked(res) ? deps.linked.tabs() : {}) };
      res.json({ tabs });
      // A script polling (`tab status --wait-for`) has seen the states from here: the log shows it is waiting.
      deps.log.debug('tab states read', { tabs: Object.keys(tabs).length });
    }),
  );
  return router;
}
