import { describe, expect, it } from 'vitest';
import {
  chainCommands,
  chunkUtf8,
  commandBytes,
  deleteBufferCommand,
  formatLiteral,
  PANE_ACTIVITY_FORMAT,
  PASTE_BUFFER_PREFIX,
  PASTE_PIECE_UNITS,
  pastePieces,
  paneListFormat,
  parsePaneActivity,
  parsePaneListing,
  parseSessionName,
  parseTmuxVersion,
  sessionNameFor,
  setBufferCommand,
  TEXT_CHUNK_BYTES,
  TMUX_COMMAND_BUDGET_BYTES,
  TmuxArgumentError,
  TmuxCommands,
  tmuxArg,
  tmuxIsRecentEnough,
} from '../../../../agent/tmux/commands.js';
import { HISTORY_LIMIT_LINES, printable, tmuxConfig } from '../../../../agent/tmux/config-file.js';

const cmds = new TmuxCommands('pocketmux', '/data/tmux.conf');
const BASE = ['-u', '-L', 'pocketmux', '-f', '/data/tmux.conf'];

describe('tmux command builder', () => {
  it('always names our own socket and config file', () => {
    for (const args of [
      cmds.listSessions(),
      cmds.listPanes('n0nce'),
      cmds.hasSession('s'),
      cmds.killSession('s'),
      cmds.killServer(),
      cmds.display('s', '#{pane_in_mode}'),
      cmds.chain([cmds.leaveCopyModeCommand('s')]),
      cmds.sourceConfig(),
    ]) {
      expect(args.slice(0, 5)).toEqual(BASE);
    }
  });

  it('targets sessions by exact name, never by prefix', () => {
    expect(cmds.hasSession('pm_ws-a_tb-b')).toEqual([...BASE, 'has-session', '-t', '=pm_ws-a_tb-b']);
    expect(cmds.killSession('pm_ws-a_tb-b')).toEqual([...BASE, 'kill-session', '-t', '=pm_ws-a_tb-b']);
    expect(cmds.display('x', '#{window_width}')).toEqual([...BASE, 'display-message', '-p', '-t', '=x:', '#{window_width}']);
  });

  it('attaches in UTF-8 mode', () => {
    expect(cmds.attach('pm_a_b')).toEqual([...BASE, 'attach-session', '-t', '=pm_a_b']);
  });

  it('redraws one client named by its tty, and nothing that is not a device path', () => {
    expect(cmds.redrawClient('/dev/pts/7')).toEqual([...BASE, 'refresh-client', '-t', '/dev/pts/7']);
    expect(cmds.redrawClient('/dev/ttys003')).toEqual([...BASE, 'refresh-client', '-t', '/dev/ttys003']);
    for (const bad of ['', 'pts/7', '/dev/pts/7;', '/dev/pts/7 ', '/dev/pts/#{pid}', '/dev/../etc/x', '=pm_a_b', '/tmp/x']) {
      expect(() => cmds.redrawClient(bad), bad).toThrow(TmuxArgumentError);
    }
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

  it('parses pane listings, whatever the names and paths hold', () => {
    const nonce = 'a1b2c3d4e5f60718';
    const format = paneListFormat(nonce);
    const FS = `\x1f${nonce}`;
    const END = `\x1e${nonce}\n`;
    expect(format.split(FS)).toHaveLength(7);
    expect(format.endsWith(`\x1e${nonce}`)).toBe(true);
    // A path with a tab, a newline and what looks like a whole second pane record.
    const hostile = '/home/me/a\tb\nfake\t%9\t1\tsh\t/\t80\t24\n';
    const output = `pm_a_b${FS}%12${FS}1234${FS}vim${FS}/home/me/my proj${FS}120${FS}40${END}pm_c_d${FS}%13${FS}99${FS}ba\tsh${FS}${hostile}${FS}80${FS}24${END}`;
    expect(parsePaneListing(output, nonce)).toEqual([
      { session: 'pm_a_b', paneId: '%12', panePid: 1234, command: 'vim', path: '/home/me/my proj', width: 120, height: 40 },
      { session: 'pm_c_d', paneId: '%13', panePid: 99, command: 'ba\tsh', path: hostile, width: 80, height: 24 },
    ]);
    expect(parsePaneListing('', nonce)).toEqual([]);
    expect(parsePaneListing(`pm_a_b${FS}%1${FS}not-a-pid${FS}bash${FS}/${FS}80${FS}24${END}`, nonce)).toEqual([]);
    expect(parsePaneListing(`pm_a_b${FS}12${FS}1${FS}bash${FS}/${FS}80${FS}24${END}`, nonce)).toEqual([]);
    expect(parsePaneListing(`pm_a_b${FS}%1${FS}1${FS}bash${END}`, nonce)).toEqual([]);
    expect(parsePaneListing(`pm_a_b${FS}%1${FS}12abc${FS}bash${FS}/${FS}80${FS}24${END}`, nonce)).toEqual([]);
    // A garbled size reads as 0 (unknown), never as a part of it or as Infinity (found by property).
    const sizes = (width: string, height: string) => parsePaneListing(`pm_a_b${FS}%1${FS}7${FS}bash${FS}/${FS}${width}${FS}${height}${END}`, nonce)[0];
    expect(sizes('1'.repeat(400), '24x')).toMatchObject({ width: 0, height: 0 });
    expect(sizes('', '-3')).toMatchObject({ width: 0, height: 0 });
    // A listing made with another nonce is not read as fields.
    expect(parsePaneListing(output, 'ffffffffffffffff')).toEqual([]);
  });

  it('keeps a trailing semicolon literal and refuses NUL in every argument', () => {
    expect(tmuxArg('ls;')).toBe('ls\\;');
    expect(tmuxArg('a\\;')).toBe('a\\\\;');
    expect(tmuxArg('a;b')).toBe('a;b');
    expect(tmuxArg(';')).toBe('\\;');
    expect(tmuxArg('-rf')).toBe('-rf');
    expect(() => tmuxArg('a\0b')).toThrow(TmuxArgumentError);
    expect(cmds.sendLiteralCommand('s', 'echo hi;')).toEqual(['send-keys', '-t', '=s:', '-l', '--', 'echo hi\\;']);
  });

  it('doubles # in the arguments tmux expands as formats', () => {
    expect(formatLiteral('job#(touch x)#{pane_id}')).toBe('job##(touch x)##{pane_id}');
    const args = cmds.newSession({ name: 'pm_a_b', cwd: '/src/job#(touch x);', env: { X: 'v;' }, command: "claude 'a#b'" });
    expect(args).toContain('/src/job##(touch x)\\;');
    expect(args).toContain('X=v\\;');
    // The shell command is not a format: left as it is.
    expect(args.at(-1)).toBe("claude 'a#b'");
  });

  it('types text as literal keys after leaving copy-mode, in commands that chain', () => {
    expect(cmds.leaveCopyModeCommand('pm_a_b')).toEqual(['if-shell', '-F', '-t', '=pm_a_b:', '#{pane_in_mode}', 'send-keys -X cancel']);
    expect(chainCommands([['a', '1'], ['b'], ['c', '2']])).toEqual(['a', '1', ';', 'b', ';', 'c', '2']);
    expect(cmds.chain([['send-keys', 'x']])).toEqual([...BASE, 'send-keys', 'x']);
    expect(commandBytes(['ab', 'é'])).toBe(3 + 3);
  });

  it('splits long text on character boundaries within the byte budget', () => {
    const text = `${'a'.repeat(TEXT_CHUNK_BYTES - 1)}é${'日本'.repeat(3000)}🙂x`;
    const chunks = chunkUtf8(text);
    expect(chunks.join('')).toBe(text);
    for (const chunk of chunks) {
      expect(Buffer.byteLength(chunk)).toBeLessThanOrEqual(TEXT_CHUNK_BYTES);
      expect(chunk).not.toContain('\ufffd');
    }
    expect(chunks[0]).toBe('a'.repeat(TEXT_CHUNK_BYTES - 1));
    expect(chunkUtf8('')).toEqual([]);
    expect(commandBytes(cmds.sendLiteralCommand('pm_a_b', chunks[1] as string))).toBeLessThan(TMUX_COMMAND_BUDGET_BYTES);
  });

  it('cuts text to submit into pastes of one line each, within the piece size, line breaks between', () => {
    expect(pastePieces('')).toEqual([]);
    expect(pastePieces('hello')).toEqual(['hello']);
    expect(pastePieces('one\ntwo\r\nthree\rfour')).toEqual(['one', '\n', 'two', '\n', 'three', '\n', 'four']);
    // Empty lines, and a line break at either end, are line breaks with no paste.
    expect(pastePieces('\na\n\n\nb\n')).toEqual(['\n', 'a', '\n', '\n', '\n', 'b', '\n']);
    const long = 'abcdefghij'.repeat(2 * PASTE_PIECE_UNITS);
    const pieces = pastePieces(long);
    expect(pieces.join('')).toBe(long);
    expect(pieces).toHaveLength(20);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(PASTE_PIECE_UNITS);
    // Claude Code folds a paste over 800 characters; a pasted tab becomes 4 spaces.
    expect(PASTE_PIECE_UNITS * 4).toBeLessThanOrEqual(800);
  });

  it('never cuts a piece between the halves of a surrogate pair', () => {
    const text = `${'a'.repeat(PASTE_PIECE_UNITS - 1)}🙂${'🙂'.repeat(300)}日本`;
    const pieces = pastePieces(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces[0]).toBe('a'.repeat(PASTE_PIECE_UNITS - 1));
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(PASTE_PIECE_UNITS);
      expect(piece).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    }
    expect(pastePieces('🙂🙂', 1)).toEqual(['🙂', '🙂']);
  });

  it('fills, pastes and deletes a named buffer, the text after -- and a trailing ; escaped', () => {
    expect(setBufferCommand('pocketmux-paste-ab12', 'echo hi;')).toEqual(['set-buffer', '-b', 'pocketmux-paste-ab12', '--', 'echo hi\\;']);
    expect(setBufferCommand('b', '-x')).toEqual(['set-buffer', '-b', 'b', '--', '-x']);
    expect(() => setBufferCommand('b', 'a\0b')).toThrow(TmuxArgumentError);
    expect(deleteBufferCommand('pocketmux-paste-ab12')).toEqual(['delete-buffer', '-b', 'pocketmux-paste-ab12']);
    // -d: the paste deletes the buffer; -p: bracketed when the program asked; -r: text as it is.
    expect(cmds.pasteBufferCommand('pm_a_b', 'pocketmux-paste-ab12')).toEqual(['paste-buffer', '-d', '-p', '-r', '-b', 'pocketmux-paste-ab12', '-t', '=pm_a_b:']);
    expect(PASTE_BUFFER_PREFIX).toBe('pocketmux-paste-');
  });

  it('submits text as pastes through one buffer, C-j for each line break, then Enter once', () => {
    const buffer = 'pocketmux-paste-0011';
    expect(cmds.submitCommands('pm_a_b', 'first line\nls;', buffer)).toEqual([
      ['set-buffer', '-b', buffer, '--', 'first line'],
      ['paste-buffer', '-d', '-p', '-r', '-b', buffer, '-t', '=pm_a_b:'],
      ['send-keys', '-t', '=pm_a_b:', 'C-j'],
      ['set-buffer', '-b', buffer, '--', 'ls\\;'],
      ['paste-buffer', '-d', '-p', '-r', '-b', buffer, '-t', '=pm_a_b:'],
      ['send-keys', '-t', '=pm_a_b:', 'Enter'],
    ]);
    // The largest text a request takes, in the widest characters: every command within one run's budget.
    const widest = '🙂'.repeat(32 * 1024);
    const commands = cmds.submitCommands('pm_a_b', widest, buffer);
    for (const command of commands) expect(commandBytes(command)).toBeLessThan(TMUX_COMMAND_BUDGET_BYTES);
    expect(commands.filter((c) => c[0] === 'send-keys')).toEqual([['send-keys', '-t', '=pm_a_b:', 'Enter']]);
    expect(
      commands
        .filter((c) => c[0] === 'set-buffer')
        .map((c) => c.at(-1))
        .join(''),
    ).toBe(widest);
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
    expect(conf).toContain(`set -g set-titles-string '${printable('pane_current_command')}|${printable('pane_current_path')}'`);
    // One line each: no control character of the title's pattern breaks the file.
    expect(conf.split('\n').filter((l) => l.includes('set-titles-string'))).toHaveLength(1);
    expect(conf).toContain('set -g focus-events on');
    expect(conf).toMatch(/history-limit \d{5,}/);
  });
  it('quotes the default shell for tmux', () => {
    expect(conf).toContain(`set -g default-shell '/bin/we'\\''ird sh'`);
  });
});

describe('the capture commands', () => {
  it("read a tab's pane on our own server: history and screen, wrapped lines joined, with colours", () => {
    const cmds = new TmuxCommands('pocketmux', '/data/tmux.conf');
    expect(cmds.captureHistory('pm_ws-a_tb-b', HISTORY_LIMIT_LINES)).toEqual([
      '-u',
      '-L',
      'pocketmux',
      '-f',
      '/data/tmux.conf',
      'capture-pane',
      '-p',
      '-e',
      '-J',
      '-S',
      '-50000',
      '-t',
      '=pm_ws-a_tb-b:',
    ]);
    // As far back as the server keeps: all of it.
    expect(tmuxConfig({ defaultShell: '/bin/sh' })).toContain(`set -g history-limit ${HISTORY_LIMIT_LINES}\n`);
  });
});

describe('when the panes were last written to', () => {
  it("asks the agent's server for every pane's id and its window's activity, and nothing a person named", () => {
    expect(cmds.paneActivity()).toEqual([...BASE, 'list-panes', '-a', '-F', PANE_ACTIVITY_FORMAT]);
    expect(PANE_ACTIVITY_FORMAT).not.toMatch(/session_name|window_name|pane_title|path|command/);
  });

  it('reads each line of ids and numbers, and skips any other', () => {
    const output = ['%0 1 1796212060', '%12 0 1796212099', '%3 1 17x6', 'pm_a_b 1 1796212060', '%4 1 1796212060 extra', '%5 2 1796212060', '', '%6 1 1796212061'].join('\n');
    expect(parsePaneActivity(output)).toEqual([
      { paneId: '%0', current: true, writtenAt: 1796212060 },
      { paneId: '%12', current: false, writtenAt: 1796212099 },
      { paneId: '%6', current: true, writtenAt: 1796212061 },
    ]);
    expect(parsePaneActivity(`%1 1 ${'9'.repeat(400)}`)).toEqual([]);
  });
});
