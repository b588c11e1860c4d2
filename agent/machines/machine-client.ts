import { createPrivateKey, type KeyObject, randomBytes, sign } from 'node:crypto';
import { type ClientRequest, type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import WebSocket from 'ws';
import { AGENT_TIME_HEADER, formatProof, PROOF_HEADER, PROOF_TIME_ERROR, proofMessage, withTargetProof } from '../../protocol/device-proof.js';
import type { MachineReach } from '../../protocol/machines.js';
import { ACCESS_REFUSALS } from '../../protocol/refusals.js';

/** The most of another agent's answer this one reads: a forwarded answer (a pane's history, a diff) included. */
export const MACHINE_ANSWER_MAX_BYTES = 16 * 1024 * 1024;
/** The most of another agent's refusal that is passed on in words. */
export const ANSWER_ERROR_MAX = 500;
/** How long one request to another agent may take, connection and answer. */
export const MACHINE_REQUEST_TIMEOUT_MS = 10_000;

/** Why a request to another agent got no usable answer: the reach to show, and the words. */
export class MachineError extends Error {
  constructor(
    readonly reach: Exclude<MachineReach, 'ok' | 'unknown'>,
    message: string,
  ) {
    super(message);
  }
}

/** Where another agent is and how this one knows it is talking to it. */
export interface MachineTarget {
  url: string;
  /** SHA-256 fingerprint of its own certificate (`AB:CD:…`), or null: verified as any HTTPS site, or loopback. */
  pin: string | null;
}

/** This agent's credential and key on another agent. */
export interface MachineCredential {
  cookieName: string;
  credential: string;
  privateKey: string;
}

export interface MachineAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  /** The answer as JSON, or null when it is empty or not JSON. */
  body: unknown;
  /** The answer as it came, to pass on. */
  bytes: Buffer;
}

/** A body passed on as it came (a phone's request forwarded to the machine it is for), with its type. */
export interface RawBody {
  raw: Buffer;
  type: string;
  /** Headers of the request's own that go with it (an upload's file name). */
  headers?: Record<string, string>;
}

function isRaw(body: unknown): body is RawBody {
  return typeof body === 'object' && body !== null && Buffer.isBuffer((body as Partial<RawBody>).raw);
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Why this agent will not talk to a URL, or null when it may: HTTPS anywhere, plain HTTP only
 * to this machine's own loopback address, where nothing crosses a network.
 */
export function transportProblem(url: string): string | null {
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return null;
  return `refusing plain HTTP to ${parsed.host}: nothing goes to another machine without TLS. Serve that agent over HTTPS (\`--tailscale\`, or \`--tls-cert\` and \`--tls-key\`) and make a new link code there`;
}

/**
 * The TLS connection to an agent whose own certificate was pinned at link time: no CA vouches
 * for it, so the chain and the name are not what is checked; its SHA-256 fingerprint is, on
 * every connection, before a byte of the request is written.
 */
function pinnedConnection(url: URL, pin: string) {
  return (_options: RequestOptions, done: (err: Error | null, socket?: Socket) => void): undefined => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = tlsConnect({ host, port: Number(url.port || 443), servername: isIP(host) ? undefined : host, rejectUnauthorized: false });
    const fail = (err: Error) => {
      socket.destroy();
      done(err);
    };
    socket.once('error', (err) => done(unreachable(url, err)));
    socket.once('secureConnect', () => {
      const presented = socket.getPeerCertificate().fingerprint256;
      if (presented !== pin) {
        fail(
          new MachineError(
            'certificate',
            `the agent at ${url.host} presents a certificate with SHA-256 ${presented || '(none)'}, not the ${pin} pinned when it was linked: nothing was sent. If that machine has a new certificate, link it again; else someone may be in between`,
          ),
        );
        return;
      }
      done(null, socket);
    });
    return undefined;
  };
}

function unreachable(url: URL, err: Error): MachineError {
  if (err instanceof MachineError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  // A CA-verified agent whose certificate did not verify: say so, it is not a network fault.
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|ERR_TLS/.test(code)) {
    return new MachineError('certificate', `the agent at ${url.host} has a certificate this machine does not trust (${code}: ${err.message}): nothing was sent`);
  }
  return new MachineError('unreachable', `cannot reach the agent at ${url.host}: ${code || err.message}`);
}

/** Node's request function and options for a path on the target, verified as its trust says. */
function requestOf(target: MachineTarget, method: string, path: string, headers: Record<string, string>): { send: (cb: (res: IncomingMessage) => void) => ClientRequest; url: URL } {
  const url = new URL(path, target.url);
  const problem = transportProblem(target.url);
  if (problem) throw new MachineError('refused', problem);
  const signal = AbortSignal.timeout(MACHINE_REQUEST_TIMEOUT_MS);
  if (target.pin !== null) {
    if (url.protocol !== 'https:') throw new MachineError('refused', 'a pinned certificate needs an https URL');
    // Plain node:http over the TLS socket the pin was checked on.
    const options: RequestOptions = {
      method,
      host: url.hostname,
      port: url.port || 443,
      path: `${url.pathname}${url.search}`,
      headers: { host: url.host, ...headers },
      // No agent: with one (even `agent: false`), node:http would open its own plain socket.
      createConnection: pinnedConnection(url, target.pin) as unknown as RequestOptions['createConnection'],
      signal,
    };
    return { url, send: (cb) => httpRequest(options, cb) };
  }
  const options = { method, headers, signal, agent: false as const };
  return { url, send: (cb) => (url.protocol === 'https:' ? httpsRequest(url, options, cb) : httpRequest(url, options, cb)) };
}

