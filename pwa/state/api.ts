import type { ApiError } from '../../protocol/api.js';

/** A failed API call, carrying the agent's own `{error}` text so the UI can show it as is. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

const UNREACHABLE = 'Could not reach the agent. Is pocketmux still running?';

/**
 * Calls the agent's REST API on this origin. The device credential is an HttpOnly cookie
 * the browser adds by itself; this code never sees it.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiRequestError(0, UNREACHABLE);
  }
  const text = await res.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const message = (parsed as Partial<ApiError> | undefined)?.error;
    throw new ApiRequestError(res.status, typeof message === 'string' && message ? message : `The agent answered ${res.status} ${res.statusText}`.trim());
  }
  return parsed as T;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The same-origin WebSocket URL of an API path (`wss:` when the page came over HTTPS). */
export function websocketUrl(path: string): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`;
}
