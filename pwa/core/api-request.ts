import type { ApiError } from '../../protocol/api.js';
import { AGENT_TIME_HEADER, PROOF_HEADER, PROOF_TIME_ERROR } from '../../protocol/device-proof.js';
import { reportAccessLost } from './access-lost.js';
import { learnAgentTime, requestTarget, signProof } from './device-key.js';

/** A failed API call, carrying the agent's own `{error}` text so the UI can show it as is. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds the agent asked us to wait (`Retry-After`), when it said. */
    readonly retryAfter: number | null = null,
    /** The agent's code for the refusal (`ApiError.code`), when it gave one. */
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export interface ApiOptions {
  /**
   * Whether a 401 means this browser lost its access (the default). Pairing answers 401
   * for a wrong code, which says nothing about a credential this browser does not have.
   */
  unauthorizedMeansLost?: boolean;
  /** Ends the request early: its caller no longer wants the answer. */
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  body: T;
  headers: Headers;
}

const UNREACHABLE = 'Could not reach the agent. Is pocketmux still running?';

/** `Retry-After` is either a number of seconds or an HTTP date. */
function retryAfterSeconds(header: string | null): number | null {
  if (header === null) return null;
  if (/^\s*\d+\s*$/.test(header)) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * Calls the agent's REST API on this origin and keeps the response headers. The device
 * credential is an HttpOnly cookie the browser adds by itself (this code never sees it); each
 * request also carries a proof signed with this device's key (`device-key.ts`).
 */
export async function apiResponse<T>(method: string, path: string, body?: unknown, options: ApiOptions = {}): Promise<ApiResponse<T>> {
  let answer = await provenFetch(method, path, body, options);
  // Signed by a clock the agent does not share: the answer carried the agent's; once more with it.
  if (answer.res.status === 401 && (answer.parsed as Partial<ApiError> | undefined)?.code === PROOF_TIME_ERROR) {
    answer = await provenFetch(method, path, body, options);
  }
  const { res, parsed } = answer;
  if (!res.ok) {
    const error = parsed as Partial<ApiError> | undefined;
    const code = typeof error?.code === 'string' ? error.code : null;
    if (res.status === 401 && options.unauthorizedMeansLost !== false) reportAccessLost(code);
    const message = error?.error;
    throw new ApiRequestError(
      res.status,
      typeof message === 'string' && message ? message : `The agent answered ${res.status} ${res.statusText}`.trim(),
      retryAfterSeconds(res.headers.get('retry-after')),
      code,
    );
  }
  return { body: parsed as T, headers: res.headers };
}

/** One request with this device's proof, its answer read, and the agent's clock noted from it. */
async function provenFetch(method: string, path: string, body: unknown, options: ApiOptions): Promise<{ res: Response; parsed: unknown }> {
  let res: Response;
  try {
    const proof = await signProof(method, requestTarget(path, location.origin));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (proof !== null) headers[PROOF_HEADER] = proof;
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch {
    throw new ApiRequestError(0, UNREACHABLE);
  }
  learnAgentTime(res.headers.get(AGENT_TIME_HEADER));
  const text = await res.text().catch(() => '');
  try {
    return { res, parsed: text ? JSON.parse(text) : undefined };
  } catch {
    return { res, parsed: undefined };
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The same-origin WebSocket URL of an API path (`wss:` when the page came over HTTPS). */
export function websocketUrl(path: string): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`;
}
