import type { WebSocket } from 'ws';
import { CloseCode } from '../../protocol/close-codes.js';
import { isOutsideKey } from '../../protocol/hook-contract.js';
import { fitTerminalSize, MAX_TERMINAL_DIMENSION } from '../../protocol/terminal-frame.js';
import { CHANNEL_PATHS } from '../../protocol/routes.js';
import type { OutsideTmux } from '../outside/outside-tmux.js';
import { OutsidePaneError, type OutsideSessions } from '../outside/outside-sessions.js';
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
 * reached through its own tmux server while its claude runs there. The bridge runs it and
 * holds its own caps per device and in all, which is why terminals do not count against the
 * JSON channels' caps.
 */
export class TerminalChannel implements Channel {
  constructor(
    private readonly terminals: TerminalBridge,
    private readonly tabs: TabService,
    private readonly tmux: Tmux,
    private readonly outside: OutsideSessions,
    private readonly outsideTmux: OutsideTmux,
  ) {}

  accept(ws: WebSocket, { device, url }: ChannelContext): void {
    const id = url.searchParams.get('tab') ?? '';
    const size = fitTerminalSize(dimension(url.searchParams.get('cols'), 80), dimension(url.searchParams.get('rows'), 24));
    const tab = this.tabs.tab(id);
    if (tab) {
      this.attach(ws, device.id, size, () => tabTerminal(tab, this.tmux, this.tabs));
      return;
    }
    const session = isOutsideKey(id) ? this.outside.get(id) : undefined;
    if (!session) {
      ws.close(CloseCode.TabNotFound, isOutsideKey(id) ? 'no such session' : 'no such tab');
      return;
    }
    // Its frames wait, unread, while its claude is looked for: none is lost, and none reaches
    // the pane before the look says it may.
    ws.pause();
    this.outside.paneToDrive(session).then(
      (pane) => {
        if (ws.readyState !== ws.OPEN) return;
        this.attach(ws, device.id, size, () => outsideTerminal(id, pane, this.outsideTmux));
        ws.resume();
      },
      (err: unknown) => {
        // Read again, with no one listening to frames, so the client's reply to the close is read.
        ws.resume();
        // Both are final: a session started outside tmux has no terminal, and one whose claude is gone is forgotten.
        if (err instanceof OutsidePaneError) ws.close(CloseCode.TabNotFound, err.message);
        else ws.close(CloseCode.AttachFailed, `no terminal: ${(err as Error).message}`.slice(0, 120));
      },
    );
  }

  /** Attaches the target `make` gives, or closes the socket saying why it could not. */
  private attach(ws: WebSocket, device: string, size: { cols: number; rows: number }, make: () => TerminalTarget): void {
    let target: TerminalTarget;
    try {
      target = make();
    } catch (err) {
      ws.close(CloseCode.AttachFailed, `no terminal: ${(err as Error).message}`.slice(0, 120));
      return;
    }
    this.terminals.attach(ws, target, device, size);
  }

  close(): void {
    this.terminals.closeAll(CloseCode.AgentShutdown, 'agent shutting down');
  }
}

export const terminalChannel: ChannelDefinition = {
  path: CHANNEL_PATHS.terminal,
  caps: 'own',
  open: (s) => new TerminalChannel(s.terminals, s.tabs, s.tmux, s.outside, s.outsideTmux),
};
