import type { Access } from '../core/access.js';

/**
 * What to show when the agent could not be asked: the offline view over what this device
 * saved, or the unreachable screen (`error`) when it saved nothing. A page already offline
 * keeps its view while it retries.
 */
export async function offlineOr(error: Extract<Access, { kind: 'error' }>, shown: Access): Promise<Access> {
  if (shown.kind === 'offline') return shown;
  try {
    const snapshot = await (await import('./offline-loader.js')).loadSnapshot();
    return snapshot ? { kind: 'offline', snapshot } : error;
  } catch {
    // Without a service worker the chunk cannot be fetched from an agent that is down.
    return error;
  }
}
