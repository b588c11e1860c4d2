import express, { type Router } from 'express';
import { type ApiError, PairBody, type PairingTerms } from '../../../protocol/api.js';
import { durationText } from '../../../protocol/duration-text.js';
import { PAIRING_REFUSALS, type PairingRefusal } from '../../../protocol/refusals.js';
import { API_ROUTES } from '../../../protocol/routes.js';
import { type AccessControl, originAllowed } from '../../auth/access.js';
import { guessDeviceName } from '../../auth/device-name.js';
import { validPublicKey } from '../../auth/device-proof.js';
import type { DeviceStore } from '../../auth/device-store.js';
import { MAX_LIVE, type PairingAttempts } from '../../auth/pairing.js';
import type { PairingService } from '../../auth/pairing-service.js';
import type { Logger } from '../../util/log.js';
import { sessionOf } from './devices.js';
import { deviceOf, handler, HttpError, parse } from './handler.js';
import { on } from './on-route.js';

export interface PairingRouteDeps {
  access: AccessControl;
  devices: DeviceStore;
  pairing: PairingService;
  /** Wrong pairing attempts, per client address (forwarded by a proxy on loopback, when one is configured). */
  attempts: PairingAttempts;
  log: Logger;
  version: string;
  /** True when the agent is served over HTTPS, so the credential cookie is `Secure`. */
  secure: boolean;
}

/**
 * Where a refused pairing sends the person, as the browser shows it. That browser is not
 * paired: the command is named the way a person runs it from PATH, and how to find theirs,
 * never by a path of this machine.
 */
export const NEW_PAIRING_ADVICE =
  'get a new one on the agent\'s machine: `pocketmux pair` (the command that started the agent, with `pair` in place of `start`)';

/** How long a device's credential cookie lives: browsers keep none longer than 400 days. */
const CREDENTIAL_MAX_AGE_MS = 400 * 24 * 3600 * 1000;

/**
 * Why a link or code did not pair, in words. Telling these apart leaks nothing worth having
 * (docs/security.md, pairing): an ended pairing opens nothing, and a guess that names one hit a
 * code of 31^8 that no longer works.
 */
export function refusalText(refusal: PairingRefusal, what: 'link' | 'code', validForSeconds: number): string {
  const fresh = NEW_PAIRING_ADVICE;
  const it = what === 'link' ? 'this pairing link' : 'this pairing code';
  switch (refusal) {
    case 'wrong':
      return what === 'link'
        ? `this pairing link is not one the agent made (copied only in part?); ${fresh}`
        : `no pairing has this code: check it against the one shown on the computer, or ${fresh}`;
    case 'used':
      return `${it} was used already: each pairs one device (if that was not you, remove the device it paired in Settings); ${fresh}`;
    case 'expired':
      return `${it} expired: each works for ${durationText(validForSeconds)}; ${fresh}`;
    case 'replaced':
      return `${it} was replaced: only the newest ${MAX_LIVE} pairings work; ${fresh}`;
  }
}

/**
 * `GET /pair`, what a browser that is not paired may know (how long a code works), and
 * `POST /pair`: how a device gets in, so it cannot need a credential. It parses its own
 * body, which is tiny; wrong attempts are limited per client address (see attemptSource).
 */
export function pairRoutes(deps: PairingRouteDeps): Router {
  const router = express.Router();
  on(
    router,
    API_ROUTES.pairingTerms,
    handler((req, res) => {
      if (!originAllowed(req)) throw new HttpError(403, 'foreign origin');
      res.json(deps.pairing.terms() satisfies PairingTerms);
    }),
  );
  on(
    router,
    API_ROUTES.pair,
    express.json({ limit: '4kb', strict: true }),
    handler((req, res) => {
      if (!originAllowed(req)) throw new HttpError(403, 'foreign origin');
      const body = parse(PairBody, req.body, 'pairing');
      const source = deps.attempts.sourceOf(req);
      const wait = deps.attempts.retryAfter(source, body.secret !== undefined ? 'secret' : 'code');
      if (wait > 0) {
        res.setHeader('Retry-After', String(wait));
        throw new HttpError(429, `too many wrong pairing attempts; try again in ${wait} s`);
      }
      const publicKey = body.publicKey ?? null;
      if (publicKey === null && !keylessPairingAllowed(req.headers.origin)) {
        throw new HttpError(400, 'pairing needs the device key this browser makes (WebCrypto): open the app over HTTPS or on this machine, and pair again');
      }
      if (publicKey !== null && !validPublicKey(publicKey)) throw new HttpError(400, 'the device key is not a P-256 public key');
      const ua = req.headers['user-agent'];
      // A device that cannot be saved (a full disk: 507) leaves the pairing unspent.
      const machine = body.kind === 'machine';
      const paired = deps.pairing.redeem({ secret: body.secret, code: body.code }, () =>
        deps.devices.add(body.deviceName ?? guessDeviceName(ua), machine ? 'pocketmux agent' : guessDeviceName(ua), publicKey, machine ? 'machine' : 'browser'),
      );
      if ('refused' in paired) {
        // Every refusal counts alike, whatever it was: telling them apart buys no guesses.
        deps.attempts.fail(source);
        const refusal = paired.refused;
        res.status(401).json({
          error: refusalText(refusal, body.secret !== undefined ? 'link' : 'code', deps.pairing.terms().validForSeconds),
          code: PAIRING_REFUSALS[refusal],
        } satisfies ApiError);
        return;
      }
      deps.attempts.succeed(source);
      const { device, credential } = paired.value;
      deps.log.info(machine ? 'machine linked this agent' : 'device paired', { device: device.id, name: device.name });
      res.cookie(deps.access.cookieName, credential, {
        httpOnly: true,
        sameSite: 'strict',
        secure: deps.secure,
        path: '/',
        maxAge: CREDENTIAL_MAX_AGE_MS,
      });
      res.status(201).json(sessionOf(device, deps.version));
    }),
  );
  return router;
}

/**
 * A browser has WebCrypto only in a secure context: a page over HTTPS, or on this machine's
 * own loopback address. Only a page on a plain-HTTP LAN address (its `Origin` says so) may
 * pair without a device key; its cookie alone then proves it, as plain HTTP on a network
 * allows no better. Anything else (another client, a secure page) must bring a key.
 */
export function keylessPairingAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return !(host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host));
}

/** `POST /pairings`: a paired device makes a pairing for the next one. */
export function pairingRoutes(deps: Pick<PairingRouteDeps, 'pairing'>): Router {
  const router = express.Router();
  on(
    router,
    API_ROUTES.newPairing,
    handler(async (_req, res) => {
      if (deviceOf(res).kind === 'machine') throw new HttpError(403, 'a linked machine cannot pair devices');
      res.status(201).json(await deps.pairing.create());
    }),
  );
  return router;
}
