/**
 * A test client for a running agent: claims the printed link for a device credential, then
 * speaks REST and the terminal protocol the way the PWA does.
 */
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import xtermHeadless from '@xterm/headless';
import WebSocket, { type ClientOptions } from 'ws';
import type { PairingResponse, TabView, WorkspacesResponse } from '../../protocol/api.js';
import { type DevicePublicKey, formatProof, PROOF_HEADER, proofMessage, withTargetProof } from '../../protocol/device-proof.js';
import { HOOK_HEADERS } from '../../protocol/hook-contract.js';
import { decodeFrame, encodeFrame, FrameType, type TerminalFrame } from '../../protocol/terminal-frame.js';
import type { AgentHandle } from './agent.js';
import { eventually } from './eventually.js';

export interface Session {
  agent: Pick<AgentHandle, 'url' | 'port'>;
  cookie: string;
  /**
   * The device's private key: every request carries a proof signed with it, as the app's
   * requests do (`protocol/device-proof.ts`). Null for a device paired with its cookie alone.
   */
  key: KeyObject | null;
}

/** A device key pair as the app makes one (ECDSA P-256): the private half, and the public one as pairing sends it. */
export function newDeviceKey(): { privateKey: KeyObject; publicKey: DevicePublicKey } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  return { privateKey, publicKey: { kty: 'EC', crv: 'P-256', x: jwk.x as string, y: jwk.y as string } };
}

/** A proof for one request by the device holding `key`, made now (the agent runs on this machine's clock). */
export function signProof(key: KeyObject, method: string, target: string, time = Date.now()): string {
  const nonce = randomBytes(16).toString('base64url');
  const signature = sign('sha256', Buffer.from(proofMessage(method, target, time, nonce)), { key, dsaEncoding: 'ieee-p1363' });
  return formatProof({ time, nonce, signature: signature.toString('base64url') });
}

/** The headers a device's request carries: its cookie and, when it has a key, the proof for this method and path. */
export function deviceHeaders(session: Session, method: string, url: string | URL): Record<string, string> {
  const target = new URL(url, session.agent.url);
  const headers: Record<string, string> = { cookie: session.cookie };
  if (session.key) headers[PROOF_HEADER] = signProof(session.key, method, `${target.pathname}${target.search}`);
  return headers;
}

/** A WebSocket URL (`ws:`/`wss:`) for an agent path with the device's proof as its last parameter, as the app opens one. */
export function deviceSocketUrl(session: Session, path: string | URL): string {
  const url = new URL(path, session.agent.url.replace(/^http/, 'ws'));
  const target = `${url.pathname}${url.search}`;
  const proven = session.key ? withTargetProof(target, signProof(session.key, 'GET', target)) : target;
  return new URL(proven, url).toString();
}

/** Opens a device's WebSocket to an agent path, proven as the app's are. */
export function deviceSocket(session: Session, path: string | URL, options: ClientOptions = {}): WebSocket {
  return new WebSocket(deviceSocketUrl(session, path), { ...options, headers: { cookie: session.cookie, ...options.headers } });
}

/** The status a WebSocket upgrade to `url` gets with these headers (101 when it opens; it is closed at once). */
export function upgradeStatus(url: string | URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('unexpected-response', (req, res) => {
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('error', reject);
  });
}

/** Pairs with a secret or code as a browser with WebCrypto does: with a new device key. */
export async function pairDevice(agent: Pick<AgentHandle, 'url' | 'port'>, body: { secret: string } | { code: string }, deviceName = 'test device'): Promise<Session> {
  const key = newDeviceKey();
  const res = await fetch(new URL('/api/pair', agent.url), {
    method: 'POST',
    // Not kept for the session's requests: the agent cuts a connection that carried no
    // credential 10 s after its answer, and a request sent on it just then fails ("other side
    // closed"), as fetch does not send it again.
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ ...body, deviceName, publicKey: key.publicKey }),
  });
  if (res.status !== 201) throw new Error(`pairing failed: ${res.status} ${await res.text()}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0] ?? '';
  if (!cookie.includes('=')) throw new Error(`no cookie in ${setCookie}`);
  return { agent, cookie, key: key.privateKey };
}

export function claim(agent: Pick<AgentHandle, 'url' | 'port' | 'token'>, deviceName = 'test device'): Promise<Session> {
  return pairDevice(agent, { secret: agent.token }, deviceName);
}

/** Pairs one more device with a code a paired device asked for, as a second phone would. */
export async function pairAnother(agent: Pick<AgentHandle, 'url' | 'port'>, owner: Session, deviceName: string): Promise<Session> {
  const pairing = await api<PairingResponse>(owner, 'POST', '/api/pairings');
  return pairDevice(agent, { code: pairing.body.code }, deviceName);
}

/**
 * A device for requests beside a test's browsers, paired through the CLI's way in (the hook
 * token, from this machine): a browser's own key cannot be taken out of it.
 */
export async function localDevice(agent: Pick<AgentHandle, 'url' | 'port' | 'dataDir'>, deviceName = 'test device'): Promise<Session> {
  return pairDevice(agent, { code: (await localPairing(agent)).code }, deviceName);
}

/** A new pairing (link and code), asked for with the local token as `pocketmux pair` does. */
export async function localPairing(agent: Pick<AgentHandle, 'url' | 'dataDir'>): Promise<PairingResponse> {
  const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
  const res = await fetch(new URL('/api/pairings', agent.url), { method: 'POST', headers: { [HOOK_HEADERS.token]: token } });
  if (res.status !== 201) throw new Error(`a pairing through the local token failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as PairingResponse;
}

