import type { SessionResponse } from '../../protocol/api.js';
import { type AccessRefusal, isAccessRefusal } from '../../protocol/refusals.js';
import * as api from './api.js';
import { ApiRequestError, errorText } from './api-request.js';
import { setHomeDirectory } from './labels.js';
import type { SessionsSnapshot } from './offline-snapshot.js';

export { onAccessLost } from './access-lost.js';

export type Access =
  | { kind: 'checking' }
  | { kind: 'granted'; session: SessionResponse }
  /**
   * This browser has no valid credential: it must pair. `secret` comes from a `#pair=` URL;
   * `lost` says why it is out when it was in before, or null for a browser never paired.
   */
  | { kind: 'unpaired'; secret: string | null; lost: LostAccess | null }
  /** The agent could not be asked (down, network) or refused in a way pairing cannot fix. */
  | { kind: 'error'; message: string }
  /** The agent could not be asked, and this device saved the lists before: they show, read-only. */
  | { kind: 'offline'; snapshot: SessionsSnapshot };

/**
 * Why a browser that had access is out: the agent's reason (removed from the list, paired by
 * an older version, a credential it does not know), or `cut-off` when it gave none.
 */
export type LostAccess = AccessRefusal | 'cut-off';

/** What the agent's refusal says of a credential, else what the app itself knew. */
export function lostReason(code: string | null, wasIn: boolean): LostAccess | null {
  if (isAccessRefusal(code)) return code;
  return wasIn ? 'cut-off' : null;
}

const PAIR_PREFIX = '#pair=';

/**
 * Takes the pairing secret out of the address bar. It is removed at once, before anything
 * is asked of the agent, so it cannot end up in a bookmark, a shared screenshot or the history.
 */
export function takePairSecret(): string | null {
  if (!location.hash.startsWith(PAIR_PREFIX)) return null;
  let secret: string;
  try {
    secret = decodeURIComponent(location.hash.slice(PAIR_PREFIX.length));
  } catch {
    secret = '';
  }
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  return secret.trim() || null;
}

/** This browser is in, as the session the agent answered says. */
export function granted(session: SessionResponse): Access {
  setHomeDirectory(session.home);
  return { kind: 'granted', session };
}

/**
 * Whether this browser may use the agent. A browser that is already paired keeps its
 * device when it opens a pairing link again; the unused pairing simply expires.
 */
export async function resolveAccess(secret: string | null, wasIn = false): Promise<Access> {
  try {
    return granted(await api.session({ unauthorizedMeansLost: false }));
  } catch (err) {
    if (err instanceof ApiRequestError && (err.status === 401 || err.status === 403)) return { kind: 'unpaired', secret, lost: lostReason(err.code, wasIn) };
    return { kind: 'error', message: errorText(err) };
  }
}

let checking: Promise<void> | null = null;

/**
 * Asks the agent whether our credential still holds; a 401 is reported as lost access by
 * `api`. A refused WebSocket upgrade looks like any network failure to the page, so every
 * socket that never opened asks this; calls made while one is running share it.
 */
export function checkAccess(): Promise<void> {
  checking ??= api
    .session()
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => {
      checking = null;
    });
  return checking;
}
