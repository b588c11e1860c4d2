/**
 * Builds tmux argument lists. Pure, so every command the agent sends to tmux is tested
 * without a tmux server. Every call names the agent's own server (`-L`) and config file
 * (`-f`), so the person's own tmux server and `~/.tmux.conf` are never touched.
 */

export const SESSION_PREFIX = 'pm';

/** Tab metadata tmux reports for every pane in one call. */
export const PANE_FORMAT = [
  '#{session_name}',
  '#{pane_id}',
  '#{pane_pid}',
  '#{pane_current_command}',
  '#{pane_current_path}',
  '#{window_width}',
  '#{window_height}',
].join('\t');

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
const exactSession = (name: string) => `=${name}`;
/** The active pane of the session's current window. */
const exactPane = (name: string) => `=${name}:`;

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

  private base(): string[] {
    return ['-L', this.socket, '-f', this.configFile];
  }

  version(): string[] {
    return ['-V'];
  }

  sourceConfig(): string[] {
    return [...this.base(), 'source-file', this.configFile];
  }

  /** `command`, when given, is run by the default shell instead of a plain login shell. */
  newSession(opts: NewSessionOptions): string[] {
    const args = [...this.base(), 'new-session', '-d', '-s', opts.name, '-c', opts.cwd];
    args.push('-x', String(opts.cols ?? 80), '-y', String(opts.rows ?? 24));
    for (const [key, value] of Object.entries(opts.env)) args.push('-e', `${key}=${value}`);
    if (opts.command) args.push(opts.command);
    return args;
  }

  hasSession(name: string): string[] {
    return [...this.base(), 'has-session', '-t', exactSession(name)];
  }

  killSession(name: string): string[] {
    return [...this.base(), 'kill-session', '-t', exactSession(name)];
  }

  killServer(): string[] {
    return [...this.base(), 'kill-server'];
  }

  listSessions(): string[] {
    return [...this.base(), 'list-sessions', '-F', '#{session_name}'];
  }

  listPanes(): string[] {
    return [...this.base(), 'list-panes', '-a', '-F', PANE_FORMAT];
  }

  /**
   * The command node-pty runs to attach a terminal to a session. `-u` tells tmux the
   * client speaks UTF-8 whatever the agent's locale says, so wide characters survive.
   */
  attach(name: string): string[] {
    return ['-u', ...this.base(), 'attach-session', '-t', exactSession(name)];
  }

  display(name: string, format: string): string[] {
    return [...this.base(), 'display-message', '-p', '-t', exactPane(name), format];
  }

  /** Types `text` into the pane as literal keys (no key-name lookup). */
  sendLiteral(name: string, text: string): string[] {
    return [...this.base(), 'send-keys', '-t', exactPane(name), '-l', '--', text];
  }

  sendEnter(name: string): string[] {
    return [...this.base(), 'send-keys', '-t', exactPane(name), 'Enter'];
  }

  cancelCopyMode(name: string): string[] {
    return [...this.base(), 'send-keys', '-t', exactPane(name), '-X', 'cancel'];
  }

  setGlobalOption(option: string, value: string): string[] {
    return [...this.base(), 'set-option', '-g', option, value];
  }
}

export function parsePaneLine(line: string): PaneInfo | null {
  const parts = line.split('\t');
  if (parts.length !== 7) return null;
  const [session, paneId, pid, command, path, width, height] = parts as [string, string, string, string, string, string, string];
  const panePid = Number.parseInt(pid, 10);
  if (!session || !/^%\d+$/.test(paneId) || !Number.isInteger(panePid)) return null;
  return {
    session,
    paneId,
    panePid,
    command,
    path,
    width: Number.parseInt(width, 10) || 0,
    height: Number.parseInt(height, 10) || 0,
  };
}

/** Parses `tmux -V` output (`tmux 3.3a`, `tmux next-3.5`, `tmux 3.4-rc`). */
export function parseTmuxVersion(output: string): { major: number; minor: number } | null {
  const m = /(\d+)\.(\d+)/.exec(output);
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

export const MIN_TMUX = { major: 3, minor: 0 } as const;

export function tmuxIsRecentEnough(v: { major: number; minor: number }): boolean {
  return v.major > MIN_TMUX.major || (v.major === MIN_TMUX.major && v.minor >= MIN_TMUX.minor);
}
