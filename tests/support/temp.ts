/**
 * Names for what tests make outside their own directories. A run's check (leftovers.ts) gives
 * the run a temp dir of its own (TMPDIR) and a tag; tmux sockets carry the tag in their names,
 * as tmux keeps them in its own directory, shared by every run on the machine.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set by the run's check: the machine's temp dir, which the run's TMPDIR is inside. */
export const MACHINE_TMPDIR_ENV = 'POCKETMUX_TEST_MACHINE_TMPDIR';
/** Set by the run's check: the tag in the names of the tmux sockets this run makes. */
export const RUN_TAG_ENV = 'POCKETMUX_TEST_RUN';

/** The machine's temp dir, for what is kept from one run to the next (the packaged Chromium, unpacked once). */
export function machineTmpdir(): string {
  return process.env[MACHINE_TMPDIR_ENV] ?? tmpdir();
}

/** A tmux socket name (`-L`) of a test's own: `pmx-<kind>-`, the run's tag, and a random part. */
export function testSocketName(kind: string): string {
  const tag = process.env[RUN_TAG_ENV];
  return `pmx-${kind}-${tag ? `${tag}-` : ''}${randomBytes(4).toString('hex')}`;
}

/**
 * Where tmux keeps a `-L` socket for this user: under the TMUX_TMPDIR of the environment the
 * server started with, else /tmp. Test servers start with a bare environment (no TMUX_TMPDIR).
 * `kill-server` leaves this file behind; whoever kills the server removes it.
 */
export function tmuxSocketPath(name: string, env: { TMUX_TMPDIR?: string } = {}): string {
  return join(tmuxSocketDir(env), name);
}

export function tmuxSocketDir(env: { TMUX_TMPDIR?: string } = {}): string {
  return join(env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid?.() ?? 0}`);
}
