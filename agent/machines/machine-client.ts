import { createPrivateKey, type KeyObject, randomBytes, sign } from 'node:crypto';
import { type ClientRequest, type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { AGENT_TIME_HEADER, formatProof, PROOF_HEADER, PROOF_TIME_ERROR, proofMessage } from '../../protocol/device-proof.js';
import type { MachineReach } from '../../protocol/machines.js';
import { ACCESS_REFUSALS } from '../../protocol/refusals.js';

/** The most of another agent's answer this one reads; the answers linking needs are small. */
export const MACHINE_ANSWER_MAX_BYTES = 1024 * 1024;
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
  body: unknown;
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
      const made = requestOf(target, method, path, { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) });
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
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = null;
          try {
            parsed = text ? (JSON.parse(text) as unknown) : null;
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
        res.on('error', (err) => reject(unreachable(url, err)));
      });
    } catch (err) {
      reject(err);
      return;
    }
    req.on('error', (err) => reject(unreachable(url, err)));
    req.end(body === undefined ? undefined : JSON.stringify(body));
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

  async request(method: string, path: string, body?: unknown): Promise<MachineAnswer> {
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

  private async signed(method: string, path: string, body: unknown): Promise<MachineAnswer> {
    const target = new URL(path, this.target.url);
    const time = Date.now() + this.offsetMs;
    const nonce = randomBytes(16).toString('base64url');
    const signature = sign('sha256', Buffer.from(proofMessage(method, `${target.pathname}${target.search}`, time, nonce)), { key: this.key, dsaEncoding: 'ieee-p1363' });
    const answer = await machineRequest(this.target, method, path, body, {
      cookie: `${this.credential.cookieName}=${this.credential.credential}`,
      [PROOF_HEADER]: formatProof({ time, nonce, signature: signature.toString('base64url') }),
    });
    const theirs = Number(answer.headers[AGENT_TIME_HEADER.toLowerCase()]);
    if (Number.isFinite(theirs) && theirs > 0) this.offsetMs = theirs - Date.now();
    return answer;
  }
}
