/**
 * A busy machine, as pocketmux lives on one: processes that each keep a core busy, the way a
 * Claude session does while it works (its Node process parses, diffs and renders, one core
 * flat out), run beside a measurement and stop after it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/** Two: two Claude sessions working at once, on this machine every core. */
export const BUSY_PROCESSES = 2;

/** A loop that never waits, in a Node of its own: one core's worth of work, at normal priority. */
const SPIN = 'for (;;) { Math.sqrt(Math.random()); }';

export interface BusyMachine {
  /** How many spinning processes run. */
  readonly processes: number;
  stop(): Promise<void>;
}

/** Starts `count` spinning processes; `stop` ends them and waits until they are gone. */
export function busyMachine(count = BUSY_PROCESSES): BusyMachine {
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i++) children.push(spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }));
  return {
    processes: count,
    async stop() {
      await Promise.all(
        children.map(async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = once(child, 'exit');
          child.kill('SIGKILL');
          await exited;
        }),
      );
    },
  };
}

/** Runs `measure` with the machine busy, and stops the spinning processes whatever happens. */
export async function whileBusy<T>(measure: () => Promise<T>, count = BUSY_PROCESSES): Promise<T> {
  const busy = busyMachine(count);
  try {
    return await measure();
  } finally {
    await busy.stop();
  }
}
