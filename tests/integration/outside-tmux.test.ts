import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSocket, type OutsidePane, OutsideTmux, outsideCommands, isPaneId, PaneUnreachableError, parseTmuxEnv } from '../../agent/outside/outside-tmux.js';
import { eventually } from '../support/eventually.js';
import { bareTmuxEnv, TmuxServer } from '../support/tmux-server.js';

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

describe('outsideCommands', () => {
  const target = { socketPath: '/tmp/tmux-1000/default', serverPid: 4242, pane: '%7' };

  it('runs every command on the pane\'s own server', () => {
    expect(outsideCommands.base(target)).toEqual(['-u', '-S', '/tmp/tmux-1000/default']);
    // The pane, its server's pid and its process: a restarted server numbers its panes afresh.
    expect(outsideCommands.exists(target)).toEqual(['-u', '-S', '/tmp/tmux-1000/default', 'display-message', '-p', '-t', '%7', '#{pane_id} #{pid} #{pane_pid}']);
    expect(outsideCommands.capture(target)).toEqual(['-u', '-S', '/tmp/tmux-1000/default', 'capture-pane', '-p', '-t', '%7']);
    expect(outsideCommands.redrawClient(target, '/dev/pts/3')).toEqual(['-u', '-S', '/tmp/tmux-1000/default', 'refresh-client', '-t', '/dev/pts/3']);
  });

  it('attaches by selecting the pane, then attaching to its session, in UTF-8, never starting a server', () => {
    expect(outsideCommands.attach(target)).toEqual(['-N', '-u', '-S', '/tmp/tmux-1000/default', 'select-pane', '-t', '%7', ';', 'attach-session', '-t', '%7']);
    expect(outsideCommands.attach(target, true)).toEqual(outsideCommands.attach(target));
    // A tmux older than 3.2 has no -N: left out.
    expect(outsideCommands.attach(target, false)).toEqual(['-u', '-S', '/tmp/tmux-1000/default', 'select-pane', '-t', '%7', ';', 'attach-session', '-t', '%7']);
  });

  it('gives the attach arguments for the tmux it runs: -N only where the tmux takes it', () => {
    expect(new OutsideTmux('tmux', {}).attachArgs(target)).toEqual(outsideCommands.attach(target, true));
    expect(new OutsideTmux('tmux', {}, true).attachArgs(target)).toContain('-N');
    expect(new OutsideTmux('tmux', {}, false).attachArgs(target)).not.toContain('-N');
    expect(new OutsideTmux('tmux', {}, false).attachArgs(target)).toEqual(outsideCommands.attach(target, false));
  });

  it('builds the input commands for a queue (no server in them: the queue adds it)', () => {
    expect(outsideCommands.leaveCopyModeCommand(target)).toEqual(['if-shell', '-F', '-t', '%7', '#{pane_in_mode}', 'send-keys -X cancel']);
    expect(outsideCommands.sendLiteralCommand(target, 'hello')).toEqual(['send-keys', '-t', '%7', '-l', '--', 'hello']);
    expect(outsideCommands.sendKeyCommand(target, 'Enter')).toEqual(['send-keys', '-t', '%7', 'Enter']);
    expect(outsideCommands.sendKeyCommand(target, 'Escape')).toEqual(['send-keys', '-t', '%7', 'Escape']);
  });

  it('passes a socket path as it is (a client option, read verbatim), and escapes a trailing semicolon in typed text', () => {
    const odd = { socketPath: '/tmp/odd;', serverPid: null, pane: '%1' };
    expect(outsideCommands.base(odd)).toEqual(['-u', '-S', '/tmp/odd;']);
    const attach = outsideCommands.attach(odd);
    expect(attach.slice(0, 4)).toEqual(['-N', '-u', '-S', '/tmp/odd;']);
    // The one bare ';' is the separator between the two commands.
    expect(attach.filter((a) => a === ';')).toHaveLength(1);
    expect(outsideCommands.exists(odd).slice(0, 3)).toEqual(['-u', '-S', '/tmp/odd;']);
    expect(outsideCommands.capture(odd).slice(0, 3)).toEqual(['-u', '-S', '/tmp/odd;']);
    // A command argument is split at a trailing ';' by tmux: typed text is escaped.
    expect(outsideCommands.sendLiteralCommand(odd, 'ls;')).toEqual(['send-keys', '-t', '%1', '-l', '--', 'ls\\;']);
  });
});

