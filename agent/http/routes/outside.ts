import express, { type Router } from 'express';
import { AdoptBody, type ModeBody, OutsideKey, PaneKeyBody, type SlashCommandsResponse, type TabView, TabInputBody } from '../../../protocol/api.js';
import { slashCommands } from '../../composer/command-scan.js';
import { receiveUpload } from '../../composer/upload-request.js';
import { AdoptError } from '../../wiring/adopt.js';
import { outsideDir } from '../../wiring/session-dir.js';
import type { OutsideSessionsResponse, UserHooksView } from '../../../protocol/outside.js';
import { DIALOG_SHOWN_ERROR } from '../../../protocol/approvals.js';
import type { ClaudeMode } from '../../../protocol/claude-mode.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { type OutsidePane, type OutsideTmux, PaneUnreachableError } from '../../outside/outside-tmux.js';
import { type OutsideSession, OutsidePaneError, type OutsideSessions } from '../../outside/outside-sessions.js';
import { TmuxError } from '../../tmux/client.js';
import type { LinkedLists } from '../../machines/machine-union.js';
import type { Logger } from '../../util/log.js';
import { handler, HttpError, parse, seesLinked } from './handler.js';
import { sendHistory } from './pane-history.js';
import { modeRoute } from './mode-route.js';
import { on } from './on-route.js';

export interface OutsideRouteDeps {
  outside: OutsideSessions;
  outsideTmux: OutsideTmux;
  /** Makes an outside session a Claude tab of its own (agent/wiring/adopt.ts). */
  adoptOutside: (key: string, workspaceId: string | undefined) => Promise<TabView>;
  /** The linked machines' outside sessions, listed after this agent's own. */
  linked: Pick<LinkedLists, 'outside'>;
  /** Whether Claude's user settings hold pocketmux's hooks, read when asked. */
  userHooks: () => UserHooksView;
  /** Where Claude keeps the user's own slash commands (`<dir>/commands/`). */
  claudeConfigDir: string;
  /** Whether the Claude of a session (a tab id or an outside key) shows a dialog now: typed text would land in it. */
  dialogShown: (key: string) => Promise<boolean>;
  /** Notes a prompt a phone sent, for Claude to hear of it with that prompt (agent/wiring/phone-prompts.ts). */
  phonePrompt: (key: string, text: string) => void;
  /** Switches the permission mode of a session's Claude (agent/wiring/mode-switch.ts). */
  switchMode: (key: string, body: ModeBody) => Promise<ClaudeMode>;
  log: Logger;
}

function sessionOf(deps: Pick<OutsideRouteDeps, 'outside'>, rawKey: unknown): OutsideSession {
  const key = parse(OutsideKey, rawKey, 'outside session key');
  const session = deps.outside.get(key);
  if (!session) throw new HttpError(404, `no Claude session ${key} outside the tabs`);
  return session;
}

/**
 * Its pane, while its claude still runs there (OutsideSessions.paneToDrive, the terminal's
 * rule too): where typed text and keys may go. `409` when it has no tmux, or its claude is
 * gone (the session is then forgotten).
 */
async function paneOf(deps: Pick<OutsideRouteDeps, 'outside'>, session: OutsideSession, what: string): Promise<OutsidePane> {
  try {
    return await deps.outside.paneToDrive(session);
  } catch (err) {
    if (!(err instanceof OutsidePaneError)) throw err;
    if (err.reason === 'no-tmux') throw new HttpError(409, 'no terminal: this Claude was started outside tmux; answer it in its terminal on the machine');
    throw new HttpError(409, `its claude is no longer running in that pane: nothing was ${what}`);
  }
}

/** tmux failures reaching an outside pane, as `409`s. */
function paneFailure(err: unknown, what: string): unknown {
  if (err instanceof PaneUnreachableError) return new HttpError(409, `cannot reach its pane: ${err.message}`);
  if (err instanceof TmuxError) return new HttpError(409, `could not ${what} its pane (${err.message})`);
  return err;
}

