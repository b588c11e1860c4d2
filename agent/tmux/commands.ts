/**
 * Builds tmux argument lists. Pure, so every command the agent sends to tmux is tested
 * without a tmux server. Every call names the agent's own server (`-L`) and config file
 * (`-f`), so the person's own tmux server and `~/.tmux.conf` are never touched.
 *
 * Names, paths and typed text reach tmux as arguments, and tmux reads some arguments as
 * more than text: every argument goes through `tmuxArg`, and the ones tmux expands as
 * formats through `formatLiteral` too. See docs/security.md.
 */

export const SESSION_PREFIX = 'pm';

/**
 * A tmux user option holding the identity of the data dir whose agent made a server or a
 * session (`dataDirIdentity`). Set globally when the server starts (a session made by hand
 * there inherits it) and on every session the agent makes, so an agent adopts no session of
 * another data dir's, even on a shared server.
 */
export const OWNER_OPTION = '@pocketmux-owner';

export class TmuxArgumentError extends Error {}

/**
 * tmux splits its command line at any argument that ends in `;` (so `ls;` would lose its
 * semicolon and start a new command); `\;` at the end stands for a literal one.
 */
export function tmuxArg(value: string): string {
  if (value.includes('\0')) throw new TmuxArgumentError('a tmux argument cannot contain a NUL character');
  return value.endsWith(';') ? `${value.slice(0, -1)}\\;` : value;
}

/**
 * A client's tty as `-t` names it (`refresh-client -t /dev/pts/3`): a device path, nothing
 * that tmux could read as a session or a format.
 */
export function clientTtyArg(tty: string): string {
  if (!/^\/dev\/[A-Za-z0-9/]+$/.test(tty)) throw new TmuxArgumentError(`not a terminal device: ${JSON.stringify(tty)}`);
  return tty;
}

/**
 * For the arguments tmux expands as formats (`new-session -c` and `-s`): `#(cmd)` there
 * would run a command, so every `#` is doubled, which tmux reads back as a literal `#`.
 */
export function formatLiteral(value: string): string {
  return value.replaceAll('#', '##');
}

/** The command separator in an argument list holding several tmux commands. */
const SEPARATOR = ';';

/** Joins commands into one argument list for a single tmux run, in order. */
export function chainCommands(commands: readonly (readonly string[])[]): string[] {
  const out: string[] = [];
  for (const command of commands) {
    if (out.length > 0) out.push(SEPARATOR);
    out.push(...command);
  }
  return out;
}

/**
 * tmux sends a command line to its server in one message of at most 16 KB (past that:
 * "command too long"); the agent keeps each run's arguments under this.
 */
export const TMUX_COMMAND_BUDGET_BYTES = 12 * 1024;
/** Typed text goes to tmux in pieces of at most this many UTF-8 bytes. */
export const TEXT_CHUNK_BYTES = 4 * 1024;

/** Bytes a command takes in tmux's message: each argument and its terminating NUL. */
export function commandBytes(command: readonly string[]): number {
  let n = 0;
  for (const arg of command) n += Buffer.byteLength(arg) + 1;
  return n;
}

/** Splits text into pieces of at most `maxBytes` UTF-8 bytes, never inside a character. */
export function chunkUtf8(text: string, maxBytes: number = TEXT_CHUNK_BYTES): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + maxBytes, bytes.length);
    // Back up to the start of a character: continuation bytes are 10xxxxxx.
    while (end < bytes.length && end > start && ((bytes[end] as number) & 0xc0) === 0x80) end--;
    chunks.push(bytes.toString('utf8', start, end));
    start = end;
  }
  return chunks;
}

/**
 * Claude Code (2.1.332) folds a paste longer than 800 characters, or with more than 2 line
 * breaks (fewer in a pane under 12 rows), into "[Pasted text #n]" and sends it to the model
 * wrapped in `<pasted_content>`; and a pasted tab becomes 4 spaces. Text to submit is
 * therefore pasted a line at a time, in pieces of at most this many UTF-16 units, which it
 * takes as if typed.
 */
