import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkSocket, ForeignTmux, foreignCommands, isPaneId, PaneUnreachableError, parseTmuxEnv } from '../../agent/outside/foreign-tmux.js';
import { eventually } from '../support/client.js';

describe('parseTmuxEnv', () => {
  it('reads the socket path and server pid of a normal $TMUX', () => {
    expect(parseTmuxEnv('/tmp/tmux-1000/default,12345,0')).toEqual({ socketPath: '/tmp/tmux-1000/default', serverPid: 12345 });
    // The session index may be -1 (a client not attached to a session yet).
    expect(parseTmuxEnv('/tmp/tmux-1000/default,7,-1')).toEqual({ socketPath: '/tmp/tmux-1000/default', serverPid: 7 });
  });

  it('keeps commas in the path: the two numbers are taken from the right', () => {
    expect(parseTmuxEnv('/tmp/a,b/c,d,42,3')).toEqual({ socketPath: '/tmp/a,b/c,d', serverPid: 42 });
    expect(parseTmuxEnv('/tmp/x,1,2,99,0')).toEqual({ socketPath: '/tmp/x,1,2', serverPid: 99 });
  });

  it('refuses a relative path', () => {
    expect(parseTmuxEnv('tmux-1000/default,12345,0')).toBeNull();
    expect(parseTmuxEnv('./default,12345,0')).toBeNull();
    expect(parseTmuxEnv('~/default,12345,0')).toBeNull();
  });

  it('refuses control characters anywhere in the path', () => {
    for (const c of ['\n', '\r', '\t', '\u0000', '\u001b', '\u007f', '\u009b']) {
      expect(parseTmuxEnv(`/tmp/a${c}b,1,0`), JSON.stringify(c)).toBeNull();
    }
    // A newline cannot smuggle a second value past the anchors either.
    expect(parseTmuxEnv('/tmp/a,1,0\n/tmp/b,2,0')).toBeNull();
  });

  it('refuses a value with fields missing or malformed', () => {
    for (const value of [undefined, '', '/tmp/s', '/tmp/s,1', '/tmp/s,,0', '/tmp/s,1,', ',1,0', '/tmp/s,x,0', '/tmp/s,1,y', '/tmp/s,-1,0', '/tmp/s,12345678901,0']) {
      expect(parseTmuxEnv(value), String(value)).toBeNull();
    }
  });

  it('refuses a path longer than any socket path can be', () => {
    const long = `/${'a'.repeat(1023)}`;
    expect(parseTmuxEnv(`${long},1,0`)).toEqual({ socketPath: long, serverPid: 1 });
    expect(parseTmuxEnv(`/${'a'.repeat(1024)},1,0`)).toBeNull();
  });
});

