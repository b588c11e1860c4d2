import { DeviceProofs } from '../../agent/auth/device-proof.js';
import { newDeviceKey } from '../support/client.js';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PairingResponse } from '../../protocol/api.js';
import { AccessControl } from '../../agent/auth/access.js';
import { DeviceStore } from '../../agent/auth/device-store.js';
import { PAIRING_TTL_MS, PairingAttempts } from '../../agent/auth/pairing.js';
import { PairingService } from '../../agent/auth/pairing-service.js';
import { apiRouter, type RouteDeps } from '../../agent/http/routes/api-router.js';
import { createLogger } from '../../agent/util/log.js';

/**
 * The README's pairing promises, through the real `POST /api/pair` route, with the clock the
 * pairing service and the attempt limiter are given: ten minutes and one minute pass at once.
 */
let clock = 0;
let dir: string;
let server: Server;
let url: string;
let pairing: PairingService;

beforeEach(async () => {
  clock = Date.parse('2026-01-01T00:00:00Z');
  dir = mkdtempSync(join(tmpdir(), 'pm-pairing-clock-'));
  const log = createLogger({ level: 'error', stderr: false });
  const devices = new DeviceStore(join(dir, 'devices.json'), log);
  pairing = new PairingService(PAIRING_TTL_MS, () => clock);
  pairing.publishAt('http://127.0.0.1/');
  // Only the pairing route is reached: it comes before the credential check and needs no more.
  const deps = {
    access: new AccessControl(devices, 'pm_test', 'token', new DeviceProofs(() => clock)),
    devices,
    pairing,
    attempts: new PairingAttempts({ behindProxy: false, now: () => clock }),
    log,
    version: '0.0.0',
    secure: false,
  } as unknown as RouteDeps;
  const app = express();
  app.use('/api', apiRouter(deps));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/pair`;
});

afterEach(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const pair = (body: object) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, publicKey: newDeviceKey().publicKey }) });

describe('pairing, by the clock', () => {
  it('works for 10 minutes and not a millisecond longer, by code or by secret', async () => {
    expect(PAIRING_TTL_MS).toBe(10 * 60_000);
    const byCode = await pairing.create();
    const bySecret = await pairing.create();
    expect(Date.parse(byCode.expiresAt) - clock).toBe(PAIRING_TTL_MS);
    clock += PAIRING_TTL_MS - 1;
    expect((await pair({ code: byCode.code, deviceName: 'just in time' })).status).toBe(201);

    const late: PairingResponse = await pairing.create();
    const lateSecret = new URL(late.url).hash.replace('#pair=', '');
    clock += PAIRING_TTL_MS;
    expect((await pair({ code: late.code })).status).toBe(401);
    expect((await pair({ secret: lateSecret })).status).toBe(401);
    // Created ten minutes and a millisecond ago: gone too.
    expect((await pair({ secret: new URL(bySecret.url).hash.replace('#pair=', '') })).status).toBe(401);
  });

  it('makes a source that tried five wrong codes wait out the minute, then forgives it', async () => {
    const good = await pairing.create();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await pair({ code: 'ZZZZ-ZZZZ' })).status);
    // The first wrong code started the minute; the sixth attempt already waits.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    clock += 59_000;
    const waiting = await pair({ code: good.code });
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get('retry-after')).toBe('1');

    clock += 999;
    expect((await pair({ code: good.code })).status).toBe(429);

    // A minute after the first wrong code the source is free again, and the owner's code works.
    clock += 1;
    expect((await pair({ code: good.code, deviceName: 'after the minute' })).status).toBe(201);
  });

  it('never asks a source to wait longer than a minute', async () => {
    for (let i = 0; i < 5; i++) expect((await pair({ code: 'ZZZZ-ZZZZ' })).status).toBe(401);
    const first = await pair({ code: 'ZZZZ-ZZZZ' });
    expect(first.status).toBe(429);
    expect(Number(first.headers.get('retry-after'))).toBe(60);
    // Attempts while waiting do not push the end of the minute further out.
    for (let i = 0; i < 20; i++) {
      clock += 2_000;
      const res = await pair({ code: 'ZZZZ-ZZZZ' });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBe(60 - (i + 1) * 2);
    }
    clock += 20_000;
    expect((await pair({ code: 'ZZZZ-ZZZZ' })).status).toBe(401);
  });
});
