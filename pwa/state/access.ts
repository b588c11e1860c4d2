import type { SessionResponse } from '../../protocol/api.js';
import { setHomeDirectory } from './labels.js';
import { ApiRequestError, api, errorText } from './api.js';

export type Access =
  | { kind: 'checking' }
  | { kind: 'granted'; session: SessionResponse }
  /** No credential in this browser, or the link could not be used. */
  | { kind: 'denied'; linkRejected: boolean }
  /** The agent could not be asked (down, network) or refused in a way a new link cannot fix. */
  | { kind: 'error'; message: string };

const TOKEN_PREFIX = '#token=';

/**
 * Takes the one-time token out of the address bar. It is removed at once, before the claim
 * even answers, so it cannot end up in a bookmark, a shared screenshot or the history.
 */
export function takeLinkToken(): string | null {
  if (!location.hash.startsWith(TOKEN_PREFIX)) return null;
  const token = decodeURIComponent(location.hash.slice(TOKEN_PREFIX.length));
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  return token || null;
}

function granted(session: SessionResponse): Access {
  setHomeDirectory(session.home);
  return { kind: 'granted', session };
}

async function currentSession(): Promise<Access> {
  try {
    return granted(await api<SessionResponse>('GET', '/api/session'));
  } catch (err) {
    if (err instanceof ApiRequestError && (err.status === 401 || err.status === 403)) return { kind: 'denied', linkRejected: false };
    return { kind: 'error', message: errorText(err) };
  }
}

/**
 * Works out whether this browser may use the agent: claims a link token if the page was
 * opened from the printed link, otherwise asks for the current session.
 */
export async function resolveAccess(token: string | null): Promise<Access> {
  if (token === null) return currentSession();
  try {
    // The agent names the device from the User-Agent ("Chrome on Android").
    return granted(await api<SessionResponse>('POST', '/api/auth/claim', { token }));
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) {
      // The same browser may already be in (a reload of the link before it was cleared).
      const existing = await currentSession();
      return existing.kind === 'denied' ? { kind: 'denied', linkRejected: true } : existing;
    }
    if (err instanceof ApiRequestError && err.status !== 0) return { kind: 'error', message: err.message };
    return { kind: 'error', message: errorText(err) };
  }
}
