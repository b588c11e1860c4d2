/**
 * Redrawing one attached client on demand (`refresh-client -t <its tty>`), as the terminal
 * bridge asks once a held flood goes quiet: on pocketmux's own server (`Tmux`) and on a
 * person's server (`OutsideTmux`), each with a real `tmux attach` under node-pty, as the
 * bridge runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterAll, describe, expect, it } from 'vitest';
import { OutsideTmux } from '../../agent/outside/outside-tmux.js';
import { TmuxArgumentError } from '../../agent/tmux/commands.js';
import { Tmux } from '../../agent/tmux/tmux.js';
import { eventually } from '../support/eventually.js';
import { bareTmuxEnv, TmuxServer } from '../support/tmux-server.js';
import { testSocketName, tmuxSocketPath } from '../support/temp.js';

const root = mkdtempSync(join(tmpdir(), 'pocketmux-redraw-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8', TERM: 'xterm-256color' };
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(root, { recursive: true, force: true });
});

const MARK = 'REDRAW-MARK';

/** A `tmux attach` client under node-pty that keeps what tmux draws on it. */
function attach(file: string, args: string[]): { tty: string; output: () => string } {
  const term = pty.spawn(file, args, { name: 'xterm-256color', cols: 80, rows: 24, cwd: root, env });
  cleanups.push(() => term.kill());
  let output = '';
  term.onData((d) => {
    output += d;
  });
  const tty = (term as unknown as { ptsName: string }).ptsName;
  return { tty, output: () => output };
}

/**
 * Waits until tmux has drawn the pane with the mark and every byte tmux has written to the
 * client has come (tmux counts them: `client_written`), and returns how much had come: tmux
 * draws a screen in one pass, so whatever follows came from the redraw asked for next.
 */
async function settled(client: { tty: string; output: () => string }, server: TmuxServer): Promise<number> {
  await eventually(() => client.output().includes(MARK), 10_000, 'the attached client to show the pane');
  return eventually(
    async () => {
      const written = (await server.run('list-clients', '-F', '#{client_tty} #{client_written}'))
        .split('\n')
        .find((line) => line.startsWith(`${client.tty} `))
        ?.split(' ')[1];
      const output = client.output();
      return Buffer.byteLength(output) === Number(written) ? output.length : null;
    },
    10_000,
    'every byte tmux wrote to the client to come',
  );
}

describe('redrawing one attached client', () => {
  it('on pocketmux\'s server: the client on that tty gets the screen again; no other tty is a client', async () => {
    const socket = testSocketName('redraw');
    const tmux = new Tmux({ bin: 'tmux', socket, configFile: join(root, 'tmux.conf'), env, defaultShell: '/bin/sh', owner: 'redraw-test' });
    // kill-server leaves the socket file behind.
    cleanups.push(() => rmSync(tmuxSocketPath(socket), { force: true }));
    cleanups.push(() => tmux.killServer());
    await tmux.start();
    await tmux.newSession({ name: 'pm_ws-r_tb-r', cwd: root, env: {}, command: `printf '${MARK}\\n'; exec cat` });
    const client = attach(tmux.opts.bin, tmux.commands.attach('pm_ws-r_tb-r'));
    const before = await settled(client, new TmuxServer({ name: socket }, env));

    await tmux.redrawClient(client.tty);
    await eventually(() => client.output().slice(before).includes(MARK), 10_000, 'the redrawn screen');

    // A tty no client of this server holds: tmux refuses, nothing is drawn.
    await expect(tmux.redrawClient('/dev/pts/999999')).rejects.toThrow(/refresh-client/);
    // Anything but a device path never reaches tmux.
    for (const bad of ['', 'pm_ws-r_tb-r', '/dev/pts/1;kill-server', '/dev/pts/#{pid}', '/dev/../tmp/x', '../dev/pts/1']) {
      await expect(tmux.redrawClient(bad), bad).rejects.toThrow(TmuxArgumentError);
    }
    expect(await tmux.hasSession('pm_ws-r_tb-r')).toBe(true);
  }, 60_000);

  it('on a person\'s server, reached through its socket', async () => {
    const socketPath = join(root, 'person.sock');
    const server = new TmuxServer({ socketPath }, bareTmuxEnv(root));
    cleanups.push(() => server.stop());
    await server.run('-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', '24', `printf '${MARK}\\n'; exec cat`);
    const [serverPid, pane] = (await server.run('display', '-p', '#{pid}\t#{pane_id}')).trim().split('\t');
    const target = { socketPath, serverPid: Number(serverPid), pane: pane as string };
    const outsideTmux = new OutsideTmux('tmux', env);
    const client = attach(outsideTmux.bin, outsideTmux.attachArgs(target));
    const before = await settled(client, server);

    await outsideTmux.redrawClient(target, client.tty);
    await eventually(() => client.output().slice(before).includes(MARK), 10_000, 'the redrawn screen');
  }, 60_000);
});
