/**
 * Where the app learns that this browser lost its access (its device was revoked, or its
 * credential is no longer known): REST calls and live sockets report here, and the app
 * listens and shows the pair screen. It has no imports, so `api-request.ts` can report to it
 * without an import cycle through `access.ts`.
 */
const target = new EventTarget();
const LOST = 'access-lost';

export function reportAccessLost(): void {
  target.dispatchEvent(new Event(LOST));
}

/** Calls `listener` every time access is reported lost; returns the way to stop listening. */
export function onAccessLost(listener: () => void): () => void {
  target.addEventListener(LOST, listener);
  return () => target.removeEventListener(LOST, listener);
}
