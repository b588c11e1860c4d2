/**
 * The browser's side of Web Push for this page: what it offers, the service worker's
 * registration, and its push subscription. The agent's side is in core/api.ts.
 */
import { type BrowserFacts, platformOf } from './push-state.js';

/** How long to wait for the service worker before saying it is not running. */
const WORKER_WAIT_MS = 8_000;

export function browserFacts(): BrowserFacts {
  const standalone =
    (navigator as Navigator & { standalone?: boolean }).standalone === true || window.matchMedia?.('(display-mode: standalone)').matches === true;
  return {
    secure: window.isSecureContext,
    pushSupported: 'PushManager' in window && 'serviceWorker' in navigator && 'Notification' in window,
    platform: platformOf(navigator.userAgent, navigator.maxTouchPoints),
    standalone,
    permission: 'Notification' in window ? Notification.permission : 'default',
  };
}

/** The app's service worker once it runs, or null when none comes (a development build has none). */
export async function workerRegistration(waitMs = WORKER_WAIT_MS): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** This browser's subscription: null for none, undefined when the browser could not be asked. */
export async function currentSubscription(registration: ServiceWorkerRegistration | null): Promise<PushSubscription | null | undefined> {
  if (!registration) return undefined;
  try {
    return await registration.pushManager.getSubscription();
  } catch {
    return undefined;
  }
}

/** The browser's own words for a failure, with its error name when it gave no message. */
export function browserError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
