import express, { type Router } from 'express';
import { ChangesQuery, CommitBody, ReadFileQuery, type CommitResponse, FileDiffQuery, OutsideKey, RevertBody, type RevertResponse, TabId, UndoBody } from '../../../protocol/api.js';
import type { ChangesView, FileDiff, FileView } from '../../../protocol/changes.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { parseSessionKey } from '../../../protocol/session-key.js';
import { ChangesUnavailable } from '../../changes/git.js';
import type { SessionChanges } from '../../changes/session-changes.js';
import { Slots } from '../../util/slots.js';
import { handler, HttpError, parse } from './handler.js';
import { on } from './on-route.js';

export interface ChangesRouteDeps {
  changes: Pick<SessionChanges, 'changes' | 'fileDiff' | 'revert' | 'undo' | 'commit' | 'readFile'>;
  /** The directory a session works in (agent/wiring/session-dir.ts), null for no such session. */
  sessionDir: (key: string) => Promise<string | null>;
}

/** Reviews read at once, each running git: past it a client gets `503` and tries again. */
export const MAX_CONCURRENT_REVIEWS = 4;

/**
 * `GET /changes/:key?scope=` and `GET /changes/:key/file?path=&scope=&from=`: what a session
 * (a tab or an outside session) changed, for review, read through pocketmux's own index and
 * objects (agent/changes/git.ts). `POST /changes/:key/revert` puts one changed file back as it
 * was at the turn's start, and `POST /changes/:key/undo` takes that back: the work tree only.
 */
export function changesRoutes(deps: ChangesRouteDeps, slots = new Slots(MAX_CONCURRENT_REVIEWS)): Router {
  const router = express.Router();

  const sessionOf = async (rawKey: unknown): Promise<{ key: string; dir: string }> => {
    const key = typeof rawKey === 'string' ? rawKey : '';
    parse(parseSessionKey(key).kind === 'outside' ? OutsideKey : TabId, key, 'session key');
    const dir = await deps.sessionDir(key);
    if (dir === null) throw new HttpError(404, `no session ${key}, or its directory is gone`);
    return { key, dir };
  };

  const inSlot = async <T>(read: () => Promise<T>): Promise<T> => {
    const release = slots.tryTake();
    if (!release) throw new HttpError(503, 'too many reviews read at once; try again in a moment');
    try {
      return await read();
    } catch (err) {
      if (err instanceof ChangesUnavailable) throw new HttpError(409, err.message);
      throw err;
    } finally {
      release();
    }
  };

  on(
    router,
    API_ROUTES.changes,
    handler(async (req, res) => {
      const query = parse(ChangesQuery, req.query, 'query');
      const { key, dir } = await sessionOf(req.params.key);
      res.json((await inSlot(() => deps.changes.changes(key, query.scope ?? 'turn', dir))) satisfies ChangesView);
    }),
  );
  on(
    router,
    API_ROUTES.fileChanges,
    handler(async (req, res) => {
      const query = parse(FileDiffQuery, req.query, 'query');
      const { key, dir } = await sessionOf(req.params.key);
      res.json((await inSlot(() => deps.changes.fileDiff(key, query.scope ?? 'turn', query.path, dir, query.from ?? 0))) satisfies FileDiff);
    }),
  );
  on(
    router,
    API_ROUTES.readFile,
    handler(async (req, res) => {
      const query = parse(ReadFileQuery, req.query, 'query');
      const { key, dir } = await sessionOf(req.params.key);
      res.json((await inSlot(() => deps.changes.readFile(key, query.path, dir))) satisfies FileView);
    }),
  );
  on(
    router,
    API_ROUTES.revertChange,
    handler(async (req, res) => {
      const body = parse(RevertBody, req.body, 'body');
      const { key, dir } = await sessionOf(req.params.key);
      res.json((await inSlot(() => deps.changes.revert(key, body.scope, body.path, dir))) satisfies RevertResponse);
    }),
  );
  on(
    router,
    API_ROUTES.undoRevert,
    handler(async (req, res) => {
      const body = parse(UndoBody, req.body, 'body');
      const { key } = await sessionOf(req.params.key);
      res.json((await inSlot(() => deps.changes.undo(key, body.undo))) satisfies RevertResponse);
    }),
  );
  on(
    router,
    API_ROUTES.commitChanges,
    handler(async (req, res) => {
      const body = parse(CommitBody, req.body, 'body');
      const { key, dir } = await sessionOf(req.params.key);
      res.json((await inSlot(() => deps.changes.commit(key, body.paths, body.message, dir))) satisfies CommitResponse);
    }),
  );
  return router;
}
