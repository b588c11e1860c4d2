import { homedir } from 'node:os';
import express, { type Router } from 'express';
import { z } from 'zod';
import type { DevicesResponse, SessionResponse } from '../../../protocol/api.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { type DeviceRecord, type DeviceStore, deviceBinding } from '../../auth/device-store.js';
import type { Logger } from '../../util/log.js';
import { deviceOf, handler, HttpError, parse } from './handler.js';
import { on } from './on-route.js';

export interface DeviceRouteDeps {
  devices: DeviceStore;
  /** A device was revoked: cut its open sockets. */
  revoked: (deviceId: string) => void;
  log: Logger;
  version: string;
}

const DeviceId = z.string().regex(/^dv-[a-z0-9]{1,32}$/, 'not a device id');

/** Who the caller is, as `GET /api/session` and a fresh pairing answer. */
export function sessionOf(device: DeviceRecord, version: string): SessionResponse {
  return { deviceId: device.id, deviceName: device.name, agentVersion: version, home: homedir() };
}

/** `GET /session`, `GET /devices`, `DELETE /devices/:id`. */
export function deviceRoutes(deps: DeviceRouteDeps): Router {
  const router = express.Router();

  on(
    router,
    API_ROUTES.session,
    handler((_req, res) => {
      res.json(sessionOf(deviceOf(res), deps.version));
    }),
  );

  on(
    router,
    API_ROUTES.devices,
    handler((_req, res) => {
      const me = deviceOf(res).id;
      const devices = deps.devices.list().map((d) => ({
        id: d.id,
        name: d.name,
        platform: d.platform,
        pairedAt: d.pairedAt,
        lastSeenAt: d.lastSeenAt,
        current: d.id === me,
        binding: deviceBinding(d),
        kind: d.kind,
      }));
      res.json({ devices } satisfies DevicesResponse);
    }),
  );

  on(
    router,
    API_ROUTES.revokeDevice,
    handler((req, res) => {
      const id = parse(DeviceId, req.params.id, 'device id');
      // A linked machine may take itself off the list (unlinked on its side), and no one else.
      const caller = deviceOf(res);
      if (caller.kind === 'machine' && caller.id !== id) throw new HttpError(403, 'a linked machine can remove itself, no other device');
      if (!deps.devices.remove(id)) throw new HttpError(404, `no device ${id}`);
      deps.revoked(id);
      deps.log.info('device revoked', { device: id });
      res.status(204).end();
    }),
  );

  return router;
}
