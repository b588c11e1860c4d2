/**
 * A tmux pane on a server that is not pocketmux's own: where a claude started in the person's
 * own tmux runs. The agent reaches it through the socket its hooks name (`$TMUX`), to attach a
 * terminal and to type a reply, and never loads its config into it, starts it or ends it.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { PaneHistory } from '../../protocol/pane-history.js';
import { TmuxError, TmuxRunner } from '../tmux/client.js';
import { chainCommands, chunkUtf8, clientTtyArg, deleteBufferCommand, type NamedKey, PANE_ACTIVITY_FORMAT, PASTE_BUFFER_PREFIX, parsePaneActivity, pasteAndSubmitCommands, tmuxArg } from '../tmux/commands.js';
import { HISTORY_LIMIT_LINES } from '../tmux/config-file.js';
import { InputBacklogError, PaneInputQueue } from '../tmux/input-queue.js';
import { historyTail, newestLines } from '../tmux/pane-history.js';

/** A pane and the tmux server it belongs to. */
export interface OutsidePane {
  /** The server's socket, from `$TMUX`. */
  socketPath: string;
  /**
   * The server's pid, from `$TMUX`: a server started again on the same socket numbers its
   * panes afresh, so `%3` there is another pane. Null where it was not known.
   */
  serverPid: number | null;
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
export const outsideCommands = {
  /**
   * `-S` is the client's own option, read as it is: no command-line escaping applies to it.
   * `-u`: output as UTF-8 whatever the agent's locale (see TmuxCommands).
   */
  base(target: OutsidePane): string[] {
    return ['-u', '-S', target.socketPath];
  },

  /**
   * What node-pty runs to show the pane: makes it the active pane of its window, then
   * attaches to its session at that window. `-u`: the browser terminal speaks UTF-8. `-N`
   * (tmux 3.2 and later): never start a server, which `attach-session` would do on a stale
   * socket, loading the person's config under the agent.
   */
  attach(target: OutsidePane, noStartServer = true): string[] {
    return [...(noStartServer ? ['-N'] : []), ...this.base(target), 'select-pane', '-t', target.pane, ';', 'attach-session', '-t', target.pane];
  },

  /** How many clients are attached to the pane's session. */
  attached(target: OutsidePane): string[] {
    return [...this.base(target), 'display-message', '-p', '-t', target.pane, '#{session_attached}'];
  },

  /** Prints the pane's id and its server's pid if the pane exists. */
  exists(target: OutsidePane): string[] {
    return [...this.base(target), 'display-message', '-p', '-t', target.pane, '#{pane_id} #{pid} #{pane_pid}'];
  },

  capture(target: OutsidePane): string[] {
    return [...this.base(target), 'capture-pane', '-p', '-t', target.pane];
  },

  /** Every pane of the server, each with when its window was last written to (`PANE_ACTIVITY_FORMAT`). */
  paneActivity(socketPath: string): string[] {
    return [...this.base({ socketPath, serverPid: null, pane: '' }), 'list-panes', '-a', '-F', PANE_ACTIVITY_FORMAT];
  },

  /** Redraws the browser terminal's own client of that server, named by its tty. */
  redrawClient(target: OutsidePane, clientTty: string): string[] {
    return [...this.base(target), 'refresh-client', '-t', clientTtyArg(clientTty)];
  },

  /**
   * The pane's history and screen, for find, as `TmuxCommands.captureHistory` reads a tab's:
   * at most `lines` back, however long a history the person's tmux keeps.
   */
  captureHistory(target: OutsidePane, lines: number): string[] {
    return [...this.base(target), 'capture-pane', '-p', '-e', '-J', '-S', `-${lines}`, '-t', target.pane];
  },

  leaveCopyModeCommand(target: OutsidePane): string[] {
    return ['if-shell', '-F', '-t', target.pane, '#{pane_in_mode}', 'send-keys -X cancel'];
  },

  sendLiteralCommand(target: OutsidePane, text: string): string[] {
    return ['send-keys', '-t', target.pane, '-l', '--', tmuxArg(text)];
  },

  sendKeyCommand(target: OutsidePane, key: NamedKey | 'C-j'): string[] {
    return ['send-keys', '-t', target.pane, key];
  },

  /** Pastes a buffer into the pane and deletes it, bracketed when the program asked (see `TmuxCommands.pasteBufferCommand`). */
  pasteBufferCommand(target: OutsidePane, buffer: string): string[] {
    return ['paste-buffer', '-d', '-p', '-r', '-b', tmuxArg(buffer), '-t', target.pane];
  },

  /** Text to submit, pasted into the pane through `buffer`, then Enter (see `pastePieces`). */
  submitCommands(target: OutsidePane, text: string, buffer: string): string[][] {
    return pasteAndSubmitCommands(
      text,
      buffer,
      (b) => outsideCommands.pasteBufferCommand(target, b),
      (key) => outsideCommands.sendKeyCommand(target, key),
    );
  },
};

/** One queue for every outside pane: its key names the socket and the pane, and is read back to run. */
const queueKey = (target: OutsidePane) => JSON.stringify([target.socketPath, target.pane]);

/** Runs commands against panes of other tmux servers, each pane's input in order. */
export class OutsideTmux {
  private readonly runner: TmuxRunner;
  /** A pane's entry lives while it has input waiting, so nothing here grows with panes seen. */
  private readonly input: PaneInputQueue;

