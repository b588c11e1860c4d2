import express, { type Router } from 'express';
import { PushSettingsBody, PushSubscriptionBody } from '../../../protocol/api.js';
import type { PushState } from '../../../protocol/push.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { CLI_DEVICE } from '../../auth/access.js';
import { type EndpointRules, endpointProblem } from '../../push/push-endpoints.js';
import type { PushNotifier } from '../../push/push-notifier.js';
import type { PushSubscriptions } from '../../push/push-subscriptions.js';
import type { Logger } from '../../util/log.js';
import { deviceOf, handler, HttpError, parse } from './handler.js';
import { on } from './on-route.js';

export interface PushRouteDeps {
  push: {
    publicKey: string;
    subscriptions: PushSubscriptions;
    notifier: PushNotifier;
    endpointRules: EndpointRules;
  };
  log: Logger;
}

/**
 * Web Push for the calling device: `GET /push` (its state and choices), `GET /push/key` (the
 * VAPID public key), `POST` / `DELETE /push/subscription`, `PUT /push/settings`, and
 * `POST /push/test` (one notification, to see that it works).
 */
export function pushRoutes(deps: PushRouteDeps): Router {
  const router = express.Router();
  const { push } = deps;
  const device = (res: express.Response) => {
    const d = deviceOf(res);
    if (d.id === CLI_DEVICE.id) throw new HttpError(400, 'notifications are for paired devices; the CLI has none');
    return d;
  };

  on(
    router,
    API_ROUTES.push,
    handler((_req, res) => {
      const entry = push.subscriptions.get(device(res).id);
      res.json({ publicKey: push.publicKey, subscribed: entry.subscription !== null, settings: entry.settings } satisfies PushState);
    }),
  );
  on(
    router,
    API_ROUTES.pushKey,
    handler((_req, res) => {
      res.json({ publicKey: push.publicKey });
    }),
  );
  on(
    router,
    API_ROUTES.pushSubscribe,
    handler((req, res) => {
      const d = device(res);
      const body = parse(PushSubscriptionBody, req.body, 'push subscription');
      const problem = endpointProblem(body.endpoint, push.endpointRules);
      if (problem) throw new HttpError(400, `refused push endpoint: ${problem}`);
      push.subscriptions.subscribe(d.id, body);
      deps.log.info('device subscribed to notifications', { device: d.id, service: new URL(body.endpoint).host });
      res.status(201).json({ subscribed: true });
    }),
  );
  on(
    router,
    API_ROUTES.pushUnsubscribe,
    handler((_req, res) => {
      push.subscriptions.unsubscribe(device(res).id);
      res.status(204).end();
    }),
  );
  on(
    router,
    API_ROUTES.pushSettings,
    handler((req, res) => {
      const change = parse(PushSettingsBody, req.body, 'push settings');
      res.json({ settings: push.subscriptions.setSettings(device(res).id, change) });
    }),
  );
  on(
    router,
    API_ROUTES.pushTest,
    handler((_req, res) => {
      if (!push.notifier.test(device(res).id)) throw new HttpError(409, 'this device has not enabled notifications');
      res.status(202).json({ sent: true });
    }),
  );
  return router;
}
