import type { WebSocket } from 'ws';
import { seesLinkedMachines } from '../auth/device-store.js';
import { CloseCode } from '../../protocol/close-codes.js';
import { fitTerminalSize, MAX_TERMINAL_DIMENSION } from '../../protocol/terminal-frame.js';
import { parseSessionKey } from '../../protocol/session-key.js';
import { CHANNEL_PATHS } from '../../protocol/routes.js';
import { OutsidePaneError } from '../outside/outside-sessions.js';
import type { TerminalBridge } from '../terminal/terminal-bridge.js';
import type { ClaudePanes } from '../wiring/claude-pane.js';
import type { Channel, ChannelContext, ChannelDefinition } from './channel.js';
import type { MachineUnion } from '../machines/machine-union.js';
import { splitMachineKey } from '../../protocol/machine-key.js';

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
    private readonly panes: ClaudePanes,
    private readonly union: MachineUnion,
    private readonly opened: (key: string) => void,
  ) {}

  accept(ws: WebSocket, { device, url }: ChannelContext): void {
    const id = url.searchParams.get('tab') ?? '';
    const owner = splitMachineKey(id);
    if (owner) {
      // A linked machine's session: its own terminal, relayed (one level: not for a machine).
      if (!seesLinkedMachines(device)) ws.close(CloseCode.TabNotFound, 'no such tab');
      else this.union.relay(ws, owner.machineId, CHANNEL_PATHS.terminal, url.searchParams, owner.key);
      return;
    }
    const size = fitTerminalSize(dimension(url.searchParams.get('cols'), 80), dimension(url.searchParams.get('rows'), 24));
    const pane = this.panes.of(id);
    if (!pane) {
      ws.close(CloseCode.TabNotFound, parseSessionKey(id).kind === 'outside' ? 'no such session' : 'no such tab');
      return;
    }
    // Its frames wait, unread, while its pane is looked for (an outside session's claude must
    // still run there): none is lost, and none reaches the pane before the look says it may.
    ws.pause();
    pane.terminal().then(
      (target) => {
        if (ws.readyState !== ws.OPEN) return;
        this.terminals.attach(ws, target, device.id, size);
        ws.resume();
        this.opened(id);
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

  dispose(): void {
    this.terminals.closeAll(CloseCode.AgentShutdown, 'agent shutting down');
  }
}

export const terminalChannel: ChannelDefinition = {
  path: CHANNEL_PATHS.terminal,
  caps: 'own',
  open: (s) => new TerminalChannel(s.terminals, s.panes, s.union, (key) => s.terminalOpened(key)),
};