export const PASTE_PIECE_UNITS = 200;

/** Paste buffers the agent fills are named with this and a random part, one name per call. */
export const PASTE_BUFFER_PREFIX = 'pocketmux-paste-';

/**
 * Text to submit as the pieces it is pasted in, in order, with `'\n'` standing for each line
 * break (`\r\n`, `\r` or `\n`, as Claude Code counts them), which is typed as a key of its own
 * between pieces. A piece holds no line break, is never empty and never ends between the two
 * halves of a surrogate pair.
 */
export function pastePieces(text: string, maxUnits: number = PASTE_PIECE_UNITS): string[] {
  const pieces: string[] = [];
  for (const [i, line] of text.split(/\r\n|\r|\n/).entries()) {
    if (i > 0) pieces.push('\n');
    let start = 0;
    while (start < line.length) {
      let end = Math.min(start + maxUnits, line.length);
      const last = line.charCodeAt(end - 1);
      // A pair is kept whole: left for the next piece, or taken whole into a piece that would be empty.
      if (end < line.length && last >= 0xd800 && last <= 0xdbff) end += end - 1 > start ? -1 : 1;
      pieces.push(line.slice(start, end));
      start = end;
    }
  }
  return pieces;
}

/** Fills a named paste buffer (any server: buffers belong to the server, not to a pane). */
export function setBufferCommand(buffer: string, text: string): string[] {
  return ['set-buffer', '-b', tmuxArg(buffer), '--', tmuxArg(text)];
}

/** Deletes a paste buffer the agent filled; tmux fails it when the buffer is already gone. */
export function deleteBufferCommand(buffer: string): string[] {
  return ['delete-buffer', '-b', tmuxArg(buffer)];
}

/**
 * The commands that paste `text` through `buffer` and press Enter, for a pane of any server:
 * `paste` pastes the buffer into the pane and deletes it, `key` presses a named key there.
 * Line breaks are C-j, a new line in Claude Code's prompt. Enter follows the last piece with
 * no pause, in the same tmux run as far as it fits: Claude Code submits a bracketed paste
 * followed at once by Enter (tried up to 60,000 characters), where typed text followed at once
 * by Enter is taken as a paste with the Enter a new line in it.
 */
export function pasteAndSubmitCommands(text: string, buffer: string, paste: (buffer: string) => string[], key: (key: 'C-j' | 'Enter') => string[]): string[][] {
  const commands: string[][] = [];
  for (const piece of pastePieces(text)) {
    if (piece === '\n') commands.push(key('C-j'));
    else commands.push(setBufferCommand(buffer, piece), paste(buffer));
  }
  commands.push(key('Enter'));
  return commands;
}

/** The fields tmux reports for every pane in one call, in this order. */
const PANE_FIELDS = [
  '#{session_name}',
  '#{pane_id}',
  '#{pane_pid}',
  '#{pane_current_command}',
  '#{pane_current_path}',
  '#{window_width}',
  '#{window_height}',
] as const;

/**
 * A directory name (and a process name) may hold tabs and newlines, and tmux prints them
 * as they are; fields and lines are therefore separated by control characters followed by
 * a random nonce made for each listing, which no name can anticipate.
 */
export function paneListFormat(nonce: string): string {
  return `${PANE_FIELDS.join(fieldSeparator(nonce))}${recordTerminator(nonce)}`;
}

const fieldSeparator = (nonce: string) => `\x1f${nonce}`;
const recordTerminator = (nonce: string) => `\x1e${nonce}`;

export interface PaneInfo {
  session: string;
  /** `%N`: what a process inside the pane sees as $TMUX_PANE. */
  paneId: string;
  panePid: number;
  command: string;
  path: string;
  width: number;
  height: number;
}

export function sessionNameFor(workspaceId: string, tabId: string): string {
  return `${SESSION_PREFIX}_${workspaceId}_${tabId}`;
}

