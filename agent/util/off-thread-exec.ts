import { execFile } from 'node:child_process';
import { Worker } from 'node:worker_threads';

export interface ExecOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxBuffer: number;
}

/** How a run failed, as execFile says it: `killed` after the timeout, `code` the exit code or an errno name. */
export interface ExecFailure {
  message: string;
  killed: boolean;
  code: number | string | null;
  /** False when execFile refused the arguments (a NUL in one) and started nothing. */
  started: boolean;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** Null when the program ran and exited 0. */
  failure: ExecFailure | null;
}

interface RunRequest {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxBuffer: number;
}

/**
 * One run, written once for both threads: the worker evaluates this function's own source,
 * and the fallback on the event loop's thread calls it here. So it uses nothing but its
 * arguments, and no named function inside it (a compiler may wrap those in a helper).
 */
function runOne(run: typeof execFile, request: RunRequest, answer: (result: ExecResult) => void): void {
  try {
    run(request.file, request.args, { env: request.env, timeout: request.timeoutMs, killSignal: 'SIGKILL', maxBuffer: request.maxBuffer }, (err, stdout, stderr) => {
      answer({
        stdout: String(stdout ?? ''),
        stderr: String(stderr ?? ''),
        failure: err ? { message: err.message, killed: err.killed === true, code: err.code ?? null, started: true } : null,
      });
    });
  } catch (err) {
    answer({ stdout: '', stderr: '', failure: { message: (err as Error).message, killed: false, code: (err as NodeJS.ErrnoException).code ?? null, started: false } });
  }
}

/**
 * The worker: `runOne` for each request, its answer posted back with the request's id. Plain
 * JavaScript evaluated as the worker's source, so it runs the same from the built agent and
 * from the TypeScript sources under test; its modules come by `import()`, which works whether
 * Node evaluates it as a script or as a module (the worker inherits `--input-type`).
 * Requests posted before the imports resolve wait in the port.
 */
const WORKER_SOURCE = `
const runOne = ${runOne.toString()};
Promise.all([import('node:worker_threads'), import('node:child_process')]).then(([{ parentPort }, { execFile }]) => {
  parentPort.on('message', (request) => runOne(execFile, request, (result) => parentPort.postMessage({ id: request.id, ...result })));
});
`;

interface Pending {
  resolve: (result: ExecResult) => void;
}

/**
 * Starting a program from Node blocks the thread that starts it until the program has
 * replaced the forked copy of the agent (libuv waits for the exec), measured at 8 to 10 ms a
 * run on a small Linux machine: a key typed then waits as long for its echo. The agent's tmux
 * runs every poll (screens, titles) are started from this worker thread instead, so the event
 * loop that echoes keystrokes never waits on a fork.
 *
 * One worker for the agent, started on the first run; it keeps the process alive only while
 * a run waits on it.
 * Should it fail to start or die, every run waiting on it fails (the callers' own errors
 * handle that) and the next run starts a new one; where workers cannot start at all, runs
 * fall back to the event loop's thread.
 */
class ExecWorker {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private unavailable = false;

  run(file: string, args: readonly string[], options: ExecOptions): Promise<ExecResult> {
    const worker = this.unavailable ? null : this.started();
    if (!worker) return onThisThread(file, args, options);
    const id = this.nextId++;
    return new Promise((resolve) => {
      // A run waiting keeps the process alive, as execFile would; an idle worker does not.
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve });
      // postMessage clones the request (the environment with it): nothing here is shared.
      worker.postMessage({ id, file, args, env: options.env, timeoutMs: options.timeoutMs, maxBuffer: options.maxBuffer });
    });
  }

  private started(): Worker | null {
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true });
    } catch {
      this.unavailable = true;
      return null;
    }
    worker.on('message', (answer: ExecResult & { id: number }) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      waiting.resolve({ stdout: answer.stdout, stderr: answer.stderr, failure: answer.failure });
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const failure: ExecFailure = { message: `the worker that starts programs ${why}`, killed: false, code: 'EWORKER', started: true };
      for (const waiting of this.pending.values()) waiting.resolve({ stdout: '', stderr: '', failure });
      this.pending.clear();
    };
    worker.on('error', (err) => lost(`failed: ${err.message}`));
    worker.on('exit', (code) => lost(`exited (${code})`));
    // Listening refs it: unref'd after, until a run waits.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

function onThisThread(file: string, args: readonly string[], options: ExecOptions): Promise<ExecResult> {
  return new Promise((resolve) => runOne(execFile, { file, args: [...args], ...options }, resolve));
}

const shared = new ExecWorker();

/** execFile, started from the agent's worker thread: never rejects, a failure is in the result. */
export function execOffThread(file: string, args: readonly string[], options: ExecOptions): Promise<ExecResult> {
  return shared.run(file, args, options);
}
