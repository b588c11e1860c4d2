
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { AGENT_BIN, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, firstWorkspaceId, TerminalClient, deviceSocket } from '../support/client.js';
import { eventually } from '../support/eventually.js';

afterAll(cleanupAgents);

describe('agent lifecycle', () => {
  it('survives SIGKILL: a restarted agent adopts the tab, whose shell kept its history', async () => {
    const first = await startAgent();
    const s1 = await claim(first);
    const tab = await createTab(s1);
    const term = new TerminalClient(s1, tab.id);
    await term.opened;
    term.type('export MARK=kept-$((40+2)); echo set-$MARK\r');
    await term.waitForLine(/^set-kept-42$/);
    term.close();

    await first.stop('SIGKILL');
    // The lock and port file are left behind by a killed agent; the next start reclaims them.
    expect(existsSync(join(first.dataDir, 'agent.lock'))).toBe(true);

    const second = await startAgent({ reuse: first });
    const s2 = await claim(second);
    const tabs = await api<{ tabs: TabView[] }>(s2, 'GET', '/api/tabs');
    expect(tabs.body.tabs.map((t) => t.id)).toEqual([tab.id]);
    expect(tabs.body.tabs[0]?.alive).toBe(true);
    const again = new TerminalClient(s2, tab.id);
    await again.opened;
    // The shell is the same process: its variable is still set and the old output is on screen.
    again.type('echo again-$MARK\r');
    await again.waitForLine(/^again-kept-42$/);
    expect((await again.screen()).some((row) => row === 'set-kept-42')).toBe(true);
    again.close();
    await second.stop();
  });

  it('stops cleanly on SIGTERM and SIGINT, leaving tmux sessions running', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const agent = await startAgent();
      const s = await claim(agent);
      const tab = await createTab(s);
      const term = new TerminalClient(s, tab.id);
      await term.opened;
      const code = await agent.stop(signal);
      expect(code).toBe(0);
      expect((await term.closed).code).toBe(4006);
      expect(existsSync(join(agent.dataDir, 'agent.lock'))).toBe(false);
      expect(existsSync(join(agent.dataDir, 'port'))).toBe(false);
      expect(await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}')).toContain(tab.id);
    }
  });

  it('asked to stop while it is still starting, finishes starting and stops cleanly', async () => {
    const env = newTestEnvironment();
    const proc = spawn(process.execPath, [AGENT_BIN, 'start', '--port', '0', '--data-dir', env.dataDir, '--tmux-socket', env.tmuxSocket], { env: agentEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    // The lock is taken inside the start, after the signal handlers are in place.
    await eventually(() => existsSync(join(env.dataDir, 'agent.lock')), 20_000, 'the start to begin');
    proc.kill('SIGTERM');
    const [code, signal] = (await once(proc, 'exit')) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).toContain('SIGTERM, stopping');
    expect(existsSync(join(env.dataDir, 'agent.lock'))).toBe(false);
    await tmux(env.tmuxSocket, 'kill-server').catch(() => undefined);
  });

  it('after a reboot (tmux gone) starts each tab’s shell again in its last directory', async () => {
    const first = await startAgent();
    const s1 = await claim(first);
    const tab = await createTab(s1);
    const dir = join(first.home, 'project dir');
    mkdirSync(dir);
    const term = new TerminalClient(s1, tab.id);
    await term.opened;
    term.type(`cd '${dir}'\r`);
    // The agent learns the pane's directory from tmux when it next looks.
    await eventually(async () => {
      const res = await api<{ tabs: TabView[] }>(s1, 'GET', '/api/tabs');
      return res.body.tabs[0]?.cwd === dir;
    }, 10_000, 'the tab cwd to follow cd');
    term.close();
    await first.stop('SIGKILL');
    await tmux(first.tmuxSocket, 'kill-server');

    const second = await startAgent({ reuse: first });
    const s2 = await claim(second);
    const path = await tmux(second.tmuxSocket, 'display', '-p', '-t', `=pm_${tab.workspaceId}_${tab.id}:`, '#{pane_current_path}');
    expect(path.trim()).toBe(dir);
    expect(second.stderr()).toMatch(/restarted the shell of a tab/);
    const tabs = await api<{ tabs: TabView[] }>(s2, 'GET', '/api/tabs');
    expect(tabs.body.tabs.map((t) => t.id)).toEqual([tab.id]);
    await second.stop();
  });

  it('refuses to start a second agent on the same data dir, naming the first', async () => {
    const first = await startAgent();
    const result = await runCli(
      ['start', '--port', '0', '--data-dir', first.dataDir, '--tmux-socket', first.tmuxSocket],
      agentEnv(first),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`another pocketmux agent (pid ${first.pid}) is already running`);
    await first.stop();
  });

  it('explains clearly when tmux is missing', async () => {
    const env = newTestEnvironment();
    const result = await runCli(['start', '--port', '0', '--data-dir', env.dataDir, '--tmux-socket', env.tmuxSocket], {
      ...agentEnv(env),
      POCKETMUX_TMUX_BIN: 'tmux-that-does-not-exist',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/tmux was not found.*install it/);
    // It did not leave a lock behind.
    expect(existsSync(join(env.dataDir, 'agent.lock'))).toBe(false);
  });

  it('explains clearly when tmux is too old', async () => {
    const env = newTestEnvironment();
    const fake = join(env.root, 'old-tmux');
    writeFileSync(fake, '#!/bin/sh\necho "tmux 2.6"\n', { mode: 0o755 });
    const result = await runCli(['start', '--port', '0', '--data-dir', env.dataDir], { ...agentEnv(env), POCKETMUX_TMUX_BIN: fake });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/tmux 2\.6 is too old: pocketmux needs tmux 3\.0 or newer/);
  });

  it('rejects bad flags with a clear message', async () => {
    const env = newTestEnvironment();
    const bad = await runCli(['start', '--port', 'eighty', '--data-dir', env.dataDir], agentEnv(env));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/port must be a whole number/);
    const unknown = await runCli(['--frobnicate'], agentEnv(env));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--frobnicate'/);
    const help = await runCli(['--help'], agentEnv(env));
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--tmux-socket/);
  });

  it('writes its live port and keeps its data dir private', async () => {
    const agent = await startAgent({ args: [] });
    expect(readFileSync(join(agent.dataDir, 'port'), 'utf8').trim()).toBe(String(agent.port));
    expect(statSync(agent.dataDir).mode & 0o777).toBe(0o700);
    await claim(agent);
    expect(statSync(join(agent.dataDir, 'devices.json')).mode & 0o777).toBe(0o600);
    await agent.stop();
  });

  it('gives new shells the login shell PATH even when started from a bare environment', async () => {
    const env = newTestEnvironment();
    const extra = join(env.home, 'login-bin');
    mkdirSync(extra);
    writeFileSync(join(env.home, '.bash_profile'), `export PATH="${extra}:$PATH"\n`);
    const agent = await startAgent({ reuse: env, env: { PATH: '/usr/bin:/bin' } });
    const s = await claim(agent);
    const tab = await createTab(s);
    const shown = await tmux(agent.tmuxSocket, 'show-environment', '-t', `=pm_${tab.workspaceId}_${tab.id}`, 'PATH');
    expect(shown.trim().split('=')[1]?.split(':')[0]).toBe(extra);
    await agent.stop();
  });

  it('follows the pane’s command and directory live on /api/sync', async () => {
    const agent = await startAgent({ env: { POCKETMUX_TITLE_POLL_MS: '200' } });
    const s = await claim(agent);
    const tab = await createTab(s, await firstWorkspaceId(s));
    const sync = deviceSocket(s, '/api/sync');
    const titles: string[] = [];
    sync.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { workspaces: { tabs: TabView[] }[] };
      const t = msg.workspaces.flatMap((w) => w.tabs).find((x) => x.id === tab.id);
      if (t?.title) titles.push(t.title.command);
    });
    const term = new TerminalClient(s, tab.id);
    await term.opened;
    term.type('sleep 30\r');
    await eventually(() => titles.includes('sleep'), 10_000, 'title to show sleep');
    term.type('\x03');
    await eventually(() => titles.at(-1) === 'bash', 10_000, 'title back to bash');
    sync.close();
    term.close();
    await agent.stop();
  });

  it('adopts a session made on its tmux server by hand, in the workspace of its directory', async () => {
    const agent = await startAgent({ env: { POCKETMUX_SAFETY_POLL_MS: '300' } });
    const s = await claim(agent);
    const dir = join(agent.home, 'handmade');
    mkdirSync(dir);
    const ws = await api<{ id: string }>(s, 'POST', '/api/workspaces', { dir });
    await tmux(agent.tmuxSocket, 'new-session', '-d', '-s', 'by-hand', '-c', dir);
    const tab = await eventually(async () => {
      const res = await api<{ tabs: TabView[] }>(s, 'GET', '/api/tabs');
      return res.body.tabs.find((t) => t.name === 'by-hand');
    }, 10_000, 'the hand-made session to become a tab');
    expect(tab).toMatchObject({ workspaceId: ws.body.id, alive: true, cwd: dir });
    const term = new TerminalClient(s, tab.id);
    await term.opened;
    // Its shell's prompt, not just any row: tmux's status line shows before the shell starts.
    await term.waitForLine(/[$#]$/, 20_000);
    term.type('echo adopted-$((6*7))\r');
    await term.waitForLine(/^adopted-42$/);
    term.close();
    await agent.stop();
  });

  it('refuses to start while its secrets are readable by others, saying how to fix it', async () => {
    const first = await startAgent();
    await first.stop();
    chmodSync(join(first.dataDir, 'hook-token'), 0o644);
    const result = await runCli(['start', '--port', '0', '--data-dir', first.dataDir, '--tmux-socket', first.tmuxSocket], agentEnv(first));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`hook-token is 644; run: chmod 600 '${join(first.dataDir, 'hook-token')}'`);
    chmodSync(join(first.dataDir, 'hook-token'), 0o600);
    chmodSync(first.dataDir, 0o755);
    const again = await runCli(['start', '--port', '0', '--data-dir', first.dataDir, '--tmux-socket', first.tmuxSocket], agentEnv(first));
    expect(again.stderr).toMatch(/is 755; run: chmod 700/);
    chmodSync(first.dataDir, 0o700);
  });

  it('refuses to start while a hook file holding the token is readable by others', async () => {
    const first = await startAgent();
    await first.stop();
    const token = readFileSync(join(first.dataDir, 'hook-token'), 'utf8').trim();
    for (const name of ['token-header', 'settings.json']) {
      const path = join(first.dataDir, 'hooks', name);
      expect(readFileSync(path, 'utf8'), name).toContain(token);
      chmodSync(path, 0o644);
      await expect(startAgent({ reuse: first }), name).rejects.toThrow(`${path} is 644; run: chmod 600 '${path}'`);
      chmodSync(path, 0o600);
    }
    const again = await startAgent({ reuse: first });
    expect(statSync(join(again.dataDir, 'hooks', 'token-header')).mode & 0o777).toBe(0o600);
    await again.stop();
  });
});