export function parseSessionName(name: string): { workspaceId: string; tabId: string } | null {
  const m = /^pm_([a-z0-9-]+)_([a-z0-9-]+)$/.exec(name);
  return m ? { workspaceId: m[1] as string, tabId: m[2] as string } : null;
}

/** `=name` makes tmux match the session name exactly instead of by prefix. */
const exactSession = (name: string) => tmuxArg(`=${name}`);
/** The active pane of the session's current window. */
const exactPane = (name: string) => tmuxArg(`=${name}:`);

/**
 * The keys the agent presses by name (tmux key names): Enter, Escape (Claude's interrupt), and
 * the keys that move through a dialog (arrows, Tab, and BTab: Shift+Tab).
 */
export const NAMED_KEYS = ['Enter', 'Escape', 'Up', 'Down', 'Tab', 'BTab'] as const;
export type NamedKey = (typeof NAMED_KEYS)[number];

export interface NewSessionOptions {
  name: string;
  cwd: string;
  env: Record<string, string>;
  cols?: number;
  rows?: number;
  command?: string;
}

export class TmuxCommands {
  constructor(
    readonly socket: string,
    readonly configFile: string,
  ) {}

  /**
   * A whole tmux command line for one run: our server and config, then the command. `-u`:
   * tmux writes what it prints (pane listings, captured screens) as UTF-8 whatever the
   * agent's locale says; under `LANG=C` (a service started without a locale) it would print
   * every control and non-ASCII character as `_`, and no pane listing would parse.
   */
  private base(): string[] {
    return ['-u', '-L', tmuxArg(this.socket), '-f', tmuxArg(this.configFile)];
  }

  /** Several commands (from the `*Command` builders) run by one tmux process. */
  chain(commands: readonly (readonly string[])[]): string[] {
    return [...this.base(), ...chainCommands(commands)];
  }

  version(): string[] {
    return ['-V'];
  }

  sourceConfig(): string[] {
    return [...this.base(), 'source-file', tmuxArg(this.configFile)];
  }

  /** `command`, when given, is run by the default shell instead of a plain login shell. */
  newSession(opts: NewSessionOptions): string[] {
    const args = [...this.base(), 'new-session', '-d', '-s', tmuxArg(formatLiteral(opts.name)), '-c', tmuxArg(formatLiteral(opts.cwd))];
    args.push('-x', String(opts.cols ?? 80), '-y', String(opts.rows ?? 24));
    for (const [key, value] of Object.entries(opts.env)) args.push('-e', tmuxArg(`${key}=${value}`));
    if (opts.command) args.push(tmuxArg(opts.command));
    return args;
  }

  hasSession(name: string): string[] {
    return [...this.base(), 'has-session', '-t', exactSession(name)];
  }

  /** The clients attached to a session, one line each (their pid: a number, nothing of the person's). */
  listClients(name: string): string[] {
    return [...this.base(), 'list-clients', '-t', exactSession(name), '-F', '#{client_pid}'];
  }

  killSession(name: string): string[] {
    return [...this.base(), 'kill-session', '-t', exactSession(name)];
  }

  /** The visible screen of a session's pane as plain text, no escapes. */
  capturePane(name: string): string[] {
    return [...this.base(), 'capture-pane', '-p', '-t', exactPane(name)];
  }

  /**
   * A pane's history and screen, for find: `-S -<lines>` from that far back (all of it on our
   * server, whose history-limit is that), `-J` wrapped lines joined, `-e` with their colours
   * as SGR escapes.
   */
  captureHistory(name: string, lines: number): string[] {
    return [...this.base(), 'capture-pane', '-p', '-e', '-J', '-S', `-${lines}`, '-t', exactPane(name)];
  }

  killServer(): string[] {
    return [...this.base(), 'kill-server'];
  }

  /** The server's owner mark (empty output when unmarked); fails when no server runs. */
  serverOwner(): string[] {
    return [...this.base(), 'show-options', '-gqv', OWNER_OPTION];
  }

