import { withTargetProof } from '../../protocol/device-proof.js';
import { websocketUrl } from './api-request.js';
import { requestTarget, signProof } from './device-key.js';
import type { SocketData, SocketLike } from './reconnecting-socket.js';

const CONNECTING = 0;
const CLOSED = 3;

/**
 * A WebSocket to the agent that carries this device's proof. A browser sets no header on a
 * WebSocket, so the proof goes as the last query parameter, and signing takes a moment: until
 * it is made this stands in for the socket (connecting), then hands every handler to the real
 * one. Closed before that, it never opens.
 */
export class ProvenSocket implements SocketLike {
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  private socket: WebSocket | null = null;
  private closedEarly = false;
  private binary: BinaryType = 'blob';

  constructor(path: string) {
    const target = requestTarget(path, location.origin);
    void signProof('GET', target).then(
      (proof) => this.connect(proof === null ? target : withTargetProof(target, proof)),
      () => this.connect(target),
    );
  }

  get binaryType(): BinaryType {
    return this.binary;
  }

  set binaryType(type: BinaryType) {
    this.binary = type;
    if (this.socket) this.socket.binaryType = type;
  }

  get readyState(): number {
    if (this.socket) return this.socket.readyState;
    return this.closedEarly ? CLOSED : CONNECTING;
  }

  send(data: SocketData): void {
    this.socket?.send(data);
  }

  close(code?: number, reason?: string): void {
    if (this.socket) this.socket.close(code, reason);
    else this.closedEarly = true;
  }

  private connect(target: string): void {
    if (this.closedEarly) return;
    const ws = new WebSocket(websocketUrl(target));
    ws.binaryType = this.binary;
    ws.onopen = (ev) => this.onopen?.(ev);
    ws.onmessage = (ev) => this.onmessage?.(ev);
    ws.onclose = (ev) => this.onclose?.(ev);
    this.socket = ws;
  }
}
