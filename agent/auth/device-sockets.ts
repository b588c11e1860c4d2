import type { WebSocket } from 'ws';
import { CloseCode } from '../../protocol/close-codes.js';

/** Every open WebSocket by the device it was opened with, so revoking cuts them at once. */
export class DeviceSockets {
  private readonly byDevice = new Map<string, Set<WebSocket>>();

  register(deviceId: string, ws: WebSocket): void {
    let set = this.byDevice.get(deviceId);
    if (!set) {
      set = new Set();
      this.byDevice.set(deviceId, set);
    }
    set.add(ws);
    ws.once('close', () => {
      set.delete(ws);
      if (set.size === 0 && this.byDevice.get(deviceId) === set) this.byDevice.delete(deviceId);
    });
  }

  revoke(deviceId: string): number {
    const set = this.byDevice.get(deviceId);
    if (!set) return 0;
    this.byDevice.delete(deviceId);
    for (const ws of set) ws.close(CloseCode.DeviceRevoked, 'this device was revoked; pair it again');
    return set.size;
  }
}
