import type { WebSocket } from 'ws';
import { CloseCode } from '../../protocol/close-codes.js';
import { isUnmanagedKey } from '../../protocol/hook-contract.js';
import { fitTerminalSize, MAX_TERMINAL_DIMENSION } from '../../protocol/terminal-frame.js';
import type { ForeignTmux } from '../outside/foreign-tmux.js';
import type { OutsideSessions } from '../outside/outside-sessions.js';
import type { TabService } from '../tabs/tab-service.js';
import type { TerminalBridge, TerminalTarget } from '../terminal/terminal-bridge.js';
import { outsideTerminal, tabTerminal } from '../terminal/terminal-targets.js';
import type { Tmux } from '../tmux/tmux.js';
import type { Channel, ChannelContext, ChannelDefinition } from './channel.js';

/** A size from the query; a missing or absurd one gets the usual terminal size instead. */
function dimension(raw: string | null, fallback: number): number {
  if (raw === null || !/^\d{1,5}$/.test(raw)) return fallback;
  const n = Number(raw);
  return n >= 1 && n <= MAX_TERMINAL_DIMENSION ? n : fallback;
}

/**
 * `/api/terminal?tab=<id>&cols=<c>&rows=<r>`: one tab's terminal, in the binary frames of
 * protocol/terminal-frame.ts; `tab` may also be an outside session's key, whose pane is
 * reached through its own tmux server. The bridge runs it and holds its own caps per device
 * and in all, which is why terminals do not count against the JSON channels' caps.
 */
export class TerminalChannel implements Channel {
  constructor(
    private readonly terminals: TerminalBridge,
    private readonly tabs: TabService,
    private readonly tmux: Tmux,
    private readonly outside: OutsideSessions,
    private readonly foreign: ForeignTmux,
  ) {}

  accept(ws: WebSocket, { device, url }: ChannelContext): void {
    const id = url.searchParams.get('tab') ?? '';
    let target: TerminalTarget;
    try {
      const found = this.target(id);
      if (typeof found === 'string') {
        ws.close(CloseCode.TabNotFound, found);
        return;
      }
      target = found;
    } catch (err) {
      ws.close(CloseCode.AttachFailed, `no terminal: ${(err as Error).message}`.slice(0, 120));
      return;
    }
    this.terminals.attach(ws, target, device.id, fitTerminalSize(dimension(url.searchParams.get('cols'), 80), dimension(url.searchParams.get('rows'), 24)));
  }

  /** The target for an id, or why there is none. */
  private target(id: string): TerminalTarget | string {
    const tab = this.tabs.tab(id);
    if (tab) return tabTerminal(tab, this.tmux, this.tabs);
    if (!isUnmanagedKey(id)) return 'no such tab';
    const session = this.outside.get(id);
    if (!session) return 'no such session';
    if (!session.tmux) return 'no terminal: started outside tmux';
    return outsideTerminal(id, session.tmux, this.foreign);
  }

  close(): void {
    this.terminals.closeAll(CloseCode.AgentShutdown, 'agent shutting down');
  }
}

export const terminalChannel: ChannelDefinition = {
  path: '/api/terminal',
  caps: 'own',
  open: (s) => new TerminalChannel(s.terminals, s.tabs, s.tmux, s.outside, s.foreign),
};
