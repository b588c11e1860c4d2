import { randomBytes } from 'node:crypto';
import type { PaneHistory } from '../../protocol/pane-history.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { TmuxError, TmuxRunner } from './client.js';
import {
  chunkUtf8,
  deleteBufferCommand,
  MIN_TMUX,
  type NamedKey,
  type NewSessionOptions,
  PASTE_BUFFER_PREFIX,
  type PaneActivity,
  type PaneInfo,
  parsePaneActivity,
  parsePaneListing,
  parseSessionOwners,
  parseTmuxVersion,
  TmuxCommands,
  tmuxIsRecentEnough,
} from './commands.js';
import { HISTORY_LIMIT_LINES, tmuxConfig } from './config-file.js';
import { InputBacklogError, PaneInputQueue } from './input-queue.js';
import { historyTail, newestLines } from './pane-history.js';

export class TmuxPreflightError extends Error {}

/** The agent's tmux server: one socket, one config, every call bounded by a timeout. */
export class Tmux {
  readonly commands: TmuxCommands;
  private readonly runner: TmuxRunner;
  private readonly input: PaneInputQueue;

  constructor(
    readonly opts: {
      bin: string;
      socket: string;
      configFile: string;
      env: NodeJS.ProcessEnv;
      defaultShell: string;
      /** The identity of the agent's data dir, marked on its server and sessions (OWNER_OPTION). */
      owner: string;
    },
  ) {
    this.commands = new TmuxCommands(opts.socket, opts.configFile);
    this.runner = new TmuxRunner(opts.bin, opts.env);
    this.input = new PaneInputQueue((commands) => this.runner.run(this.commands.chain(commands)));
  }

  get bin(): string {
    return this.opts.bin;
  }

  get owner(): string {
    return this.opts.owner;
  }

  /** Explains, in words a person can act on, when tmux is missing or too old. */
  async preflight(): Promise<string> {
    let out: string;
    try {
      out = await this.runner.run(this.commands.version());
    } catch (err) {
      const code = err instanceof TmuxError ? err.code : null;
      if (code === 'ENOENT') {
        throw new TmuxPreflightError(
          `tmux was not found (looked for "${this.opts.bin}" on PATH). pocketmux runs every session in tmux: ` +
            'install it (Debian/Ubuntu: sudo apt-get install tmux; macOS: brew install tmux) ' +
            'or point POCKETMUX_TMUX_BIN at it.',
        );
      }
      throw new TmuxPreflightError(`could not run "${this.opts.bin} -V": ${(err as Error).message}`);
    }
    const version = parseTmuxVersion(out);
    if (!version) throw new TmuxPreflightError(`could not read the tmux version from "${out.trim()}"`);
    if (!tmuxIsRecentEnough(version)) {
      throw new TmuxPreflightError(
        `tmux ${version.major}.${version.minor} is too old: pocketmux needs tmux ${MIN_TMUX.major}.${MIN_TMUX.minor} or newer. ` +
          'Upgrade it with your package manager.',
      );
    }
    return out.trim();
  }

  /**
   * Writes our config and applies it to a server that outlived the agent, which keeps its
   * old options until told again. With no server running there is nothing to do: the
   * first new-session starts one with `-f` and reads the file then. A server marked by another
   * data dir's agent (the same --tmux-socket given to both) is refused: its sessions are not ours.
   * An unmarked one (started before marks, or by hand) becomes ours, as its sessions always were.
   */
  async start(): Promise<void> {
    writeFileAtomic(this.opts.configFile, tmuxConfig({ defaultShell: this.opts.defaultShell, owner: this.opts.owner }), 0o600);
    const holder = await this.serverOwner();
    if (holder !== null && holder !== '' && holder !== this.opts.owner) {
      throw new TmuxPreflightError(
        `the tmux server "${this.opts.socket}" holds the sessions of another pocketmux data dir: each data dir needs its own. ` +
          'Leave out --tmux-socket (and POCKETMUX_TMUX_SOCKET) to get this data dir\'s own server, or pick another name.',
      );
    }
    try {
      await this.runner.run(this.commands.sourceConfig());
    } catch (err) {
      if (!(err instanceof TmuxError && err.isMissing)) throw err;
    }
  }

  /** The owner mark of the running server: '' when unmarked, null when no server runs. */
  private async serverOwner(): Promise<string | null> {
    try {
      return (await this.runner.run(this.commands.serverOwner())).trim();
    } catch (err) {
      if (err instanceof TmuxError && err.isMissing) return null;
      throw err;
    }
  }

  /** Makes a session marked as this data dir's, in one tmux run. */
  async newSession(opts: NewSessionOptions): Promise<void> {
    const args = [...this.commands.newSession(opts), ';', ...this.commands.markSessionCommand(opts.name, this.opts.owner)];
    try {
      await this.runner.run(args);
    } catch (err) {
      // A server that was just exiting (its last session closed) can refuse us once; the
      // retry starts a fresh one.
      if (!(err instanceof TmuxError && /server exited unexpectedly/.test(err.stderr))) throw err;
      await this.runner.run(args);
    }
  }

