import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { AGENT_TIME_HEADER, PROOF_HEADER, PROOF_TIME_ERROR } from '../protocol/device-proof.js';
import { API_PREFIX, API_ROUTES, routePath } from '../protocol/routes.js';
import { type NotificationData, notificationFor, outcomeLine, readPush } from './push/worker-push.js';
import { learnAgentTime, requestTarget, signProof } from './core/device-key.js';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// The app shell only. Nothing under /api is ever cached: it is live state and needs the credential.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [new RegExp(`^${API_PREFIX}(/|$)`)],
  }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Every push is shown (or closes the notification it settles); the agent encrypts them, so
// the push service saw none of it.
self.addEventListener('push', (event) => {
  const payload = readPush(event.data?.text());
  if (!payload) return;
  if (payload.kind === 'show') {
    const { title, options } = notificationFor(payload);
    event.waitUntil(self.registration.showNotification(title, options));
    return;
  }
  event.waitUntil(
    self.registration.getNotifications({ tag: payload.tag }).then((shown) => {
      for (const n of shown) n.close();
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  const notification = event.notification;
  const data = notification.data as NotificationData | undefined;
  notification.close();
  if (!data) return;
  const decision = event.action ? data.decisions[event.action] : undefined;
  event.waitUntil(decision && data.approvalId ? answer(notification.tag, data, data.approvalId, decision) : openApp(data.url));
});

/** A button: the decision goes straight to the agent with this device's credential and proof, and the notification says how it went. */
async function answer(tag: string, data: NotificationData, approvalId: string, decision: NotificationData['decisions'][string]): Promise<void> {
  let status = 0;
  let body: unknown = null;
  try {
    const res = await provenPost(routePath(API_ROUTES.decideApproval, approvalId), JSON.stringify(decision));
    status = res.status;
    body = await res.json().catch(() => null);
  } catch {
    // Unreachable: said in the outcome line.
  }
  await self.registration.showNotification(outcomeLine(status, body, data.title), {
    tag,
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    silent: true,
    data: { url: data.url, approvalId: null, title: data.title, decisions: {} } satisfies NotificationData,
  });
}

/**
 * A POST with this device's proof, signed with the key the app kept in IndexedDB (the app
 * may be closed). A worker woken by a push has not heard the agent's clock yet: if the agent
 * says the proof's time is off, its answer carried its clock, and the POST goes once more.
 */
async function provenPost(path: string, body: string): Promise<Response> {
  const send = async (): Promise<Response> => {
    const proof = await signProof('POST', requestTarget(path, self.location.origin));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (proof !== null) headers[PROOF_HEADER] = proof;
    const res = await fetch(path, { method: 'POST', credentials: 'same-origin', headers, body });
    learnAgentTime(res.headers.get(AGENT_TIME_HEADER));
    return res;
  };
  const res = await send();
  if (res.status !== 401) return res;
  const refusal = (await res.clone().json().catch(() => null)) as { code?: unknown } | null;
  return refusal?.code === PROOF_TIME_ERROR ? send() : res;
}

/** A tap on the body (iOS shows no buttons): the app, at what the notification is about. */
async function openApp(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    await open.focus();
    await open.navigate(url).catch(() => undefined);
    return;
  }
  await self.clients.openWindow(url);
}
