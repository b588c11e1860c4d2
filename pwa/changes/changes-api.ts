/**
 * The review's two calls, kept with the view that makes them (a chunk of its own) rather than in
 * the API client the first screen loads.
 */
import type { CommitResponse, RevertResponse } from '../../protocol/api.js';
import { API_ROUTES, routePath } from '../../protocol/routes.js';
import { apiResponse } from '../core/api-request.js';

/** What a session (a tab or an outside session, by its key) changed in one scope (a `ChangesView`), unchecked: the caller parses it. */
export async function sessionChanges(key: string, scope: string, signal?: AbortSignal): Promise<unknown> {
  const query = new URLSearchParams({ scope });
  return (await apiResponse<unknown>('GET', `${routePath(API_ROUTES.changes, key)}?${query}`, undefined, { signal })).body;
}

/** One file's diff in a scope (a `FileDiff`), from its `from`th diff line, unchecked: the caller parses it. */
export async function fileChanges(key: string, scope: string, path: string, from: number, signal?: AbortSignal): Promise<unknown> {
  const query = new URLSearchParams({ scope, path, from: String(from) });
  return (await apiResponse<unknown>('GET', `${routePath(API_ROUTES.fileChanges, key)}?${query}`, undefined, { signal })).body;
}

/** Puts one changed file back as it was at the start of the turn; answers with what it restored and the id that undoes it. */
export async function revertChange(key: string, path: string, scope: 'turn' | 'session'): Promise<RevertResponse> {
  return (await apiResponse<RevertResponse>('POST', routePath(API_ROUTES.revertChange, key), { path, scope })).body;
}

/** Takes a revert back. */
export async function undoRevert(key: string, undo: string): Promise<RevertResponse> {
  return (await apiResponse<RevertResponse>('POST', routePath(API_ROUTES.undoRevert, key), { undo })).body;
}

/** Stages and commits these changed files with this message, in the person's repository. */
export async function commitChanges(key: string, paths: string[], message: string): Promise<CommitResponse> {
  return (await apiResponse<CommitResponse>('POST', routePath(API_ROUTES.commitChanges, key), { paths, message })).body;
}

/** A file of the session's directory as it is now (a `FileView`), unchecked: the caller parses it. */
export async function readFile(key: string, path: string, signal?: AbortSignal): Promise<unknown> {
  const query = new URLSearchParams({ path });
  return (await apiResponse<unknown>('GET', `${routePath(API_ROUTES.readFile, key)}?${query}`, undefined, { signal })).body;
}
