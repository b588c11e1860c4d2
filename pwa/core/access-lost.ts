/**
 * Where the app learns that this browser lost its access (its device was revoked, or its
 * credential is no longer known): REST calls and live sockets report here, and the app
 * listens and shows the pair screen. It has no imports of ours, so `api-request.ts` can report
 * to it without an import cycle through `access.ts`.
 */
const target = new EventTarget();
const LOST = 'access-lost';

/** `reason` is the agent's code for the refusal (`protocol/refusals.ts`), when the answer had one. */
export function reportAccessLost(reason: string | null = null): void {
  target.dispatchEvent(new CustomEvent<string | null>(LOST, { detail: reason }));
}

/** Calls `listener` every time access is reported lost; returns the way to stop listening. */
export function onAccessLost(listener: (reason: string | null) => void): () => void {
  const heard = (e: Event) => listener((e as CustomEvent<string | null>).detail);
  target.addEventListener(LOST, heard);
  return () => target.removeEventListener(LOST, heard);
}
