import { Workbox } from 'workbox-window';
import { UPDATE_READY_EVENT, type UpdateReadyEvent } from './update-event.js';

/**
 * Registers the service worker that keeps the app shell available offline. A new version
 * waits until the person agrees to reload, so a page never runs against files of another build.
 */
export function registerServiceWorker(): void {
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    const apply = () => {
      wb.addEventListener('controlling', () => location.reload());
      wb.messageSkipWaiting();
    };
    window.dispatchEvent(new CustomEvent(UPDATE_READY_EVENT, { detail: { apply } }) satisfies UpdateReadyEvent);
  });
  wb.register().catch((err: unknown) => console.warn('pocketmux: service worker registration failed', err));
}