  /** Each session's owner mark (OWNER_OPTION), '' for a session that has none. */
  async sessionOwners(): Promise<Map<string, string>> {
    const nonce = randomBytes(8).toString('hex');
    try {
      return parseSessionOwners(await this.runner.run(this.commands.listSessionOwners(nonce)), nonce);
    } catch (err) {
      if (err instanceof TmuxError && err.isMissing) return new Map();
      throw err;
    }
  }

  hasSession(name: string): Promise<boolean> {
    return this.runner.succeeds(this.commands.hasSession(name));
  }

  /** How many clients are attached to a session (a browser's terminal, a `tmux attach`); 0 when it is gone. */
  async clientCount(name: string): Promise<number> {
    try {
      return (await this.runner.run(this.commands.listClients(name))).split('\n').filter((l) => /^\d+$/.test(l)).length;
    } catch (err) {
      if (err instanceof TmuxError && err.isMissing) return 0;
      throw err;
    }
  }

  async killSession(name: string): Promise<void> {
    try {
      await this.runner.run(this.commands.killSession(name));
    } catch (err) {
      if (!(err instanceof TmuxError && err.isMissing)) throw err;
    }
  }

  async listSessions(): Promise<string[]> {
    try {
      const out = await this.runner.run(this.commands.listSessions());
      return out.split('\n').filter((l) => l.length > 0);
    } catch (err) {
      if (err instanceof TmuxError && err.isMissing) return [];
      throw err;
    }
  }

  async listPanes(): Promise<PaneInfo[]> {
    const nonce = randomBytes(8).toString('hex');
    try {
      return parsePaneListing(await this.runner.run(this.commands.listPanes(nonce)), nonce);
    } catch (err) {
      if (err instanceof TmuxError && err.isMissing) return [];
      throw err;
    }
  }

  /** When each pane's window was last written to, in one tmux run; none when no server runs. */
  async paneActivity(): Promise<PaneActivity[]> {
    try {
      return parsePaneActivity(await this.runner.run(this.commands.paneActivity()));
    } catch (err) {
      if (err instanceof TmuxError && err.isMissing) return [];
      throw err;
    }
  }

  /**
   * Leaves copy-mode if the pane is in it, so typed text reaches the program. Calls made
   * while one is waiting for tmux share it.
   */
  async leaveCopyMode(name: string): Promise<void> {
    return this.input.send(name, [this.commands.leaveCopyModeCommand(name)], { shareable: true });
  }

  /**
   * Types text into a session's pane, leaving copy-mode first: one tmux run for ordinary
   * text, long text in runs that fit tmux's command size limit. Without Enter the text goes as
   * literal keys (a dialog's answer, a prompt left to finish). With Enter it is pasted, then
   * Enter pressed: Claude Code takes typed text that arrives together with Enter as a paste,
   * the Enter a new line in it, and leaves the prompt unsent.
   */
  async type(name: string, text: string, enter: boolean): Promise<void> {
    const commands = [this.commands.leaveCopyModeCommand(name)];
    if (enter && text !== '') return this.paste(name, text, commands);
    for (const chunk of chunkUtf8(text)) commands.push(this.commands.sendLiteralCommand(name, chunk));
    if (enter) commands.push(this.commands.sendEnterCommand(name));
    return this.input.send(name, commands);
  }

  /**
   * Pastes text through a buffer of this call's own (no other pane or call fills it), then
   * presses Enter, after `before`. Each paste deletes the buffer; a run that fails part way
   * can leave it filled, so it is deleted then too.
   */
  private async paste(name: string, text: string, before: string[][]): Promise<void> {
    const buffer = `${PASTE_BUFFER_PREFIX}${randomBytes(8).toString('hex')}`;
    try {
      await this.input.send(name, [...before, ...this.commands.submitCommands(name, text, buffer)]);
    } catch (err) {
      // A backlog refusal ran nothing, and is what floods meet: no tmux run for it.
      if (!(err instanceof InputBacklogError)) {
        await this.runner.run(this.commands.chain([deleteBufferCommand(buffer)])).catch(() => undefined);
      }
      throw err;
    }
  }

  /**
   * Presses a named key in a session's pane (Escape interrupts Claude), leaving copy-mode
   * first; queued with typed text, so it lands after what was typed before it.
   */
  async pressKey(name: string, key: NamedKey): Promise<void> {
    return this.input.send(name, [this.commands.leaveCopyModeCommand(name), this.commands.sendKeyCommand(name, key)]);
  }

  /** Has tmux redraw one attached client, named by its tty, now rather than on its own timer. */
  async redrawClient(clientTty: string): Promise<void> {
    await this.runner.run(this.commands.redrawClient(clientTty));
  }

  /** What a session's pane shows now, as text. */
  async capturePane(name: string): Promise<string> {
    return this.runner.run(this.commands.capturePane(name));
  }

  /** A session's pane: its history and screen with their colours, the newest within the byte bound. */
  async captureHistory(name: string): Promise<PaneHistory> {
    const tail = historyTail();
    await this.runner.runInto(this.commands.captureHistory(name, HISTORY_LIMIT_LINES), tail);
    return newestLines(tail.result());
  }

  async killServer(): Promise<void> {
    try {
      await this.runner.run(this.commands.killServer());
    } catch (err) {
      if (!(err instanceof TmuxError && err.isMissing)) throw err;
    }
  }
}
