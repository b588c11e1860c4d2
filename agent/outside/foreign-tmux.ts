/**
 * A tmux pane on a server that is not pocketmux's own: where a claude started in the person's
 * own tmux runs. The agent reaches it through the socket its hooks name (`$TMUX`), to attach a
 * terminal and to type a reply, and never loads its config into it, starts it or ends it.
 */
import { lstatSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { TmuxError, TmuxRunner } from '../tmux/client.js';
import { chainCommands, chunkUtf8, tmuxArg } from '../tmux/commands.js';
import { PaneInputQueue } from '../tmux/input-queue.js';

/** A pane and the tmux server it belongs to. */
export interface ForeignPane {
  /** The server's socket, from `$TMUX`. */
  socketPath: string;
  /** `%N`, from `$TMUX_PANE`. */
  pane: string;
}

/** Longer than any Unix socket path can be (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 1024;

/**
 * `$TMUX` is `<socket path>,<server pid>,<session index>` (tmux writes it with "%s,%ld,%d").
 * The path may hold commas, so the two numbers are taken from the right. Null for anything
 * else: a relative path, control characters, or a value cut short.
 */
export function parseTmuxEnv(value: string | undefined): { socketPath: string; serverPid: number } | null {
  if (!value) return null;
  const m = /^(.+),(\d{1,10}),(-?\d{1,10})$/s.exec(value);
  if (!m) return null;
  const socketPath = m[1] as string;
  if (!isAbsolute(socketPath) || socketPath.length > MAX_SOCKET_PATH || /[\u0000-\u001f\u007f-\u009f]/.test(socketPath)) return null;
  return { socketPath, serverPid: Number(m[2]) };
}

/** `%N`, as `$TMUX_PANE` holds it. */
export function isPaneId(value: string | undefined): value is string {
  return value !== undefined && /^%\d{1,9}$/.test(value);
}

/** Why a pane cannot be reached, in words for the person. */
export class PaneUnreachableError extends Error {}

/**
 * The socket must be a socket owned by the user the agent runs as: a path another user
 * controls could put anything on the other end of a terminal the person opens.
 */
export function checkSocket(socketPath: string, uid = process.getuid?.()): void {
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(socketPath);
  } catch {
    throw new PaneUnreachableError('its tmux server is gone');
  }
  if (!info.isSocket()) throw new PaneUnreachableError('its tmux socket is not a socket');
  if (uid !== undefined && info.uid !== uid) throw new PaneUnreachableError('its tmux server belongs to another user');
}

/** Argument lists for a pane on another server. Pure, so each is tested without tmux. */
export const foreignCommands = {
  base(target: ForeignPane): string[] {
    return ['-S', tmuxArg(target.socketPath)];
  },

  /**
   * What node-pty runs to show the pane: makes it the active pane of its window, then
   * attaches to its session at that window. `-u`: the browser terminal speaks UTF-8.
   */
  attach(target: ForeignPane): string[] {
    return ['-u', ...this.base(target), 'select-pane', '-t', target.pane, ';', 'attach-session', '-t', target.pane];
  },

  /** Prints the pane's id back if it exists. */
  exists(target: ForeignPane): string[] {
    return [...this.base(target), 'display-message', '-p', '-t', target.pane, '#{pane_id}'];
  },

  capture(target: ForeignPane): string[] {
    return [...this.base(target), 'capture-pane', '-p', '-t', target.pane];
  },

  leaveCopyModeCommand(target: ForeignPane): string[] {
    return ['if-shell', '-F', '-t', target.pane, '#{pane_in_mode}', 'send-keys -X cancel'];
  },

  sendLiteralCommand(target: ForeignPane, text: string): string[] {
    return ['send-keys', '-t', target.pane, '-l', '--', tmuxArg(text)];
  },

  sendKeyCommand(target: ForeignPane, key: 'Enter' | 'Escape'): string[] {
    return ['send-keys', '-t', target.pane, key];
  },
};

const queueKey = (target: ForeignPane) => `${target.socketPath}\u0000${target.pane}`;

/** Runs commands against panes of other tmux servers, each pane's input in order. */
export class ForeignTmux {
  private readonly runner: TmuxRunner;
  private readonly input = new Map<string, PaneInputQueue>();

  constructor(
    readonly bin: string,
    env: NodeJS.ProcessEnv,
  ) {
    this.runner = new TmuxRunner(bin, env);
  }

  /** Whether the pane still exists on its server; false when the server is gone too. */
  async paneExists(target: ForeignPane): Promise<boolean> {
    try {
      checkSocket(target.socketPath);
      return (await this.runner.run(foreignCommands.exists(target))).trim() === target.pane;
    } catch (err) {
      if (err instanceof PaneUnreachableError || (err instanceof TmuxError && (err.isMissing || typeof err.code === 'number'))) return false;
      throw err;
    }
  }

  async capture(target: ForeignPane): Promise<string> {
    checkSocket(target.socketPath);
    return this.runner.run(foreignCommands.capture(target));
  }

  /** Types text into the pane (leaving copy-mode first), then Enter if asked; long text in pieces. */
  async type(target: ForeignPane, text: string, enter: boolean): Promise<void> {
    checkSocket(target.socketPath);
    const commands = [foreignCommands.leaveCopyModeCommand(target)];
    for (const chunk of chunkUtf8(text)) commands.push(foreignCommands.sendLiteralCommand(target, chunk));
    if (enter) commands.push(foreignCommands.sendKeyCommand(target, 'Enter'));
    return this.queue(target).send(target.pane, commands);
  }

  async leaveCopyMode(target: ForeignPane): Promise<void> {
    checkSocket(target.socketPath);
    return this.queue(target).send(target.pane, [foreignCommands.leaveCopyModeCommand(target)], { shareable: true });
  }

  /** Sends named keys (a dialog's digit is typed as text; Escape by name). */
  async sendKey(target: ForeignPane, key: 'Enter' | 'Escape'): Promise<void> {
    checkSocket(target.socketPath);
    return this.queue(target).send(target.pane, [foreignCommands.sendKeyCommand(target, key)]);
  }

  /** A pane no longer followed: its queue goes. */
  release(target: ForeignPane): void {
    this.input.delete(queueKey(target));
  }

  private queue(target: ForeignPane): PaneInputQueue {
    const key = queueKey(target);
    let queue = this.input.get(key);
    if (!queue) {
      queue = new PaneInputQueue((commands) => this.runner.run([...foreignCommands.base(target), ...chainCommands(commands)]));
      this.input.set(key, queue);
    }
    return queue;
  }
}
