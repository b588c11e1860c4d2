import { statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import express, { type Router } from 'express';
import {
  type ClaudeSessionsResponse,
  CreateWorkspaceBody,
  displayNameFrom,
  WorkspacePatchBody,
  WorkspaceId,
  type WorkspacesResponse,
} from '../../../protocol/api.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { expandHome } from '../../config/config.js';
import type { LinkedLists } from '../../machines/machine-union.js';
import type { WorkspaceStore } from '../../store/workspace-store.js';
import type { TabService } from '../../tabs/tab-service.js';
import { handler, HttpError, parse, seesLinked } from './handler.js';
import { on } from './on-route.js';

export interface WorkspaceRouteDeps {
  store: WorkspaceStore;
  tabs: TabService;
  /** Past Claude sessions started in a directory, newest first. */
  claudeSessions: (dir: string) => Promise<ClaudeSessionsResponse['sessions']>;
  /** The linked machines' workspaces, listed after this agent's own. */
  linked: Pick<LinkedLists, 'workspaces'>;
}

function resolveDirectory(raw: string): string {
  const expanded = expandHome(raw.trim());
  if (!isAbsolute(expanded)) throw new HttpError(400, `dir must be an absolute path or start with ~, got "${raw}"`);
  const dir = resolve(expanded);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new HttpError(400, `dir ${dir} does not exist`);
  }
  if (!isDir) throw new HttpError(400, `dir ${dir} is not a directory`);
  return dir;
}

/** `GET|POST /workspaces`, `PATCH|DELETE /workspaces/:id`, `GET /workspaces/:id/claude-sessions`. */
export function workspaceRoutes(deps: WorkspaceRouteDeps): Router {
  const router = express.Router();

  on(
    router,
    API_ROUTES.workspaces,
    handler(async (_req, res) => {
      await deps.tabs.refreshPanes();
      res.json({ workspaces: [...deps.tabs.views(), ...(seesLinked(res) ? deps.linked.workspaces() : [])] } satisfies WorkspacesResponse);
    }),
  );

  on(
    router,
    API_ROUTES.createWorkspace,
    handler((req, res) => {
      const body = parse(CreateWorkspaceBody, req.body, 'workspace');
      const dir = resolveDirectory(body.dir);
      const ws = deps.store.addWorkspace(body.name ?? displayNameFrom(basename(dir) || dir, 'Workspace'), dir);
      res.status(201).json({ ...ws, tabs: [] });
    }),
  );

  on(
    router,
    API_ROUTES.renameWorkspace,
    handler((req, res) => {
      const id = parse(WorkspaceId, req.params.id, 'workspace id');
      const body = parse(WorkspacePatchBody, req.body, 'workspace name or guardrail');
      if (!deps.store.workspace(id)) throw new HttpError(404, `no workspace ${id}`);
      if (body.name !== undefined) deps.store.renameWorkspace(id, body.name);
      if (body.guardrail !== undefined) deps.store.setGuardrail(id, body.guardrail);
      const ws = deps.store.workspace(id);
      if (!ws) throw new HttpError(404, `no workspace ${id}`);
      res.json({ ...ws, tabs: deps.store.tabsOf(id).map((t) => deps.tabs.tabView(t)) });
    }),
  );

  on(
    router,
    API_ROUTES.claudeSessions,
    handler(async (req, res) => {
      const id = parse(WorkspaceId, req.params.id, 'workspace id');
      const ws = deps.store.workspace(id);
      if (!ws) throw new HttpError(404, `no workspace ${id}`);
      res.json({ sessions: await deps.claudeSessions(ws.dir) } satisfies ClaudeSessionsResponse);
    }),
  );

  on(
    router,
    API_ROUTES.closeWorkspace,
    handler(async (req, res) => {
      const id = parse(WorkspaceId, req.params.id, 'workspace id');
      await deps.tabs.closeWorkspace(id);
      res.status(204).end();
    }),
  );

  return router;
}
