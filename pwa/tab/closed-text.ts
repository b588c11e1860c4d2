import { CloseCode } from '../../protocol/close-codes.js';

/** Shown instead of the terminal of a Claude started outside tmux. */
export const NO_TERMINAL_TEXT =
  'No terminal: this Claude was started outside tmux. Its approvals, questions and timeline are here; type to it in its own terminal on the machine.';

export function endedText(code: number, outside: boolean): string {
  if (outside) {
    switch (code) {
      case CloseCode.TabNotFound:
        return 'pocketmux no longer knows this Claude session: it ended, or stopped reporting here.';
      case CloseCode.SessionEnded:
        return 'The pane this Claude ran in is gone: it was closed, or its tmux server ended.';
    }
  }
  switch (code) {
    case CloseCode.TabNotFound:
      return 'pocketmux has no tab at this address: it was closed, here or on another device, or the link is not one of its tabs.';
    case CloseCode.SessionEnded:
      return 'The shell in this tab exited, or the tab was closed.';
    case CloseCode.DeviceRevoked:
      return 'This device was removed from pocketmux. Pair it again to continue.';
    case CloseCode.ConnectionLimit:
      return 'Too many terminals were open on the agent, so it closed this one, the oldest. The shell is still running.';
    default:
      return 'The agent closed this terminal because a message was not understood.';
  }
}