/**
 * `GET /outside`, `POST /outside/:key/input`, `POST /outside/:key/adopt`: the Claude sessions
 * started outside the tabs, a reply typed into one's pane (only where it runs in tmux), and
 * one made a Claude tab. For the composer: `POST /outside/:key/keys` (Escape, on the same
 * terms as typed input) and `GET /outside/:key/commands`; its uploads are
 * `outsideUploadRoutes`. For find: `GET /outside/:key/history` (its pane's history and
 * screen). `GET /hooks`: whether the user hooks that make them report are installed.
 */
export function outsideRoutes(deps: OutsideRouteDeps): Router {
  const router = express.Router();

  on(
    router,
    API_ROUTES.outsideSessions,
    handler((_req, res) => {
      res.json({ sessions: [...deps.outside.views(), ...(seesLinked(res) ? deps.linked.outside() : [])] } satisfies OutsideSessionsResponse);
    }),
  );

  on(
    router,
    API_ROUTES.outsideInput,
    handler(async (req, res) => {
      const key = parse(OutsideKey, req.params.key, 'outside session key');
      const body = parse(TabInputBody, req.body, 'input');
      const pane = await paneOf(deps, sessionOf(deps, key), 'typed');
      if (await deps.dialogShown(key)) throw new HttpError(409, DIALOG_SHOWN_ERROR);
      if (body.phone && body.enter) deps.phonePrompt(key, body.text);
      try {
        await deps.outsideTmux.type(pane, body.text, body.enter);
      } catch (err) {
        throw paneFailure(err, 'type into');
      }
      res.status(204).end();
    }),
  );

  on(
    router,
    API_ROUTES.outsideKey,
    handler(async (req, res) => {
      const session = sessionOf(deps, req.params.key);
      const body = parse(PaneKeyBody, req.body, 'key');
      const pane = await paneOf(deps, session, 'pressed');
      try {
        // Queued together, behind any typed text still waiting for that pane.
        await Promise.all([deps.outsideTmux.leaveCopyMode(pane), deps.outsideTmux.sendKey(pane, body.key)]);
      } catch (err) {
        throw paneFailure(err, `press ${body.key} in`);
      }
      res.status(204).end();
    }),
  );

  on(
    router,
    API_ROUTES.outsideCommands,
    handler(async (req, res) => {
      const session = sessionOf(deps, req.params.key);
      const commands = await slashCommands({ sessionDir: await outsideDir(session), claudeConfigDir: deps.claudeConfigDir });
      res.json({ commands } satisfies SlashCommandsResponse);
    }),
  );

  on(
    router,
    API_ROUTES.outsideHistory,
    handler(async (req, res) => {
      const session = sessionOf(deps, req.params.key);
      const pane = session.tmux;
      // Only read, so its claude need not still run there: what the pane showed is the
      // person's to look back on. A terminal could also type, and opens only while it runs.
      if (!pane) throw new HttpError(409, 'no terminal: this Claude was started outside tmux, so there is no history to read');
      await sendHistory(res, async () => {
        try {
          return await deps.outsideTmux.captureHistory(pane);
        } catch (err) {
          throw paneFailure(err, 'read the history of');
        }
      });
    }),
  );

  on(
    router,
    API_ROUTES.adoptOutside,
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

  on(
    router,
    API_ROUTES.userHooks,
    handler((_req, res) => {
      res.json(deps.userHooks() satisfies UserHooksView);
    }),
  );

  modeRoute(router, API_ROUTES.outsideMode, (req) => parse(OutsideKey, req.params.key, 'outside session key'), deps.switchMode);

  return router;
}

/**
 * `POST /outside/:key/uploads`: the raw body saved in the session's directory under
 * `.pocketmux/uploads/`, mounted before the JSON parser with its own limit. Nothing is typed,
 * so its claude need not be reachable, only its directory known.
 */
export function outsideUploadRoutes(deps: OutsideRouteDeps): Router {
  const router = express.Router();

  on(
    router,
    API_ROUTES.outsideUpload,
    handler(async (req, res) => {
      const session = sessionOf(deps, req.params.key);
      const sessionDir = await outsideDir(session);
      if (sessionDir === null) throw new HttpError(409, 'its directory is not known or no longer exists: nothing to save in');
      await receiveUpload(req, res, { sessionDir, log: deps.log });
    }),
  );

  return router;
}
