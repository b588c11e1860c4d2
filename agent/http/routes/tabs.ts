import express, { type Router } from 'express';
import { CreateTabBody, type ModeBody, PaneKeyBody, RenameBody, type SlashCommandsResponse, TabId, TabInputBody } from '../../../protocol/api.js';
import { DIALOG_SHOWN_ERROR } from '../../../protocol/approvals.js';
import type { ClaudeMode } from '../../../protocol/claude-mode.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { slashCommands } from '../../composer/command-scan.js';
import { receiveUpload } from '../../composer/upload-request.js';
import type { TabRecord, WorkspaceStore } from '../../store/workspace-store.js';
import type { TabService } from '../../tabs/tab-service.js';
import { TmuxError } from '../../tmux/client.js';
import type { Tmux } from '../../tmux/tmux.js';
import type { LinkedLists } from '../../machines/machine-union.js';
import type { Logger } from '../../util/log.js';
import { handler, HttpError, parse, seesLinked } from './handler.js';
import { sendHistory } from './pane-history.js';
import { modeRoute } from './mode-route.js';
import { on } from './on-route.js';
import { tabDir } from '../../wiring/session-dir.js';

export interface TabRouteDeps {
  store: WorkspaceStore;
  tabs: TabService;
  tmux: Tmux;
  /** Where Claude keeps the user's own slash commands (`<dir>/commands/`). */
  claudeConfigDir: string;
  /** Whether the Claude of a session (a tab id or an outside key) shows a dialog now: typed text would land in it. */
  dialogShown: (key: string) => Promise<boolean>;
  /** Notes a prompt a phone sent, for Claude to hear of it with that prompt (agent/wiring/phone-prompts.ts). */
  phonePrompt: (key: string, text: string) => void;
  /** Switches the permission mode of a session's Claude (agent/wiring/mode-switch.ts). */
  switchMode: (key: string, body: ModeBody) => Promise<ClaudeMode>;
  /** The linked machines' workspaces, whose tabs are listed after this agent's own. */
  linked: Pick<LinkedLists, 'workspaces'>;
  log: Logger;
}

function tabOf(deps: Pick<TabRouteDeps, 'store'>, rawId: unknown): TabRecord {
  const id = parse(TabId, rawId, 'tab id');
  const tab = deps.store.tab(id);
  if (!tab) throw new HttpError(404, `no tab ${id}`);
  return tab;
}

/**
 * `GET|POST /tabs`, `PATCH|DELETE /tabs/:id`, `POST /tabs/:id/input`, for the composer
 * `POST /tabs/:id/keys` (Escape) and `GET /tabs/:id/commands` (slash commands), and for find
 * `GET /tabs/:id/history` (its pane's history and screen). The tab's uploads are
 * `tabUploadRoutes`: a raw body, read before the JSON parser.
 */
export function tabRoutes(deps: TabRouteDeps): Router {
  const router = express.Router();

  on(
    router,
    API_ROUTES.tabs,
    handler(async (_req, res) => {
      await deps.tabs.refreshPanes();
      const linked = seesLinked(res) ? deps.linked.workspaces().flatMap((w) => w.tabs) : [];
      res.json({ tabs: [...deps.store.tabs().map((t) => deps.tabs.tabView(t)), ...linked] });
    }),
  );

  on(
    router,
    API_ROUTES.createTab,
    handler(async (req, res) => {
      const body = parse(CreateTabBody, req.body, 'tab');
      const tab = await deps.tabs.createTab(body.workspaceId, body.name ?? null, {
        kind: body.kind,
        ...(body.claude?.resume ? { resume: body.claude.resume } : {}),
        ...(body.claude?.permissionMode ? { permissionMode: body.claude.permissionMode } : {}),
      });
      res.status(201).json(deps.tabs.tabView(tab));
    }),
  );

  on(
    router,
    API_ROUTES.renameTab,
    handler((req, res) => {
      const id = parse(TabId, req.params.id, 'tab id');
      const body = parse(RenameBody, req.body, 'rename');
      const tab = deps.store.renameTab(id, body.name);
      if (!tab) throw new HttpError(404, `no tab ${id}`);
      res.json(deps.tabs.tabView(tab));
    }),
  );

  on(
    router,
    API_ROUTES.closeTab,
    handler(async (req, res) => {
      const id = parse(TabId, req.params.id, 'tab id');
      await deps.tabs.closeTab(id);
      res.status(204).end();
    }),
  );

  on(
    router,
    API_ROUTES.tabInput,
    handler(async (req, res) => {
      const id = parse(TabId, req.params.id, 'tab id');
      const body = parse(TabInputBody, req.body, 'input');
      if (await deps.dialogShown(id)) throw new HttpError(409, DIALOG_SHOWN_ERROR);
      if (body.phone && body.enter) deps.phonePrompt(id, body.text);
      await deps.tabs.sendInput(id, body.text, body.enter);
      res.status(204).end();
    }),
  );

  on(
    router,
    API_ROUTES.tabKey,
    handler(async (req, res) => {
      const tab = tabOf(deps, req.params.id);
      const body = parse(PaneKeyBody, req.body, 'key');
      try {
        await deps.tmux.pressKey(tab.tmuxSession, body.key);
      } catch (err) {
        if (err instanceof TmuxError) throw new HttpError(409, `could not press ${body.key} in its pane (${err.message})`);
        throw err;
      }
      res.status(204).end();
    }),
  );

  on(
    router,
    API_ROUTES.tabHistory,
    handler(async (req, res) => {
      const tab = tabOf(deps, req.params.id);
      await sendHistory(res, async () => {
        try {
          return await deps.tmux.captureHistory(tab.tmuxSession);
        } catch (err) {
          if (err instanceof TmuxError && err.isMissing) throw new HttpError(409, 'the tab has no pane: its tmux session is gone');
          if (err instanceof TmuxError) throw new HttpError(409, `could not read its pane's history (${err.message})`);
          throw err;
        }
      });
    }),
  );

  on(
    router,
    API_ROUTES.tabCommands,
    handler(async (req, res) => {
      const tab = tabOf(deps, req.params.id);
      // Claude's commands (built in, the project's, the user's); Codex's are not listed (yet).
      const commands = tab.kind === 'codex' ? [] : await slashCommands({ sessionDir: await tabDir(deps.store, tab), claudeConfigDir: deps.claudeConfigDir });
      res.json({ commands } satisfies SlashCommandsResponse);
    }),
  );

  modeRoute(router, API_ROUTES.tabMode, (req) => parse(TabId, req.params.id, 'tab id'), deps.switchMode);

  return router;
}

/**
 * `POST /tabs/:id/uploads`: the raw body saved in the tab's directory under
 * `.pocketmux/uploads/` (agent/composer/uploads.ts), mounted before the JSON parser, with its
 * own limit (`UPLOAD_MAX_BYTES`).
 */
export function tabUploadRoutes(deps: TabRouteDeps): Router {
  const router = express.Router();

  on(
    router,
    API_ROUTES.tabUpload,
    handler(async (req, res) => {
      const tab = tabOf(deps, req.params.id);
      const sessionDir = await tabDir(deps.store, tab);
      if (sessionDir === null) throw new HttpError(409, 'the tab has no directory to save in: its directory and its workspace are gone');
      await receiveUpload(req, res, { sessionDir, log: deps.log });
    }),
  );

  return router;
}
