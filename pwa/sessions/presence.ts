/**
 * What the person looks at, told to the agent as `status:presence` so a device with a tab in
 * front of it is not pushed about that tab. Sent only when it changes, and once more on every
 * new socket (a new socket starts with no presence at the agent).
 */
import type { StatusClientMessage } from '../../protocol/status-client.js';

export type PresenceMessage = Extract<StatusClientMessage, { type: 'status:presence' }>;

export interface Presence {
  tabId: string | null;
  visible: boolean;
}

/** The page as it stands: the tab on screen (terminal or timeline), and whether it is seen and focused. */
export function presenceOf(viewing: string | null, visibilityState: DocumentVisibilityState, hasFocus: boolean): Presence {
  return { tabId: viewing, visible: visibilityState === 'visible' && hasFocus };
}

export function samePresence(a: Presence | null, b: Presence): boolean {
  return a !== null && a.tabId === b.tabId && a.visible === b.visible;
}

/**
 * Decides when to tell: `update` with the page's presence whenever something may have changed;
 * it sends when the value differs from the last one the current socket took. `reset` when a
 * new socket opens, `ready` once it is synced (before that, nothing is sent).
 */
export class PresenceReporter {
  private sent: Presence | null = null;
  private ready = false;
  private latest: Presence;

  constructor(
    initial: Presence,
    private readonly send: (msg: PresenceMessage) => boolean,
  ) {
    this.latest = initial;
  }

  /** The page's presence now; sent if the socket is ready and it differs from what was sent. */
  update(now: Presence): void {
    this.latest = now;
    this.flush();
  }

  /** A new socket is on its way: it knows nothing yet. */
  reset(): void {
    this.sent = null;
    this.ready = false;
  }

  /** The socket delivered its first sync: tell it where the person is. */
  synced(): void {
    this.ready = true;
    this.flush();
  }

  private flush(): void {
    if (!this.ready || samePresence(this.sent, this.latest)) return;
    const value = this.latest;
    if (this.send({ type: 'status:presence', tabId: value.tabId, visible: value.visible })) this.sent = value;
  }
}
