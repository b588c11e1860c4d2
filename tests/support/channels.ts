/**
 * Helpers for the agent's JSON WebSocket channels seen from outside: a raw client that can
 * stop reading, and what the kernel and /proc say about the agent process.
 */
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import type WebSocket from 'ws';
import type { ClientOptions } from 'ws';
import { deviceSocket, type Session } from './client.js';
import { eventually } from './eventually.js';

/** A channel client that keeps every JSON message and can stop reading, like a stalled phone. */
export class RawChannel {
  readonly ws: WebSocket;
  readonly messages: { type: string; [key: string]: unknown }[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(session: Session, path: string, options: ClientOptions = {}) {
    this.ws = deviceSocket(session, path, options);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.ws.on('message', (data) => this.messages.push(JSON.parse(String(data)) as { type: string }));
  }

  private get socket(): Socket {
    return (this.ws as unknown as { _socket: Socket })._socket;
  }

  /** Stops reading: what the agent sends piles up in the kernel, then in the agent. */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  get localPort(): number {
    return this.socket.localPort as number;
  }

  /** Sends `count` copies of a message and waits until they have all left this process. */
  async flood(text: string, count: number): Promise<void> {
    for (let i = 0; i < count; i++) this.ws.send(text);
    await eventually(() => this.ws.bufferedAmount === 0 && this.socket.writableLength === 0, 30_000, 'the flood to leave the client');
  }

  of<T>(type: string): T[] {
    return this.messages.filter((m) => m.type === type) as T[];
  }
}

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM). */
export function procMemory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]) * 1024;
}

/** Bytes the agent has read so far (/proc/<pid>/io rchar): files and sockets alike. */
export function procBytesRead(pid: number): number {
  const m = /^rchar:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  if (!m) throw new Error(`no rchar in /proc/${pid}/io`);
  return Number(m[1]);
}

/**
 * Bytes that arrived on the agent's end of a loopback TCP connection and that the agent has
 * not read yet (the rx_queue of /proc/net/tcp), or null when the connection is not listed.
 */
export function unreadByAgent(agentPort: number, clientPort: number): number | null {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols[1]?.endsWith(`:${hex(agentPort)}`) && cols[2]?.endsWith(`:${hex(clientPort)}`)) {
      return Number.parseInt((cols[4] ?? '0:0').split(':')[1] ?? '0', 16);
    }
  }
  return null;
}

/**
 * Bytes a client sent that the agent has not read: what waits on the agent's end (rx_queue)
 * plus what the client's kernel still holds because the agent's window is full (tx_queue).
 */
export function notYetReadByAgent(agentPort: number, clientPort: number): number {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  let total = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    const [tx, rx] = (cols[4] ?? '0:0').split(':').map((n) => Number.parseInt(n, 16)) as [number, number];
    if (cols[1]?.endsWith(`:${hex(agentPort)}`) && cols[2]?.endsWith(`:${hex(clientPort)}`)) total += rx;
    if (cols[1]?.endsWith(`:${hex(clientPort)}`) && cols[2]?.endsWith(`:${hex(agentPort)}`)) total += tx;
  }
  return total;
}
