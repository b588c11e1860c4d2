/**
 * The review's two calls, kept with the view that makes them (a chunk of its own) rather than in
 * the API client the first screen loads.
 */
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
