import type { WebSocket } from 'ws';
import { CloseCode } from '../../protocol/close-codes.js';
import { MAX_TERMINAL_DIMENSION } from '../../protocol/terminal-frame.js';
import type { TabService } from '../tabs/tab-service.js';
import type { TerminalBridge } from '../terminal/terminal-bridge.js';
import type { Channel, ChannelContext, ChannelDefinition } from './channel.js';

/** A size from the query; a missing or absurd one gets the usual terminal size instead. */
function dimension(raw: string | null, fallback: number): number {
  if (raw === null || !/^\d{1,5}$/.test(raw)) return fallback;
  const n = Number(raw);
  return n >= 1 && n <= MAX_TERMINAL_DIMENSION ? n : fallback;
}

/**
 * `/api/terminal?tab=<id>&cols=<c>&rows=<r>`: one tab's terminal, in the binary frames of
 * protocol/terminal-frame.ts. The bridge runs it and holds its own caps per device and in
 * all, which is why terminals do not count against the JSON channels' caps.
 */
export class TerminalChannel implements Channel {
  constructor(
    private readonly terminals: TerminalBridge,
    private readonly tabs: TabService,
  ) {}

  accept(ws: WebSocket, { device, url }: ChannelContext): void {
    const tab = this.tabs.tab(url.searchParams.get('tab') ?? '');
    if (!tab) {
      ws.close(CloseCode.TabNotFound, 'no such tab');
      return;
    }
    this.terminals.attach(ws, tab, device.id, {
      cols: dimension(url.searchParams.get('cols'), 80),
      rows: dimension(url.searchParams.get('rows'), 24),
    });
  }

  close(): void {
    this.terminals.closeAll(CloseCode.AgentShutdown, 'agent shutting down');
  }
}

export const terminalChannel: ChannelDefinition = {
  path: '/api/terminal',
  caps: 'own',
  open: (s) => new TerminalChannel(s.terminals, s.tabs),
};