  constructor(
    readonly bin: string,
    env: NodeJS.ProcessEnv,
    /** tmux 3.2 and later take `-N` (never start a server). */
    readonly noStartServer = true,
  ) {
    this.runner = new TmuxRunner(bin, env);
    this.input = new PaneInputQueue((commands, key) => {
      const [socketPath] = JSON.parse(key) as [string, string];
      return this.runner.run([...outsideCommands.base({ socketPath, serverPid: null, pane: '' }), ...chainCommands(commands)]);
    });
  }

  /**
   * The pane's process id when the pane exists on the same server (the one whose pid its
   * hooks gave); null when it, or its server, is gone.
   */
  async panePid(target: OutsidePane): Promise<number | null> {
    try {
      checkSocket(target.socketPath);
      const [pane, serverPid, panePid] = (await this.runner.run(outsideCommands.exists(target))).trim().split(' ');
      if (pane !== target.pane || (target.serverPid !== null && Number(serverPid) !== target.serverPid)) return null;
      const pid = Number(panePid);
      return Number.isInteger(pid) && pid > 0 ? pid : null;
    } catch (err) {
      if (err instanceof PaneUnreachableError || (err instanceof TmuxError && (err.isMissing || typeof err.code === 'number'))) return null;
      throw err;
    }
  }

  /** Whether the pane still exists on its server; false when the server is gone too. */
  /** Whether a client is attached to the pane's session (the person has it on screen); false when it cannot be told. */
  async attached(target: OutsidePane): Promise<boolean> {
    try {
      checkSocket(target.socketPath);
      return Number((await this.runner.run(outsideCommands.attached(target))).trim()) > 0;
    } catch (err) {
      if (err instanceof PaneUnreachableError || err instanceof TmuxError) return false;
      throw err;
    }
  }

  async paneExists(target: OutsidePane): Promise<boolean> {
    return (await this.panePid(target)) !== null;
  }

  attachArgs(target: OutsidePane): string[] {
    return outsideCommands.attach(target, this.noStartServer);
  }

  /** Has the person's tmux redraw the browser terminal's client on `clientTty` now. */
  async redrawClient(target: OutsidePane, clientTty: string): Promise<void> {
    checkSocket(target.socketPath);
    await this.runner.run(outsideCommands.redrawClient(target, clientTty));
  }

  /**
   * When each pane of the server on `socketPath` was last written to, in seconds, by pane id
   * (`%N`): one tmux run for every pane there.
   */
  async paneActivity(socketPath: string): Promise<Map<string, number>> {
    checkSocket(socketPath);
    const written = new Map<string, number>();
    for (const pane of parsePaneActivity(await this.runner.run(outsideCommands.paneActivity(socketPath)))) written.set(pane.paneId, pane.writtenAt);
    return written;
  }

  async capture(target: OutsidePane): Promise<string> {
    checkSocket(target.socketPath);
    return this.runner.run(outsideCommands.capture(target));
  }

  /**
   * The pane's history and screen with their colours, the newest within the byte bound; only
   * while it is the same pane, on the server its hooks named (a server started again on that
   * socket numbers its panes afresh). `PaneUnreachableError` says why not.
   */
  async captureHistory(target: OutsidePane): Promise<PaneHistory> {
    checkSocket(target.socketPath);
    if ((await this.panePid(target)) === null) throw new PaneUnreachableError('its pane is gone');
    const tail = historyTail();
    await this.runner.runInto(outsideCommands.captureHistory(target, HISTORY_LIMIT_LINES), tail);
    return newestLines(tail.result());
  }

  /**
   * Types text into the pane (leaving copy-mode first), long text in pieces: as literal keys
   * without Enter; pasted, then Enter, with it, as `Tmux.type` does and for the same reason.
   * The paste goes through a buffer of this call's own on the person's server, deleted by the
   * paste, or afterwards when a run failed part way.
   */
  async type(target: OutsidePane, text: string, enter: boolean): Promise<void> {
    checkSocket(target.socketPath);
    const commands = [outsideCommands.leaveCopyModeCommand(target)];
    if (enter && text !== '') {
      const buffer = `${PASTE_BUFFER_PREFIX}${randomBytes(8).toString('hex')}`;
      try {
        return await this.input.send(queueKey(target), [...commands, ...outsideCommands.submitCommands(target, text, buffer)]);
      } catch (err) {
        // A backlog refusal ran nothing, and is what floods meet: no tmux run for it.
        if (!(err instanceof InputBacklogError)) {
          await this.runner.run([...outsideCommands.base(target), ...deleteBufferCommand(buffer)]).catch(() => undefined);
        }
        throw err;
      }
    }
    for (const chunk of chunkUtf8(text)) commands.push(outsideCommands.sendLiteralCommand(target, chunk));
    if (enter) commands.push(outsideCommands.sendKeyCommand(target, 'Enter'));
    return this.input.send(queueKey(target), commands);
  }

  async leaveCopyMode(target: OutsidePane): Promise<void> {
    checkSocket(target.socketPath);
    return this.input.send(queueKey(target), [outsideCommands.leaveCopyModeCommand(target)], { shareable: true });
  }

  /** Sends a named key (a dialog's digit is typed as text; Escape, arrows and Tab by name). */
  async sendKey(target: OutsidePane, key: NamedKey): Promise<void> {
    checkSocket(target.socketPath);
    return this.input.send(queueKey(target), [outsideCommands.sendKeyCommand(target, key)]);
  }
}
