import { describe, expect, it } from 'vitest';
import {
  PANE_FORMAT,
  parsePaneLine,
  parseSessionName,
  parseTmuxVersion,
  sessionNameFor,
  TmuxCommands,
  tmuxIsRecentEnough,
} from '../../agent/tmux/commands.js';
import { tmuxConfig } from '../../agent/tmux/config-file.js';

const cmds = new TmuxCommands('pocketmux', '/data/tmux.conf');
const BASE = ['-L', 'pocketmux', '-f', '/data/tmux.conf'];

describe('tmux command builder', () => {
  it('always names our own socket and config file', () => {
    for (const args of [
      cmds.listSessions(),
      cmds.listPanes(),
      cmds.hasSession('s'),
      cmds.killSession('s'),
      cmds.killServer(),
      cmds.display('s', '#{pane_in_mode}'),
      cmds.cancelCopyMode('s'),
      cmds.sourceConfig(),
    ]) {
      expect(args.slice(0, 4)).toEqual(BASE);
    }
  });

  it('targets sessions by exact name, never by prefix', () => {
    expect(cmds.hasSession('pm_ws-a_tb-b')).toEqual([...BASE, 'has-session', '-t', '=pm_ws-a_tb-b']);
    expect(cmds.killSession('pm_ws-a_tb-b')).toEqual([...BASE, 'kill-session', '-t', '=pm_ws-a_tb-b']);
    expect(cmds.display('x', '#{window_width}')).toEqual([...BASE, 'display-message', '-p', '-t', '=x:', '#{window_width}']);
  });

  it('attaches in UTF-8 mode', () => {
    expect(cmds.attach('pm_a_b')).toEqual(['-u', ...BASE, 'attach-session', '-t', '=pm_a_b']);
  });

  it('creates detached sessions in a directory with a size and environment', () => {
    expect(cmds.newSession({ name: 'pm_a_b', cwd: '/home/me/proj', env: { PATH: '/usr/bin:/bin', POCKETMUX_TAB: 'tb-1' } })).toEqual([
      ...BASE,
      'new-session',
      '-d',
      '-s',
      'pm_a_b',
      '-c',
      '/home/me/proj',
      '-x',
      '80',
      '-y',
      '24',
      '-e',
      'PATH=/usr/bin:/bin',
      '-e',
      'POCKETMUX_TAB=tb-1',
    ]);
  });

  it('names sessions after workspace and tab and parses them back', () => {
    const name = sessionNameFor('ws-abc123', 'tb-xyz789');
    expect(name).toBe('pm_ws-abc123_tb-xyz789');
    expect(name).not.toMatch(/[.:]/);
    expect(parseSessionName(name)).toEqual({ workspaceId: 'ws-abc123', tabId: 'tb-xyz789' });
    expect(parseSessionName('main')).toBeNull();
    expect(parseSessionName('pm_only')).toBeNull();
  });

  it('parses list-panes lines and rejects malformed ones', () => {
    expect(PANE_FORMAT.split('\t')).toHaveLength(7);
    expect(parsePaneLine('pm_a_b\t%12\t1234\tvim\t/home/me/my proj\t120\t40')).toEqual({
      session: 'pm_a_b',
      paneId: '%12',
      panePid: 1234,
      command: 'vim',
      path: '/home/me/my proj',
      width: 120,
      height: 40,
    });
    expect(parsePaneLine('')).toBeNull();
    expect(parsePaneLine('pm_a_b\t%1\tnot-a-pid\tbash\t/\t80\t24')).toBeNull();
    expect(parsePaneLine('pm_a_b\t12\t1\tbash\t/\t80\t24')).toBeNull();
    expect(parsePaneLine('pm_a_b\t%1\t1\tbash')).toBeNull();
  });

  it('reads tmux versions and knows which are too old', () => {
    expect(parseTmuxVersion('tmux 3.3a\n')).toEqual({ major: 3, minor: 3 });
    expect(parseTmuxVersion('tmux next-3.5')).toEqual({ major: 3, minor: 5 });
    expect(parseTmuxVersion('tmux master')).toBeNull();
    expect(tmuxIsRecentEnough({ major: 3, minor: 0 })).toBe(true);
    expect(tmuxIsRecentEnough({ major: 2, minor: 9 })).toBe(false);
    expect(tmuxIsRecentEnough({ major: 4, minor: 0 })).toBe(true);
  });
});

describe('tmux config', () => {
  const conf = tmuxConfig({ defaultShell: "/bin/we'ird sh" });
  it('turns off the chrome the browser draws and keeps titles on', () => {
    expect(conf).toContain('set -g status off');
    expect(conf).toContain('set -g prefix None');
    expect(conf).toContain('set -g mouse on');
    expect(conf).toContain('set -g set-titles on');
    expect(conf).toContain("set -g set-titles-string '#{pane_current_command}|#{pane_current_path}'");
    expect(conf).toContain('set -g focus-events on');
    expect(conf).toMatch(/history-limit \d{5,}/);
  });
  it('quotes the default shell for tmux', () => {
    expect(conf).toContain(`set -g default-shell '/bin/we'\\''ird sh'`);
  });
});
