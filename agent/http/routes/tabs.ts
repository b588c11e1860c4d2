import express, { type Router } from 'express';
import { CreateTabBody, RenameBody, TabId, TabInputBody } from '../../../protocol/api.js';
import type { WorkspaceStore } from '../../store/workspace-store.js';
import type { TabService } from '../../tabs/tab-service.js';
import { handler, HttpError, parse } from './handler.js';

export interface TabRouteDeps {
  store: WorkspaceStore;
  tabs: TabService;
}

/** `GET|POST /tabs`, `PATCH|DELETE /tabs/:id`, `POST /tabs/:id/input`. */
export function tabRoutes(deps: TabRouteDeps): Router {
  const router = express.Router();

  router.get(
    '/tabs',
    handler(async (_req, res) => {
      await deps.tabs.refreshPanes();
      res.json({ tabs: deps.store.tabs().map((t) => deps.tabs.tabView(t)) });
    }),
  );

  router.post(
    '/tabs',
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

  router.patch(
    '/tabs/:id',
    handler((req, res) => {
      const id = parse(TabId, req.params.id, 'tab id');
      const body = parse(RenameBody, req.body, 'rename');
      const tab = deps.store.renameTab(id, body.name);
      if (!tab) throw new HttpError(404, `no tab ${id}`);
      res.json(deps.tabs.tabView(tab));
    }),
  );

  router.delete(
    '/tabs/:id',
    handler(async (req, res) => {
      const id = parse(TabId, req.params.id, 'tab id');
      await deps.tabs.closeTab(id);
      res.status(204).end();
    }),
  );

  router.post(
    '/tabs/:id/input',
    handler(async (req, res) => {
      const id = parse(TabId, req.params.id, 'tab id');
      const body = parse(TabInputBody, req.body, 'input');
      await deps.tabs.sendInput(id, body.text, body.enter);
      res.status(204).end();
    }),
  );

  return router;
}
