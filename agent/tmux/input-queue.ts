import { commandBytes, TMUX_COMMAND_BUDGET_BYTES } from './commands.js';

/** A pane's queue holds at most this many bytes of commands not yet handed to tmux. */
export const MAX_QUEUED_INPUT_BYTES = 1024 * 1024;

/** The pane has more input waiting than the queue takes: the caller should try later. */
export class InputBacklogError extends Error {}

interface Request {
  commands: readonly (readonly string[])[];
  /** Index of the first command not yet handed to tmux. */
  next: number;
  bytes: number;
  resolve: () => void;
  reject: (err: Error) => void;
  /** A bare copy-mode exit, which a later identical request may share. */
  shareable: boolean;
  promise: Promise<void>;
}

/**
 * Key input for panes, in as few tmux runs as fit. Starting tmux costs milliseconds, so
 * requests for one pane that arrive while a run is in flight go together in the next run
 * (tmux runs `a ; b ; c` in order), each run kept under tmux's command size limit. Order is
 * kept per pane; different panes do not wait on each other.
 */
export class PaneInputQueue {
  private readonly panes = new Map<string, { requests: Request[]; bytes: number; running: boolean }>();

  constructor(
    /** Runs one tmux process with the commands for `pane`, chained; rejects on failure. */
    private readonly runChain: (commands: readonly (readonly string[])[], pane: string) => Promise<unknown>,
    private readonly budgetBytes = TMUX_COMMAND_BUDGET_BYTES,
    private readonly maxQueuedBytes = MAX_QUEUED_INPUT_BYTES,
  ) {}

  /**
   * Queues commands for a pane; resolves once tmux ran the last of them. `shareable`
   * requests (idempotent ones, like leaving copy-mode) ride on an identical one still
   * waiting in the queue instead of adding another.
   */
  send(pane: string, commands: readonly (readonly string[])[], opts: { shareable?: boolean } = {}): Promise<void> {
    let queue = this.panes.get(pane);
    if (!queue) {
      queue = { requests: [], bytes: 0, running: false };
      this.panes.set(pane, queue);
    }
    const last = queue.requests.at(-1);
    if (opts.shareable && last?.shareable && last.next === 0) return last.promise;
    let bytes = 0;
    for (const command of commands) {
      const size = commandBytes(command);
      if (size > this.budgetBytes) return Promise.reject(new RangeError(`a tmux command of ${size} bytes is over the ${this.budgetBytes}-byte budget`));
      bytes += size;
    }
    if (queue.bytes + bytes > this.maxQueuedBytes) {
      return Promise.reject(new InputBacklogError('this tab has too much input waiting; try again in a moment'));
    }
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    queue.requests.push({ commands, next: 0, bytes, resolve, reject, shareable: opts.shareable === true, promise });
    queue.bytes += bytes;
    if (!queue.running) void this.drain(pane);
    return promise;
  }

  /** Bytes queued for a pane and not yet handed to tmux. */
  queuedBytes(pane: string): number {
    return this.panes.get(pane)?.bytes ?? 0;
  }

  private async drain(pane: string): Promise<void> {
    const queue = this.panes.get(pane);
    if (!queue) return;
    queue.running = true;
    while (queue.requests.length > 0) {
      const batch: (readonly string[])[] = [];
      const touched: Request[] = [];
      let used = 0;
      for (const request of queue.requests) {
        const from = request.next;
        while (request.next < request.commands.length) {
          const command = request.commands[request.next] as readonly string[];
          // The separator between commands costs two bytes (`;` and its NUL).
          const size = commandBytes(command) + (batch.length > 0 ? 2 : 0);
          if (used + size > this.budgetBytes) break;
          batch.push(command);
          used += size;
          request.next++;
        }
        if (request.next > from) touched.push(request);
        if (request.next < request.commands.length) break;
      }
      try {
        if (batch.length > 0) await this.runChain(batch, pane);
        // Requests whose last command ran are done; one cut off by the budget goes on next time.
        while (queue.requests[0] && queue.requests[0].next >= queue.requests[0].commands.length) {
          const done = queue.requests.shift() as Request;
          queue.bytes -= done.bytes;
          done.resolve();
        }
      } catch (err) {
        // A failed run ends every request it carried part of; what they had left is not sent.
        for (const request of touched) {
          queue.requests.splice(queue.requests.indexOf(request), 1);
          queue.bytes -= request.bytes;
          request.reject(err as Error);
        }
      }
    }
    queue.running = false;
    this.panes.delete(pane);
  }
}
