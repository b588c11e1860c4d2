import express, { type Router } from 'express';
import { AdoptBody, OutsideKey, type TabView, TabInputBody } from '../../../protocol/api.js';
import { AdoptError } from '../../outside/adopt.js';
import type { OutsideSessionsResponse, UserHooksView } from '../../../protocol/outside.js';
import { type ForeignTmux, PaneUnreachableError } from '../../outside/foreign-tmux.js';
import type { OutsideSessions } from '../../outside/outside-sessions.js';
import { TmuxError } from '../../tmux/client.js';
import { handler, HttpError, parse } from './handler.js';

export interface OutsideRouteDeps {
  outside: OutsideSessions;
  foreign: ForeignTmux;
  /** Makes an outside session a Claude tab of its own (agent/outside/adopt.ts). */
  adoptOutside: (key: string, workspaceId: string | undefined) => Promise<TabView>;
  /** Whether Claude's user settings hold pocketmux's hooks, read when asked. */
  userHooks: () => UserHooksView;
}

/**
 * `GET /outside`, `POST /outside/:key/input`, `POST /outside/:key/adopt`: the Claude sessions
 * started outside the tabs, a reply typed into one's pane (only where it runs in tmux), and
 * one made a Claude tab. `GET /hooks`: whether the user hooks that make them report are installed.
 */
export function outsideRoutes(deps: OutsideRouteDeps): Router {
  const router = express.Router();

  router.get(
    '/outside',
    handler((_req, res) => {
      res.json({ sessions: deps.outside.views() } satisfies OutsideSessionsResponse);
    }),
  );

  router.post(
    '/outside/:key/input',
    handler(async (req, res) => {
      const key = parse(OutsideKey, req.params.key, 'outside session key');
      const body = parse(TabInputBody, req.body, 'input');
      const session = deps.outside.get(key);
      if (!session) throw new HttpError(404, `no Claude session ${key} outside the tabs`);
      if (!session.tmux) throw new HttpError(409, 'no terminal: this Claude was started outside tmux; answer it in its terminal on the machine');
      if (!(await deps.outside.stillRunning(session))) {
        deps.outside.forget(key, 'process-gone');
        throw new HttpError(409, 'its claude is no longer running in that pane: nothing was typed');
      }
      try {
        await deps.foreign.type(session.tmux, body.text, body.enter);
      } catch (err) {
        if (err instanceof PaneUnreachableError) throw new HttpError(409, `cannot reach its pane: ${err.message}`);
        if (err instanceof TmuxError) throw new HttpError(409, `could not type into its pane (${err.message})`);
        throw err;
      }
      res.status(204).end();
    }),
  );

  router.post(
    '/outside/:key/adopt',
    handler(async (req, res) => {
      const key = parse(OutsideKey, req.params.key, 'outside session key');
      const body = parse(AdoptBody, req.body ?? {}, 'adopt');
      try {
        res.status(201).json(await deps.adoptOutside(key, body.workspaceId));
      } catch (err) {
        if (err instanceof AdoptError) throw new HttpError(err.status, err.message);
        throw err;
      }
    }),
  );

  router.get(
    '/hooks',
    handler((_req, res) => {
      res.json(deps.userHooks() satisfies UserHooksView);
    }),
  );

  return router;
}