  /** Marks a session as `owner`'s; run in the same tmux run as the new-session that makes it. */
  markSessionCommand(name: string, owner: string): string[] {
    return ['set-option', '-t', exactPane(name), OWNER_OPTION, tmuxArg(owner)];
  }

  /** `nonce`: fresh random text for each listing, see `parseSessionOwners`. */
  listSessionOwners(nonce: string): string[] {
    return [...this.base(), 'list-sessions', '-F', tmuxArg(`#{session_name}${fieldSeparator(nonce)}#{${OWNER_OPTION}}`)];
  }

  listSessions(): string[] {
    // tmux escapes control characters in session names itself, so a newline cannot occur.
    return [...this.base(), 'list-sessions', '-F', '#{session_name}'];
  }

  /** `nonce`: fresh random text for each listing, see `paneListFormat`. */
  listPanes(nonce: string): string[] {
    return [...this.base(), 'list-panes', '-a', '-F', tmuxArg(paneListFormat(nonce))];
  }

  /** When each pane's window was last written to: see `PANE_ACTIVITY_FORMAT`. */
  paneActivity(): string[] {
    return [...this.base(), 'list-panes', '-a', '-F', PANE_ACTIVITY_FORMAT];
  }

  /**
   * The command node-pty runs to attach a terminal to a session; `base()`'s `-u` tells tmux
   * the client speaks UTF-8 whatever the agent's locale says, so wide characters survive.
   */
  attach(name: string): string[] {
    return [...this.base(), 'attach-session', '-t', exactSession(name)];
  }

  /** Redraws one attached client, named by its tty, now (see REDRAW_QUIET_MS). */
  redrawClient(clientTty: string): string[] {
    return [...this.base(), 'refresh-client', '-t', clientTtyArg(clientTty)];
  }

  display(name: string, format: string): string[] {
    return [...this.base(), 'display-message', '-p', '-t', exactPane(name), tmuxArg(format)];
  }

  /** Types `text` into the pane as literal keys (no key-name lookup, no format expansion). */
  sendLiteralCommand(name: string, text: string): string[] {
    return ['send-keys', '-t', exactPane(name), '-l', '--', tmuxArg(text)];
  }

  sendEnterCommand(name: string): string[] {
    return ['send-keys', '-t', exactPane(name), 'Enter'];
  }

  /**
   * Pastes a buffer into the pane and deletes it (`-d`). `-p`: bracketed, when the program
   * asked for bracketed paste (Claude Code does), so it takes the text as a paste and not as
   * keys; `-r`: the text as it is, no line endings rewritten.
   */
  pasteBufferCommand(name: string, buffer: string): string[] {
    return ['paste-buffer', '-d', '-p', '-r', '-b', tmuxArg(buffer), '-t', exactPane(name)];
  }

  /** Text to submit, pasted into the pane through `buffer`, then Enter; see `pastePieces`. */
  submitCommands(name: string, text: string, buffer: string): string[][] {
    return pasteAndSubmitCommands(
      text,
      buffer,
      (b) => this.pasteBufferCommand(name, b),
      (key) => ['send-keys', '-t', exactPane(name), key],
    );
  }

  /** Presses one named key in the pane; a key from a request passes `PaneKeyBody` first. */
  sendKeyCommand(name: string, key: NamedKey): string[] {
    return ['send-keys', '-t', exactPane(name), key];
  }

  /**
   * Leaves copy-mode if the pane is in it, so typed text reaches the program. tmux decides,
   * in the same run as the keys that follow: no round trip to ask first. The inner command
   * targets the pane `if-shell -t` names.
   */
  leaveCopyModeCommand(name: string): string[] {
    return ['if-shell', '-F', '-t', exactPane(name), '#{pane_in_mode}', 'send-keys -X cancel'];
  }

  setGlobalOption(option: string, value: string): string[] {
    return [...this.base(), 'set-option', '-g', tmuxArg(option), tmuxArg(value)];
  }
}

