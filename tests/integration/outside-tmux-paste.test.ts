/**
 * Text with Enter typed into a pane of the person's own tmux server: pasted through a buffer of
 * the call's own, bracketed when the program asked for it, then Enter; on real tmux servers of
 * the test's own, with a program in the pane that writes down every byte it receives.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OutsidePane, OutsideTmux, outsideCommands } from '../../agent/outside/outside-tmux.js';
import { eventually } from '../support/eventually.js';
import { bareTmuxEnv, TmuxServer } from '../support/tmux-server.js';

const START = '\x1b[200~';
const END = '\x1b[201~';

describe('outsideCommands for pasting', () => {
  const target = { socketPath: '/tmp/tmux-1000/default', serverPid: 4242, pane: '%7' };

  it('pastes a named buffer into the pane and deletes it, bracketed when the program asked', () => {
    expect(outsideCommands.pasteBufferCommand(target, 'pocketmux-paste-ab')).toEqual(['paste-buffer', '-d', '-p', '-r', '-b', 'pocketmux-paste-ab', '-t', '%7']);
  });

  it('submits text as pastes a line at a time, C-j between lines, then Enter once', () => {
    expect(outsideCommands.submitCommands(target, 'one\r\nls;', 'pocketmux-paste-ab')).toEqual([
      ['set-buffer', '-b', 'pocketmux-paste-ab', '--', 'one'],
      ['paste-buffer', '-d', '-p', '-r', '-b', 'pocketmux-paste-ab', '-t', '%7'],
      ['send-keys', '-t', '%7', 'C-j'],
      ['set-buffer', '-b', 'pocketmux-paste-ab', '--', 'ls\\;'],
      ['paste-buffer', '-d', '-p', '-r', '-b', 'pocketmux-paste-ab', '-t', '%7'],
      ['send-keys', '-t', '%7', 'Enter'],
    ]);
  });
});

/** The person's tmux, standing in, with the panes these tests need. */
class TestServer extends TmuxServer {
  constructor(
    readonly socketPath: string,
    home: string,
  ) {
    super({ socketPath }, bareTmuxEnv(home));
  }

  /**
   * A pane whose program writes every byte it receives to `file`, untranslated (raw mode, no
   * echo); `bracketed`: it first asks for bracketed paste, as Claude Code does.
   */
  async recorder(file: string, bracketed: boolean): Promise<OutsidePane> {
    const ask = bracketed ? "printf '\\033[?2004h'; " : '';
    const command = `${ask}printf 'ready'; stty raw -echo; exec cat > '${file}'`;
    const args = ['new-session', '-d', '-P', '-F', '#{pid} #{pane_id}', '-x', '80', '-y', '24', command];
    const out = existsSync(this.socketPath) ? await this.run(...args) : await this.run('-f', '/dev/null', ...args);
    const [serverPid, pane] = out.trim().split(' ');
    const target = { socketPath: this.socketPath, serverPid: Number(serverPid), pane: pane as string };
    // tmux reads a pane's output in order: once "ready" shows, it has seen the request for bracketed paste.
    await eventually(async () => existsSync(file) && (await this.run('capture-pane', '-p', '-t', target.pane)).includes('ready'), 10_000, 'the recorder to start');
    return target;
  }

  async buffers(): Promise<string> {
    return this.run('list-buffers', '-F', '#{buffer_name}');
  }

}

