/**
 * This device's localStorage, or null where the browser refuses it (some private windows throw
 * on the mere access): what is kept per device is then simply not kept.
 */
export function deviceStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Where the composer keeps the prompts sent from this device (timeline/composer-history.ts):
 * named here, where losing access can delete it without loading the composer.
 */
export const HISTORY_STORAGE_KEY = 'pm-composer-history';
