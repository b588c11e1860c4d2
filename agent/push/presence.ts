/**
 * Which tab each device is looking at right now, as its app reports it on `/api/status`: a
 * device with the tab on screen, visible and focused, is not pushed about that tab.
 */
export class Presence {
  /** Per device, per socket: a device may have the app open in several windows. */
  private readonly seen = new Map<string, Map<object, string | null>>();

  /** What one socket of a device shows: a tab, or null (the app hidden, or on no tab). */
  report(deviceId: string, socket: object, tabId: string | null): void {
    const sockets = this.seen.get(deviceId) ?? new Map<object, string | null>();
    sockets.set(socket, tabId);
    this.seen.set(deviceId, sockets);
  }

  /** The socket closed: it shows nothing any more. */
  leave(deviceId: string, socket: object): void {
    const sockets = this.seen.get(deviceId);
    if (!sockets) return;
    sockets.delete(socket);
    if (sockets.size === 0) this.seen.delete(deviceId);
  }

  isViewing(deviceId: string, tabId: string): boolean {
    for (const shown of this.seen.get(deviceId)?.values() ?? []) if (shown === tabId) return true;
    return false;
  }
}