/**
 * Parses a `listSessionOwners(nonce)` run: each session's owner mark, its own or the server's
 * it inherits, '' when it has none. A line without the separator is skipped.
 */
export function parseSessionOwners(output: string, nonce: string): Map<string, string> {
  const owners = new Map<string, string>();
  const separator = fieldSeparator(nonce);
  for (const line of output.split('\n')) {
    const at = line.indexOf(separator);
    if (at <= 0) continue;
    owners.set(line.slice(0, at), line.slice(at + separator.length));
  }
  return owners;
}

/** Parses a `list-panes` run made with `paneListFormat(nonce)`; skips malformed records. */
export function parsePaneListing(output: string, nonce: string): PaneInfo[] {
  const panes: PaneInfo[] = [];
  const terminator = `${recordTerminator(nonce)}\n`;
  for (const record of output.split(terminator)) {
    const pane = parsePaneRecord(record, nonce);
    if (pane) panes.push(pane);
  }
  return panes;
}

function parsePaneRecord(record: string, nonce: string): PaneInfo | null {
  const parts = record.split(fieldSeparator(nonce));
  if (parts.length !== PANE_FIELDS.length) return null;
  const [session, paneId, pid, command, path, width, height] = parts as [string, string, string, string, string, string, string];
  const panePid = parseCount(pid);
  if (!session || !/^%\d+$/.test(paneId) || panePid === null) return null;
  return { session, paneId, panePid, command, path, width: parseCount(width) ?? 0, height: parseCount(height) ?? 0 };
}

/**
 * One line a pane: its id, whether its window is its session's current one, and when its
 * window was last written to (tmux 3.3 keeps no time per pane, and prints this one in whole
 * seconds). Ids and numbers only: no name a person chose is printed, so a line cannot be forged.
 */
export const PANE_ACTIVITY_FORMAT = '#{pane_id} #{window_active} #{window_activity}';

/** A pane's line of a `PANE_ACTIVITY_FORMAT` listing. */
export interface PaneActivity {
  paneId: string;
  /** Its window is the one its session shows (and a capture of the session reads). */
  current: boolean;
  /** Seconds since the epoch. */
  writtenAt: number;
}

/** Parses a listing made with `PANE_ACTIVITY_FORMAT`; any line not exactly of that shape is skipped. */
export function parsePaneActivity(output: string): PaneActivity[] {
  const panes: PaneActivity[] = [];
  for (const line of output.split('\n')) {
    const m = /^(%\d{1,9}) ([01]) (\d{1,12})$/.exec(line);
    if (m) panes.push({ paneId: m[1] as string, current: m[2] === '1', writtenAt: Number(m[3]) });
  }
  return panes;
}

/**
 * A pid or size as tmux prints it: decimal digits only, ten at most, so a garbled field is
 * never half read (`12abc`) nor a number past what tmux can print (Infinity of 400 digits).
 */
function parseCount(text: string): number | null {
  return /^\d{1,10}$/.test(text) ? Number(text) : null;
}

/** Parses `tmux -V` output (`tmux 3.3a`, `tmux next-3.5`, `tmux 3.4-rc`). */
export function parseTmuxVersion(output: string): { major: number; minor: number } | null {
  const m = /(\d+)\.(\d+)/.exec(output);
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

export const MIN_TMUX = { major: 3, minor: 0 } as const;

/** Whether `tmux -V` output names at least major.minor (false when it cannot be read). */
export function tmuxAtLeast(versionOutput: string, major: number, minor: number): boolean {
  const v = parseTmuxVersion(versionOutput);
  return v !== null && (v.major > major || (v.major === major && v.minor >= minor));
}

export function tmuxIsRecentEnough(v: { major: number; minor: number }): boolean {
  return v.major > MIN_TMUX.major || (v.major === MIN_TMUX.major && v.minor >= MIN_TMUX.minor);
}
