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