export async function api<T = unknown>(
  session: Session,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const url = new URL(path, session.agent.url);
  const res = await fetch(url, {
    method,
    headers: { ...deviceHeaders(session, method, url), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export async function firstWorkspaceId(session: Session): Promise<string> {
  const res = await api<WorkspacesResponse>(session, 'GET', '/api/workspaces');
  const ws = res.body.workspaces[0];
  if (!ws) throw new Error('no workspace');
  return ws.id;
}

export async function createTab(session: Session, workspaceId?: string): Promise<TabView> {
  const res = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: workspaceId ?? (await firstWorkspaceId(session)) });
  if (res.status !== 201) throw new Error(`create tab: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

/** A terminal connection that collects output and waits for text to appear in it. */
export class TerminalClient {
  readonly ws: WebSocket;
  private chunks: Buffer[] = [];
  private textCache = '';
  private cachedUpTo = 0;
  readonly frames: TerminalFrame[] = [];
  readonly closed: Promise<CloseInfo>;
  readonly opened: Promise<void>;
  bytesReceived = 0;
  /** Keep only counts and the screen (for floods) instead of every chunk. */
  keepOutput = true;
  /** Feed the headless terminal; off where its parsing would skew a measurement. */
  trackScreen = true;
  onOutput: ((data: Uint8Array) => void) | null = null;

  /** A real terminal emulator fed with the output, to read the screen as a person sees it. */
  private readonly screenTerm: InstanceType<typeof xtermHeadless.Terminal>;

  /**
   * `asked`: the size the upgrade asks for, where it is not the screen kept here (a size
   * past the agent's bound would make the headless terminal hold every cell of it).
   */
  constructor(session: Session, tabId: string, opts: { cols?: number; rows?: number; origin?: string; asked?: { cols: number; rows: number } } = {}) {
    this.screenTerm = new xtermHeadless.Terminal({ cols: opts.cols ?? 80, rows: opts.rows ?? 24, allowProposedApi: true });
    const url = new URL('/api/terminal', session.agent.url.replace(/^http/, 'ws'));
    url.searchParams.set('tab', tabId);
    url.searchParams.set('cols', String(opts.asked?.cols ?? opts.cols ?? 80));
    url.searchParams.set('rows', String(opts.asked?.rows ?? opts.rows ?? 24));
    this.ws = deviceSocket(session, url, { headers: { origin: opts.origin ?? session.agent.url.replace(/\/$/, '') } });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    this.ws.on('message', (data: Buffer) => {
      const decoded = decodeFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      if (!decoded.ok) throw new Error(`agent sent a malformed frame: ${decoded.error.message}`);
      const frame = decoded.frame;
      if (frame.type === FrameType.Stdout) {
        this.bytesReceived += frame.data.length;
        this.onOutput?.(frame.data);
        if (this.keepOutput) this.chunks.push(Buffer.from(frame.data));
        if (this.trackScreen) this.screenTerm.write(Buffer.from(frame.data));
      } else {
        this.frames.push(frame);
      }
    });
  }

  output(): string {
    if (this.cachedUpTo < this.chunks.length) {
      this.textCache += Buffer.concat(this.chunks.slice(this.cachedUpTo)).toString('utf8');
      this.cachedUpTo = this.chunks.length;
    }
    return this.textCache;
  }

  /** The visible screen, one string per row, trailing blanks trimmed. */
  async screen(): Promise<string[]> {
    await new Promise<void>((resolve) => this.screenTerm.write('', resolve));
    const buffer = this.screenTerm.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < this.screenTerm.rows; y++) {
      rows.push((buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd());
    }
    return rows;
  }

  /** Waits until some row of the screen matches; on timeout the error shows the screen. */
  async waitForLine(pattern: RegExp, timeoutMs = 10_000): Promise<string> {
    return eventually(
      async () => (await this.screen()).find((row) => pattern.test(row)),
      timeoutMs,
      `a screen row matching ${pattern}`,
      async () => `--- screen ---\n${(await this.screen()).join('\n')}`,
    );
  }

  send(frame: TerminalFrame): void {
    this.ws.send(encodeFrame(frame));
  }

  type(text: string): void {
    this.send({ type: FrameType.Stdin, data: new TextEncoder().encode(text) });
  }

  resize(cols: number, rows: number): void {
    this.screenTerm.resize(cols, rows);
    this.send({ type: FrameType.Resize, cols, rows });
  }

  async waitFor(pattern: RegExp | string, timeoutMs = 10_000): Promise<void> {
    const matches = () => (typeof pattern === 'string' ? this.output().includes(pattern) : pattern.test(this.output()));
    // A closed socket ends the wait at once: nothing more will arrive.
    const closed = () => this.ws.readyState === WebSocket.CLOSED;
    await eventually(() => matches() || closed(), timeoutMs, `${pattern}`, () => `got:\n${this.output().slice(-2000)}`);
    if (!matches()) throw new Error(`socket closed while waiting for ${pattern}`);
  }

  close(): void {
    this.ws.close();
    this.screenTerm.dispose();
  }
}

/**
 * Turns a tab into a recorder: its shell becomes `cat` writing to `file` with no echo and no
 * 4 KB line limit (non-canonical mode; Enter still ends a line), so a test can compare what
 * arrived with what was typed, byte for byte.
 */
export async function recordTypedText(session: Session, tabId: string, file: string): Promise<void> {
  const start = await api(session, 'POST', `/api/tabs/${tabId}/input`, { text: `stty -icanon -echo && exec cat > '${file}'` });
  if (start.status !== 204) throw new Error(`could not start cat: ${start.status}`);
  await eventually(() => existsSync(file), 10_000, 'cat to start');
}
