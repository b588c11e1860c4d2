/**
 * The agent's tmux calls under a C locale, as a service manager may start it with no LANG:
 * tmux then prints control and non-ASCII characters as `_` unless told the client speaks
 * UTF-8, and no pane listing (its separators are control characters) would parse.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { subcommandOf } from '../../agent/tmux/client.js';
import { Tmux } from '../../agent/tmux/tmux.js';
import { eventually } from '../support/eventually.js';
import { testSocketName, tmuxSocketPath } from '../support/temp.js';

describe('tmux under LANG=C', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmx-locale-'));
  const socket = testSocketName('locale');
  const tmux = new Tmux({
    bin: 'tmux',
    socket,
    configFile: join(dir, 'tmux.conf'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C', LC_ALL: 'C' },
    defaultShell: '/bin/sh',
    owner: 'locale-test',
  });

  afterAll(async () => {
    await tmux.killServer();
    // kill-server leaves the socket file behind.
    rmSync(tmuxSocketPath(socket), { force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('still lists panes and reads screens as UTF-8', async () => {
    await tmux.start();
    await tmux.newSession({ name: 'pm_ws-a_tb-b', cwd: dir, env: {}, command: "printf 'caf\\303\\251 \\342\\235\\257 ready\\n'; exec cat" });
    const panes = await tmux.listPanes();
    expect(panes.map((p) => p.session)).toEqual(['pm_ws-a_tb-b']);
    expect(panes[0]?.paneId).toMatch(/^%\d+$/);
    const screen = await eventually(async () => ((await tmux.capturePane('pm_ws-a_tb-b')).includes('ready') ? tmux.capturePane('pm_ws-a_tb-b') : null), 10_000, 'the printed line');
    expect(screen).toContain('café ❯ ready');
  });

  it('names the tmux command in errors past its own options', () => {
    expect(subcommandOf(['-u', '-L', 's', '-f', 'c', 'list-panes', '-a'])).toBe('list-panes');
    expect(subcommandOf(['-N', '-u', '-S', '/tmp/x', 'select-pane', '-t', '%1'])).toBe('select-pane');
    expect(subcommandOf(['-V'])).toBe('-V');
  });
});
