/**
 * What the benches that drive the real Claude Code CLI share: a terminal attached to its pane,
 * through which keys are pressed as a person at that terminal would, and a deadline that shows
 * the pane when it passes.
 */
import * as pty from 'node-pty';
import type { ClaudePane } from '../support/claude-pane.js';

/** Escape sequences and blanks: what is left of a drawing without them is the text itself. */
const DRAWING_NOISE = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\s/g;

/**
 * A tmux client attached to the pane's session, in this process: keys written to it reach the
 * CLI the way a person's do, and what tmux draws on it can be watched for.
 */
export class AttachedTerminal {
  private readonly client: pty.IPty;
  private tail = '';
  private watch: { mark: string; resolve: () => void } | undefined;

  constructor(
    readonly pane: ClaudePane,
    cols: number,
    rows: number,
  ) {
    this.client = pty.spawn('tmux', ['-u', '-L', pane.socket, 'attach-session', '-t', `=${pane.target}`], {
      name: 'xterm-256color',
      cols,
      rows,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' },
    });
    this.client.onData((chunk) => {
      const watch = this.watch;
      if (!watch) return;
      this.tail = (this.tail + chunk.replace(DRAWING_NOISE, '')).slice(-4096);
      if (this.tail.includes(watch.mark)) {
        this.watch = undefined;
        watch.resolve();
      }
    });
  }

  /**
   * Resolves when `text` is drawn after this call. Spaces do not count: tmux may draw a run of
   * blanks as a cursor move. One watch at a time.
   */
  drawn(text: string): Promise<void> {
    this.tail = '';
    return new Promise((resolve) => {
      this.watch = { mark: text.replace(/\s/g, ''), resolve };
    });
  }

  /** Keys, as typed at this terminal (`\r` is Enter). */
  write(keys: string): void {
    this.client.write(keys);
  }

  close(): void {
    this.watch = undefined;
    this.client.kill();
  }
}

/** `promise`, or an error naming `what` with the pane's screen once `ms` have passed. */
export async function within<T>(promise: Promise<T>, ms: number, what: string, pane: ClaudePane): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      pane.screen().then((screen) => reject(new Error(`${what}: nothing after ${ms} ms\n--- pane ---\n${screen}`)), reject);
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