describe('checkSocket', () => {
  let dir: string;
  let server: Server | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pocketmux-outside-'));
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

/** The person's tmux, standing in, with the panes these tests need. */
class TestServer extends TmuxServer {
  constructor(
    readonly socketPath: string,
    home: string,
  ) {
    super({ socketPath }, bareTmuxEnv(home));
  }

  /** Starts the server with one pane running /bin/sh: that pane as a claude's hooks would name it. */
  async start(): Promise<OutsidePane> {
    await this.run('-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', '24', '/bin/sh');
    const [serverPid, pane] = (await this.run('display', '-p', '#{pid}\t#{pane_id}')).trim().split('\t');
    return { socketPath: this.socketPath, serverPid: Number(serverPid), pane: pane as string };
  }

  async panePid(pane: string): Promise<number> {
    return Number((await this.run('display', '-p', '-t', pane, '#{pane_pid}')).trim());
  }

}

describe('OutsideTmux', () => {
  const outsideTmux = new OutsideTmux('tmux', { PATH: process.env.PATH });
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pocketmux-outside-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds no pane behind a missing path or a regular file, and refuses to type or capture there', async () => {
    const file = join(dir, 'file');
    writeFileSync(file, '');
    for (const socketPath of [file, join(dir, 'missing')]) {
      const target = { socketPath, serverPid: null, pane: '%0' };
      expect(await outsideTmux.paneExists(target)).toBe(false);
      expect(await outsideTmux.panePid(target)).toBeNull();
      await expect(outsideTmux.capture(target)).rejects.toThrow(PaneUnreachableError);
      await expect(outsideTmux.type(target, 'x', true)).rejects.toThrow(PaneUnreachableError);
      await expect(outsideTmux.sendKey(target, 'Enter')).rejects.toThrow(PaneUnreachableError);
      await expect(outsideTmux.leaveCopyMode(target)).rejects.toThrow(PaneUnreachableError);
    }
  });

  it('finds no pane on a socket no tmux server answers', async () => {
    const path = join(dir, 'sock');
    const server = createServer((c) => c.destroy());
    await new Promise<void>((resolve) => server.listen(path, () => resolve()));
    try {
      expect(await outsideTmux.paneExists({ socketPath: path, serverPid: null, pane: '%0' })).toBe(false);
      expect(await outsideTmux.panePid({ socketPath: path, serverPid: null, pane: '%0' })).toBeNull();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  describe('on real tmux servers of its own', () => {
    let home: string;
    const servers: TestServer[] = [];
    const server = (name: string) => {
      const s = new TestServer(join(home, name), home);
      servers.push(s);
      return s;
    };
    const lines = async (target: OutsidePane) => (await outsideTmux.capture(target)).split('\n').map((l) => l.trim());
    const showsLine = (target: OutsidePane, line: string) => eventually(async () => (await lines(target)).includes(line), 10_000, `"${line}" in ${target.socketPath}`);
    /**
     * A server just started: its shell's prompt (`$ `, or `# ` as root), before anything is typed. Keys typed while the
     * shell was still starting were lost now and then on a busy CI machine (the echo never came).
     */
    const shellReady = (target: OutsidePane) => eventually(async () => (await lines(target)).some((l) => l !== ''), 10_000, `a prompt in ${target.socketPath}`);

    beforeEach(() => {
      home = mkdtempSync(join(tmpdir(), 'pocketmux-outside-srv-'));
    });
    afterEach(async () => {
      for (const s of servers.splice(0)) await s.stop();
      rmSync(home, { recursive: true, force: true });
    });

    it('sees the pane and its process, types into it (leaving copy-mode first) and captures what it shows', async () => {
      const tmux = server('sock');
      const target = await tmux.start();
      expect(await outsideTmux.paneExists(target)).toBe(true);
      expect(await outsideTmux.panePid(target)).toBe(await tmux.panePid(target.pane));
      expect(await outsideTmux.paneExists({ ...target, pane: '%999' })).toBe(false);
      expect(await outsideTmux.panePid({ ...target, pane: '%999' })).toBeNull();
      await tmux.run('copy-mode', '-t', target.pane);
      expect((await tmux.run('display', '-p', '-t', target.pane, '#{pane_in_mode}')).trim()).toBe('1');
      const marker = `unit-${randomBytes(3).toString('hex')}`;
      await outsideTmux.type(target, `echo ${marker}-$((6*7))`, true);
      expect((await tmux.run('display', '-p', '-t', target.pane, '#{pane_in_mode}')).trim()).toBe('0');
      await showsLine(target, `${marker}-42`);
      // A trailing ';' is typed, not taken as tmux's separator.
      await outsideTmux.type(target, `echo ${marker}-semi;`, true);
      await showsLine(target, `${marker}-semi`);
    });

    it('does not take the pane of a server started again on the same socket for the one it knew', async () => {
      const tmux = server('sock');
      const before = await tmux.start();
      await tmux.run('kill-server');
      await eventually(async () => !(await outsideTmux.paneExists(before)), 10_000, 'the first server to be gone');
      const after = await tmux.start();
      // The new server numbers its panes afresh: the same id, another pane.
      expect(after.pane).toBe(before.pane);
      expect(after.serverPid).not.toBe(before.serverPid);
      expect(await outsideTmux.panePid(before)).toBeNull();
      expect(await outsideTmux.paneExists(before)).toBe(false);
      expect(await outsideTmux.panePid(after)).toBe(await tmux.panePid(after.pane));
      // Where the server's pid was not known, the pane id is all there is to go by.
      expect(await outsideTmux.panePid({ ...before, serverPid: null })).toBe(await tmux.panePid(after.pane));
    });

    it('reaches a server whose socket path ends in ";"', async () => {
      const tmux = server('odd;');
      const target = await tmux.start();
      expect(target.socketPath.endsWith('/odd;')).toBe(true);
      expect(await outsideTmux.paneExists(target)).toBe(true);
      await shellReady(target);
      const marker = `odd-${randomBytes(3).toString('hex')}`;
      await outsideTmux.type(target, `echo ${marker}-$((2*5))`, true);
      await showsLine(target, `${marker}-10`);
    });

    it('keeps the input for panes of the same id on two servers apart', async () => {
      const [a, b] = [await server('a').start(), await server('b').start()];
      expect(a.pane).toBe(b.pane);
      await Promise.all([shellReady(a), shellReady(b)]);
      const [ma, mb] = [`on-a-${randomBytes(3).toString('hex')}`, `on-b-${randomBytes(3).toString('hex')}`];
      await Promise.all([outsideTmux.type(a, `echo ${ma}-$((1+1))`, true), outsideTmux.type(b, `echo ${mb}-$((2+2))`, true)]);
      await showsLine(a, `${ma}-2`);
      await showsLine(b, `${mb}-4`);
      expect((await outsideTmux.capture(a)).includes(mb)).toBe(false);
      expect((await outsideTmux.capture(b)).includes(ma)).toBe(false);
    });

    it('attaches with arguments that never start a server on a socket where none runs', async () => {
      const socketPath = join(home, 'nobody-here');
      const run = new Promise<number | null>((resolve) => {
        execFile(outsideTmux.bin, outsideTmux.attachArgs({ socketPath, serverPid: null, pane: '%0' }), { env: { PATH: process.env.PATH, HOME: home, TERM: 'xterm-256color' }, timeout: 5_000 }, (err) =>
          resolve(err ? ((err as { code?: number }).code ?? -1) : 0),
        );
      });
      expect(await run).not.toBe(0);
      expect(existsSync(socketPath)).toBe(false);
    });

    it('finds no pane once its server is gone', async () => {
      const tmux = server('sock');
      const target = await tmux.start();
      await tmux.run('kill-server');
      await eventually(async () => !(await outsideTmux.paneExists(target)), 10_000, 'the pane to be gone');
      expect(await outsideTmux.panePid(target)).toBeNull();
    });
  });
});
