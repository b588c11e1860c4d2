import type { Request, Router } from 'express';
import { ModeBody } from '../../../protocol/api.js';
import type { ClaudeMode, ModeResponse } from '../../../protocol/claude-mode.js';
import type { ApiRoute } from '../../../protocol/routes.js';
import { ModeSwitchError } from '../../wiring/mode-switch.js';
import { handler, HttpError, parse } from './handler.js';
import { on } from './on-route.js';

/**
 * `POST …/mode` of a tab or an outside session: switches its Claude's permission mode
 * (agent/wiring/mode-switch.ts), a refusal answered with the status the switch gives.
 */
export function modeRoute(
  router: Router,
  route: ApiRoute,
  keyOf: (req: Request) => string,
  switchMode: (key: string, body: ModeBody) => Promise<ClaudeMode>,
): void {
  on(
    router,
    route,
    handler(async (req, res) => {
      const key = keyOf(req);
      const body = parse(ModeBody, req.body, 'mode');
      try {
        res.json({ mode: await switchMode(key, body) } satisfies ModeResponse);
      } catch (err) {
        if (err instanceof ModeSwitchError) throw new HttpError(err.status, err.message);
        throw err;
      }
    }),
  );
}