/** One request to another agent and its JSON answer (null when the body is empty or not JSON). */
export function machineRequest(target: MachineTarget, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<MachineAnswer> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest;
    let url: URL;
    try {
      const type: Record<string, string> = body === undefined ? {} : isRaw(body) ? { ...body.headers, 'content-type': body.type } : { 'content-type': 'application/json' };
      const made = requestOf(target, method, path, { ...headers, ...type });
      url = made.url;
      req = made.send((res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MACHINE_ANSWER_MAX_BYTES) {
            req.destroy(new MachineError('refused', `the agent at ${url.host} answered with more than ${MACHINE_ANSWER_MAX_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          let parsed: unknown = null;
          try {
            parsed = text ? (JSON.parse(text) as unknown) : null;
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, bytes });
        });
        res.on('error', (err) => reject(unreachable(url, err)));
      });
    } catch (err) {
      reject(err);
      return;
    }
    req.on('error', (err) => reject(unreachable(url, err)));
    req.end(body === undefined ? undefined : isRaw(body) ? body.raw : JSON.stringify(body));
  });
}

/** The error text of another agent's refusal, as it wrote it, or its status. */
export function answerError(answer: MachineAnswer): string {
  const error = (answer.body as { error?: unknown } | null)?.error;
  if (typeof error !== 'string') return `HTTP ${answer.status}`;
  // Another machine's words, shown here: bounded, and escaped wherever they are shown.
  return error.length > ANSWER_ERROR_MAX ? `${error.slice(0, ANSWER_ERROR_MAX)}…` : error;
}

/**
 * Requests to an agent this one linked, signed as a paired browser's are: the credential
 * cookie, and a proof made with this agent's own key there, in that agent's time.
 */
export class MachineClient {
  private readonly key: KeyObject;
  /** That agent's clock minus this one's, learned from its answers. */
  private offsetMs = 0;

  constructor(
    readonly target: MachineTarget,
    private readonly credential: MachineCredential,
  ) {
    this.key = createPrivateKey(credential.privateKey);
  }

  async request(method: string, path: string, body?: unknown | RawBody): Promise<MachineAnswer> {
    let answer = await this.signed(method, path, body);
    // Its clock is far from this one's: sign once more in its time, as the app does.
    if (answer.status === 401 && (answer.body as { code?: unknown } | null)?.code === PROOF_TIME_ERROR) answer = await this.signed(method, path, body);
    if (answer.status === 401) {
      const code = (answer.body as { code?: unknown } | null)?.code;
      if (code === ACCESS_REFUSALS.revoked || code === ACCESS_REFUSALS.unknown) {
        throw new MachineError('revoked', `the agent at ${new URL(this.target.url).host} no longer knows this one: it was removed from its devices list there. Remove it here, and link it again to follow it`);
      }
      throw new MachineError('refused', `the agent at ${new URL(this.target.url).host} refused this one: ${answerError(answer)}`);
    }
    return answer;
  }

  /**
   * A WebSocket to one of its channels, proven as the app opens one (the proof the last query
   * parameter, the cookie a header) and verified as every request is.
   */
  socket(path: string, maxPayload: number): WebSocket {
    const problem = transportProblem(this.target.url);
    if (problem) throw new MachineError('refused', problem);
    const url = new URL(path, this.target.url);
    const target = withTargetProof(`${url.pathname}${url.search}`, this.proof('GET', `${url.pathname}${url.search}`));
    const wsUrl = new URL(target, url);
    wsUrl.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return new WebSocket(wsUrl, {
      headers: { cookie: this.cookie() },
      handshakeTimeout: MACHINE_REQUEST_TIMEOUT_MS,
      maxPayload,
      ...(this.target.pin === null ? {} : { createConnection: pinnedConnection(url, this.target.pin) as never }),
    });
  }

  private cookie(): string {
    return `${this.credential.cookieName}=${this.credential.credential}`;
  }

  private proof(method: string, target: string): string {
    const time = Date.now() + this.offsetMs;
    const nonce = randomBytes(16).toString('base64url');
    const signature = sign('sha256', Buffer.from(proofMessage(method, target, time, nonce)), { key: this.key, dsaEncoding: 'ieee-p1363' });
    return formatProof({ time, nonce, signature: signature.toString('base64url') });
  }

  private async signed(method: string, path: string, body: unknown): Promise<MachineAnswer> {
    const target = new URL(path, this.target.url);
    const answer = await machineRequest(this.target, method, path, body, {
      cookie: this.cookie(),
      [PROOF_HEADER]: this.proof(method, `${target.pathname}${target.search}`),
    });
    const theirs = Number(answer.headers[AGENT_TIME_HEADER.toLowerCase()]);
    if (Number.isFinite(theirs) && theirs > 0) this.offsetMs = theirs - Date.now();
    return answer;
  }
}
