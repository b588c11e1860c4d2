/**
 * A push service of our own on loopback, doing what FCM or Mozilla's autopush does with the
 * agent's request, and then what the browser does with the message: check the VAPID
 * `Authorization` header (a JWT signed with the agent's key, for this endpoint's origin, not
 * expired), and decrypt the aes128gcm body with the subscription's private key. Each
 * subscription it hands out has its own key pair and auth secret, as a browser's has.
 */
import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { type PushPayload, PushPayloadSchema } from '../../protocol/push.js';

const require = createRequire(import.meta.url);
const ece = require('http_ece') as { decrypt(buffer: Buffer, params: { version: string; privateKey: unknown; authSecret: string }): Buffer };

export interface ReceivedPush {
  subscription: string;
  payload: PushPayload;
  headers: IncomingMessage['headers'];
  /** The VAPID JWT's claims, checked. */
  claims: { aud: string; exp: number; sub: string };
  receivedAt: number;
}

interface Subscriber {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

const b64url = (b: Buffer) => b.toString('base64url');

/** Checks `vapid t=<jwt>, k=<key>` and returns the JWT's claims, or throws saying what is wrong. */
export function checkVapid(authorization: string | undefined, origin: string, expectedKey?: string): { aud: string; exp: number; sub: string } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) throw new Error(`not a VAPID Authorization header: ${authorization}`);
  const [, jwt = '', key = ''] = m;
  if (expectedKey !== undefined && key !== expectedKey) throw new Error('signed with another key than the agent publishes');
  const [head = '', body = '', sig = ''] = jwt.split('.');
  const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
  if (header.alg !== 'ES256') throw new Error(`JWT alg ${header.alg}`);
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) }, format: 'jwk' });
  const ok = verify('sha256', Buffer.from(`${head}.${body}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
  if (!ok) throw new Error('the VAPID JWT signature does not verify');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (claims.aud !== origin) throw new Error(`JWT audience ${claims.aud}, expected ${origin}`);
  if (!(claims.exp * 1000 > Date.now())) throw new Error('the VAPID JWT has expired');
  return claims;
}

export class PushEndpoint {
  readonly received: ReceivedPush[] = [];
  /** Requests the endpoint refused (a wrong signature, say), with why. */
  readonly refused: string[] = [];
  private readonly subscribers = new Map<string, Subscriber>();
  /** Status to answer per subscription id; 201 when unset, as push services do. */
  readonly answer = new Map<string, number>();
  private readonly server: Server;
  port = 0;
  /** The VAPID key the agent publishes; when set, a push signed with another is refused. */
  agentKey: string | undefined;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = /^\/push\/([a-z0-9]+)$/.exec(req.url ?? '')?.[1];
        const subscriber = id ? this.subscribers.get(id) : undefined;
        if (!id || !subscriber) {
          res.writeHead(404).end();
          return;
        }
        try {
          if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${req.headers['content-encoding']}`);
          if (!req.headers.ttl) throw new Error('no TTL header');
          const claims = checkVapid(req.headers.authorization, this.origin, this.agentKey);
          const plain = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: subscriber.ecdh, authSecret: b64url(subscriber.auth) });
          const payload = PushPayloadSchema.parse(JSON.parse(plain.toString('utf8')));
          this.received.push({ subscription: id, payload, headers: req.headers, claims, receivedAt: performance.now() });
        } catch (err) {
          this.refused.push((err as Error).message);
          res.writeHead(400).end();
          return;
        }
        res.writeHead(this.answer.get(id) ?? 201).end();
      });
    });
  }

  static async start(): Promise<PushEndpoint> {
    const endpoint = new PushEndpoint();
    endpoint.server.listen(0, '127.0.0.1');
    await once(endpoint.server, 'listening');
    endpoint.port = (endpoint.server.address() as { port: number }).port;
    return endpoint;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** A new subscription, as `PushSubscription.toJSON()` gives it, with its id here. */
  subscribe(): { id: string; json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } } } {
    const id = randomBytes(6).toString('hex');
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.subscribers.set(id, { ecdh, auth });
    return { id, json: { endpoint: `${this.origin}/push/${id}`, expirationTime: null, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } } };
  }

  /** Pushes received for a subscription, in order. */
  of(id: string): PushPayload[] {
    return this.received.filter((r) => r.subscription === id).map((r) => r.payload);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
