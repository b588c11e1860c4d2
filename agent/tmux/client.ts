import { spawn } from 'node:child_process';
import { execOffThread } from '../util/off-thread-exec.js';
import type { ByteTail } from './pane-history.js';

export class TmuxError extends Error {
  constructor(
    message: string,
    readonly args: readonly string[],
    readonly stderr: string,
    readonly code: number | string | null,
  ) {
    super(message);
  }

  /** tmux reports a missing server or session in words; these are the ones we act on. */
  get isMissing(): boolean {
    return /no server running|server exited unexpectedly|can't find session|session not found|no such file|error connecting/i.test(
      this.stderr,
    );
  }
}

export const TMUX_TIMEOUT_MS = 5_000;

/** tmux's own options before the command: these take a value. */
const OPTIONS_WITH_VALUE = new Set(['-L', '-S', '-f']);

/** The tmux command word in an argument list that starts with tmux's own options (`-u -L <socket> -f <file>`). */
export function subcommandOf(args: readonly string[]): string {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-')) i += OPTIONS_WITH_VALUE.has(args[i] as string) ? 2 : 1;
  // `-V` alone is a command of its own.
  return args[i] ?? args[0] ?? '';
}

/** Runs tmux, always with a timeout, so a wedged tmux server cannot hang the agent. */
export class TmuxRunner {
  constructor(
    readonly bin: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs = TMUX_TIMEOUT_MS,
  ) {}

  /**
   * Error messages name the tmux command and what tmux said, never the arguments: those
   * can be what a person typed.
   */
  async run(args: readonly string[]): Promise<string> {
    // Off the event loop's thread: a poll's tmux run must not hold up a keystroke's echo.
    const { stdout, stderr, failure } = await execOffThread(this.bin, args, { env: this.env, timeoutMs: this.timeoutMs, maxBuffer: 16 * 1024 * 1024 });
    if (!failure) return stdout;
    // execFile refuses some arguments (a NUL) before starting anything.
    if (!failure.started) throw new TmuxError(`tmux ${subcommandOf(args)}: ${failure.code ?? 'invalid arguments'}`, args, '', null);
    const why = failure.killed ? `timed out after ${this.timeoutMs} ms` : stderr.trim() || failure.code || 'failed';
    throw new TmuxError(`tmux ${subcommandOf(args)}: ${why}`, args, stderr, failure.code);
  }

  /**
   * Runs tmux for output that may be large (a pane's history), handing what it prints to
   * `tail`, which keeps only its end: however much tmux writes, the agent holds no more. Fails
   * as `run` does.
   */
  runInto(args: readonly string[], tail: ByteTail): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (why: string, stderr: string, code: number | string | null) =>
        reject(new TmuxError(`tmux ${subcommandOf(args)}: ${why}`, args, stderr, code));
      let child: ReturnType<typeof spawn>;
      try {
        child = spawn(this.bin, args, { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (err) {
        // spawn refuses some arguments (a NUL) before starting anything.
        fail((err as NodeJS.ErrnoException).code ?? 'invalid arguments', '', null);
        return;
      }
      let stderr = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        // Not waiting for its output to close: whatever it started may hold that open.
        child.stdout?.destroy();
        child.stderr?.destroy();
        fail(`timed out after ${this.timeoutMs} ms`, stderr, null);
      }, this.timeoutMs);
      child.stdout?.on('data', (chunk: Buffer) => tail.push(chunk));
      child.stderr?.setEncoding('utf8').on('data', (d: string) => {
        // What tmux says is a line or two; more is not kept.
        if (stderr.length < 4096) stderr += d;
      });
      child.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        fail(err.code ?? err.message, '', err.code ?? null);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        if (code !== 0) fail(stderr.trim() || `exited with ${code}`, stderr, code);
        else resolve();
      });
    });
  }

  /** Runs and reports success instead of throwing: for `has-session` and friends. */
  async succeeds(args: readonly string[]): Promise<boolean> {
    try {
      await this.run(args);
      return true;
    } catch (err) {
      if (err instanceof TmuxError && err.isMissing) return false;
      if (err instanceof TmuxError && typeof err.code === 'number') return false;
      throw err;
    }
  }
}