describe('isPaneId', () => {
  it('accepts %N only', () => {
    for (const ok of ['%0', '%1', '%123456789']) expect(isPaneId(ok), ok).toBe(true);
    for (const bad of [undefined, '', '%', '1', '%1234567890', '%-1', '%1 ', ' %1', '%1\n', '%a', '%1;', 'session:0.1', '%1%2']) {
      expect(isPaneId(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('foreignCommands', () => {
  const target = { socketPath: '/tmp/tmux-1000/default', pane: '%7' };

  it('runs every command on the pane\'s own server', () => {
    expect(foreignCommands.base(target)).toEqual(['-S', '/tmp/tmux-1000/default']);
    expect(foreignCommands.exists(target)).toEqual(['-S', '/tmp/tmux-1000/default', 'display-message', '-p', '-t', '%7', '#{pane_id}']);
    expect(foreignCommands.capture(target)).toEqual(['-S', '/tmp/tmux-1000/default', 'capture-pane', '-p', '-t', '%7']);
  });

  it('attaches by selecting the pane, then attaching to its session, in UTF-8', () => {
    expect(foreignCommands.attach(target)).toEqual(['-u', '-S', '/tmp/tmux-1000/default', 'select-pane', '-t', '%7', ';', 'attach-session', '-t', '%7']);
  });

  it('builds the input commands for a queue (no server in them: the queue adds it)', () => {
    expect(foreignCommands.leaveCopyModeCommand(target)).toEqual(['if-shell', '-F', '-t', '%7', '#{pane_in_mode}', 'send-keys -X cancel']);
    expect(foreignCommands.sendLiteralCommand(target, 'hello')).toEqual(['send-keys', '-t', '%7', '-l', '--', 'hello']);
    expect(foreignCommands.sendKeyCommand(target, 'Enter')).toEqual(['send-keys', '-t', '%7', 'Enter']);
    expect(foreignCommands.sendKeyCommand(target, 'Escape')).toEqual(['send-keys', '-t', '%7', 'Escape']);
  });

  it('escapes a trailing semicolon, in a socket path as in typed text, so tmux does not split there', () => {
    const odd = { socketPath: '/tmp/odd;', pane: '%1' };
    expect(foreignCommands.base(odd)).toEqual(['-S', '/tmp/odd\\;']);
    const attach = foreignCommands.attach(odd);
    expect(attach.slice(0, 3)).toEqual(['-u', '-S', '/tmp/odd\\;']);
    // The one bare ';' is the separator between the two commands.
    expect(attach.filter((a) => a === ';')).toHaveLength(1);
    expect(foreignCommands.exists(odd).slice(0, 2)).toEqual(['-S', '/tmp/odd\\;']);
    expect(foreignCommands.capture(odd).slice(0, 2)).toEqual(['-S', '/tmp/odd\\;']);
    expect(foreignCommands.sendLiteralCommand(odd, 'ls;')).toEqual(['send-keys', '-t', '%1', '-l', '--', 'ls\\;']);
  });
});

describe('checkSocket', () => {
  let dir: string;
  let server: Server | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pocketmux-foreign-'));
  });
  afterEach(async () => {
    if (server) await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = null;
    rmSync(dir, { recursive: true, force: true });
  });

  async function listen(path: string): Promise<void> {
    server = createServer();
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject);
      server?.listen(path, () => resolve());
    });
  }

  it('accepts a unix socket owned by this user', async () => {
    const path = join(dir, 'sock');
    await listen(path);
    expect(() => checkSocket(path)).not.toThrow();
    expect(() => checkSocket(path, process.getuid?.())).not.toThrow();
  });

  it('refuses a regular file', () => {
    const path = join(dir, 'file');
    writeFileSync(path, 'not a socket');
    expect(() => checkSocket(path)).toThrow(PaneUnreachableError);
    expect(() => checkSocket(path)).toThrow(/not a socket/);
  });

  it('refuses a directory', () => {
    expect(() => checkSocket(dir)).toThrow(PaneUnreachableError);
  });

  it('refuses a missing path', () => {
    expect(() => checkSocket(join(dir, 'nothing-here'))).toThrow(PaneUnreachableError);
    expect(() => checkSocket(join(dir, 'nothing-here'))).toThrow(/gone/);
  });

  it('refuses a socket owned by another user', async () => {
    const path = join(dir, 'sock');
    await listen(path);
    const other = (process.getuid?.() ?? 0) + 1;
    expect(() => checkSocket(path, other)).toThrow(PaneUnreachableError);
    expect(() => checkSocket(path, other)).toThrow(/another user/);
  });
});

describe('ForeignTmux', () => {
  const foreign = new ForeignTmux('tmux', { PATH: process.env.PATH });
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pocketmux-foreign-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds no pane behind a missing path or a regular file, and refuses to type or capture there', async () => {
    const file = join(dir, 'file');
    writeFileSync(file, '');
    for (const socketPath of [file, join(dir, 'missing')]) {
      const target = { socketPath, pane: '%0' };
      expect(await foreign.paneExists(target)).toBe(false);
      await expect(foreign.capture(target)).rejects.toThrow(PaneUnreachableError);
      await expect(foreign.type(target, 'x', true)).rejects.toThrow(PaneUnreachableError);
      await expect(foreign.sendKey(target, 'Enter')).rejects.toThrow(PaneUnreachableError);
      await expect(foreign.leaveCopyMode(target)).rejects.toThrow(PaneUnreachableError);
    }
  });

  it('finds no pane on a socket no tmux server answers', async () => {
    const path = join(dir, 'sock');
    const server = createServer((c) => c.destroy());
    await new Promise<void>((resolve) => server.listen(path, () => resolve()));
    try {
      expect(await foreign.paneExists({ socketPath: path, pane: '%0' })).toBe(false);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  describe('on a real tmux server of its own', () => {
    const name = `pmx-foreign-unit-${randomBytes(4).toString('hex')}`;
    let home: string;
    let target: { socketPath: string; pane: string };
    const tmux = (...args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile('tmux', ['-L', name, ...args], { env: { PATH: process.env.PATH, HOME: home, SHELL: '/bin/sh', TERM: 'xterm-256color', LANG: 'C.UTF-8' }, timeout: 5_000 }, (err, out, stderr) =>
          err ? reject(new Error(`tmux ${args.join(' ')}: ${stderr || err.message}`)) : resolve(out),
        ),
      );

    beforeAll(async () => {
      home = mkdtempSync(join(tmpdir(), 'pocketmux-foreign-home-'));
      await tmux('-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', '24', '/bin/sh');
      const [socketPath, pane] = (await tmux('display', '-p', '#{socket_path}\t#{pane_id}')).trim().split('\t');
      target = { socketPath: socketPath as string, pane: pane as string };
    });
    afterAll(async () => {
      await tmux('kill-server').catch(() => undefined);
      if (target) rmSync(target.socketPath, { force: true });
      rmSync(home, { recursive: true, force: true });
    });

    it('sees the pane, types into it (leaving copy-mode first) and captures what it shows', async () => {
      expect(await foreign.paneExists(target)).toBe(true);
      expect(await foreign.paneExists({ ...target, pane: '%999' })).toBe(false);
      await tmux('copy-mode', '-t', target.pane);
      expect((await tmux('display', '-p', '-t', target.pane, '#{pane_in_mode}')).trim()).toBe('1');
      const marker = `unit-${randomBytes(3).toString('hex')}`;
      await foreign.type(target, `echo ${marker}-$((6*7))`, true);
      expect((await tmux('display', '-p', '-t', target.pane, '#{pane_in_mode}')).trim()).toBe('0');
      await eventually(async () => (await foreign.capture(target)).split('\n').some((l) => l.trim() === `${marker}-42`), 10_000, 'the typed command\'s output');
      // A trailing ';' is typed, not taken as tmux's separator.
      await foreign.type(target, `echo ${marker}-semi;`, true);
      await eventually(async () => (await foreign.capture(target)).split('\n').some((l) => l.trim() === `${marker}-semi`), 10_000, 'the output of a line ending in ;');
      foreign.release(target);
    });

    it('finds no pane once its server is gone', async () => {
      const socketPath = target.socketPath;
      await tmux('kill-server');
      await eventually(async () => !(await foreign.paneExists({ socketPath, pane: target.pane })), 10_000, 'the pane to be gone');
    });
  });
});
