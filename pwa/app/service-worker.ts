import { Workbox } from 'workbox-window';
import { UPDATE_READY_EVENT, type UpdateReadyEvent } from './update-event.js';
// The toast offers what only this registration finds: it comes with it, off the first screen.
// The app's <pm-update-toast> is upgraded here, before any update can be found.
import './update-toast.js';

/** How often a page left open looks for a new version, besides each time it comes back into view. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker that keeps the app shell available offline. A new version
 * waits until the person agrees to reload, so a page never runs against files of another build.
 * An installed app can stay open for days, brought back from the background rather than
 * loaded: it asks for a new version whenever it comes back into view, and hourly while shown.
 */
export function registerServiceWorker(): void {
  const wb = new Workbox('/sw.js', { scope: '/' });
  const check = () => {
    if (document.visibilityState === 'visible') wb.update().catch(() => undefined);
  };
  document.addEventListener('visibilitychange', check);
  setInterval(check, UPDATE_CHECK_MS);
  wb.addEventListener('waiting', () => {
    const apply = () => {
      wb.addEventListener('controlling', () => location.reload());
      wb.messageSkipWaiting();
    };
    window.dispatchEvent(new CustomEvent(UPDATE_READY_EVENT, { detail: { apply } }) satisfies UpdateReadyEvent);
  });
  wb.register().catch((err: unknown) => console.warn('pocketmux: service worker registration failed', err));
}