describe('OutsideTmux.type with Enter, on real tmux servers of its own', () => {
  const outsideTmux = new OutsideTmux('tmux', { PATH: process.env.PATH });
  let home: string;
  let server: TestServer;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'pocketmux-outside-paste-'));
    server = new TestServer(join(home, 'sock'), home);
  });
  afterEach(async () => {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  });

  /** What the pane's program received, once it ends with Enter (a CR in raw mode). */
  const received = (file: string) => eventually(() => (readFileSync(file, 'utf8').endsWith('\r') ? readFileSync(file, 'utf8') : null), 10_000, `Enter in ${file}`);

  it('pastes each line bracketed, with a line break between lines, then presses Enter once, and leaves no buffer', async () => {
    const file = join(home, 'bracketed.bin');
    const target = await server.recorder(file, true);
    await outsideTmux.type(target, 'first line\nsecond; line\r\n\nfourth;', true);
    const got = await received(file);
    expect(got).toBe(`${START}first line${END}\n${START}second; line${END}\n\n${START}fourth;${END}\r`);
    expect(await server.buffers()).toBe('');
  });

  it('pastes plain text to a program that did not ask for bracketed paste', async () => {
    const file = join(home, 'plain.bin');
    const target = await server.recorder(file, false);
    await outsideTmux.type(target, 'héllo 日本 🙂\nnext', true);
    expect(await received(file)).toBe('héllo 日本 🙂\nnext\r');
    expect(await server.buffers()).toBe('');
  });

  it('types literal keys, no paste, when asked for no Enter', async () => {
    const file = join(home, 'keys.bin');
    const target = await server.recorder(file, true);
    await outsideTmux.type(target, '1', false);
    await outsideTmux.type(target, '', true);
    expect(await received(file)).toBe('1\r');
  });

  it('types long text over several tmux runs, whole and once, into two panes at once without mixing them up', async () => {
    const [fileA, fileB] = [join(home, 'a.bin'), join(home, 'b.bin')];
    const a = await server.recorder(fileA, true);
    const b = await server.recorder(fileB, true);
    const line = (tag: string, i: number) => `${tag} ${i} ${'lorem ipsum dolor sit amet, 日本語 🙂 '.repeat(25)}`;
    const textA = Array.from({ length: 40 }, (_, i) => line('A', i)).join('\n');
    const textB = Array.from({ length: 40 }, (_, i) => line('B', i)).join('\n');
    expect(Buffer.byteLength(textA)).toBeGreaterThan(3 * 12 * 1024);
    await Promise.all([outsideTmux.type(a, textA, true), outsideTmux.type(b, textB, true)]);
    const [gotA, gotB] = [await received(fileA), await received(fileB)];
    // Every piece arrived bracketed, in order, once; Enter once, at the end.
    const unwrap = (got: string) => got.slice(0, -1).replaceAll(START, '').replaceAll(END, '');
    expect(unwrap(gotA)).toBe(textA);
    expect(unwrap(gotB)).toBe(textB);
    expect(gotA.split('\r')).toHaveLength(2);
    expect(gotB.split('\r')).toHaveLength(2);
    expect(await server.buffers()).toBe('');
  });

  it('deletes its buffer when a run fails after filling it, and pastes nothing of it', async () => {
    const file = join(home, 'failed.bin');
    const target = await server.recorder(file, true);
    // A tmux that runs a command line up to its first paste-buffer, then fails, as a run
    // cut short would: the buffer is filled and never pasted.
    const wrapper = join(home, 'tmux-fails-to-paste');
    writeFileSync(
      wrapper,
      `#!/usr/bin/env node
const { spawnSync } = require('node:child_process');
const args = process.argv.slice(2);
const at = args.indexOf('paste-buffer');
const run = (a) => spawnSync('tmux', a, { stdio: 'inherit' }).status ?? 1;
if (at < 0) process.exit(run(args));
run(args.slice(0, args.lastIndexOf(';', at)));
process.stderr.write('paste refused\\n');
process.exit(1);
`,
    );
    chmodSync(wrapper, 0o755);
    const failing = new OutsideTmux(wrapper, { PATH: process.env.PATH });
    await expect(failing.type(target, 'never pasted', true)).rejects.toThrow(/paste refused/);
    expect(await server.buffers()).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('');
    // The pane takes input as before.
    await outsideTmux.type(target, 'after', true);
    expect(await received(file)).toBe(`${START}after${END}\r`);
  });
});
