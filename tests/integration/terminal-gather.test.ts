/**
 * The terminal bridge's output path byte for byte: a real TerminalBridge on a real WebSocket
 * server, its pty running a program that prints a known file straight into the pty (no tmux
 * between, which would repaint rather than pass bytes through), and a real ws client that
 * stops and starts reading so that reads pile up behind frames in flight.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { type BridgeOptions, BURST_BYTES, HIGH_WATER_BYTES, REDRAW_QUIET_MS, TerminalBridge, type TerminalTarget } from '../../agent/terminal/terminal-bridge.js';
import { createLogger } from '../../agent/util/log.js';
import { decodeFrame, encodeFrame, FrameType } from '../../protocol/terminal-frame.js';
import { eventually } from '../support/eventually.js';

const root = mkdtempSync(join(tmpdir(), 'pocketmux-gather-'));
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(root, { recursive: true, force: true });
});

/** The most a single pty read yields (libuv reads into 64 KiB): a larger frame was gathered. */
const MAX_READ_BYTES = 64 * 1024;

/**
 * Random base64 with multi-byte UTF-8 characters (2, 3 and 4 bytes) strewn through it, so
 * pty reads end inside them; no line feeds, which the pty would turn into CR LF.
 */
function content(bytes: number): Buffer {
  const wide = ['é', '€', '😀', 'ж', '中'].map((c) => Buffer.from(c, 'utf8'));
  const parts: Buffer[] = [];
  let length = 0;
  let i = 0;
  while (length < bytes) {
    const text = Buffer.from(randomBytes(700 + (i % 97)).toString('base64'));
    const w = wide[i % wide.length] as Buffer;
    parts.push(text, w);
    length += text.length + w.length;
    i++;
  }
  return Buffer.concat(parts);
}

/**
 * A bridge on a WebSocket server of its own, with a pty that prints `file` once it reads a key
 * (or runs `program`, which must print R when it is ready).
 */
async function bridgeServer(
  file: string,
  program?: string,
  extra: Pick<BridgeOptions, 'typing' | 'floodQuietMs'> & { onRedraw?: (clientTty: string) => void } = {},
): Promise<{ bridge: TerminalBridge; url: string; redrawn: string[] }> {
  const redrawn: string[] = [];
  const bridge = new TerminalBridge({
    typing: extra.typing,
    floodQuietMs: extra.floodQuietMs,
    log: createLogger({ stderr: false }),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' },
    heartbeatIntervalMs: 30_000,
    heartbeatTimeoutMs: 90_000,
    maxConnections: 32,
    maxConnectionsPerDevice: 8,
  });
  const target: TerminalTarget = {
    id: 'gather',
    // Raw output (no CR LF rewriting), no echo; once set so it says R and waits for one key,
    // so the test decides when the flood starts, and stays after it, so the end of output is
    // not the end of the pty.
    spawn: { file: '/bin/sh', args: ['-c', program ?? `stty -opost -echo -icanon min 1; printf R; head -c 1 >/dev/null; cat '${file}'; exec sleep 3600`] },
    leaveCopyMode: async () => undefined,
    kill: null,
    ended: async () => true,
    // No tmux here to redraw: the test sees which client the bridge asked for.
    redraw: async (clientTty) => {
      redrawn.push(clientTty);
      extra.onRedraw?.(clientTty);
    },
  };
  const server: Server = createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => bridge.attach(ws, target, 'device', { cols: 200, rows: 50 }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    bridge.closeAll(1001, 'test over');
    wss.close();
    server.close();
  });
  return { bridge, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`, redrawn };
}

/** A client that keeps every stdout frame's payload, and the size of each. */
async function client(url: string): Promise<{ ws: WebSocket; socket: Socket; chunks: Buffer[]; sizes: number[]; received: () => number }> {
  const ws = new WebSocket(url);
  const chunks: Buffer[] = [];
  const sizes: number[] = [];
  let received = 0;
  ws.on('message', (data: Buffer) => {
    const decoded = decodeFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    if (!decoded.ok) throw new Error(decoded.error.message);
    if (decoded.frame.type !== FrameType.Stdout) return;
    chunks.push(Buffer.from(decoded.frame.data));
    sizes.push(decoded.frame.data.length);
    received += decoded.frame.data.length;
  });
  await once(ws, 'open');
  cleanups.push(() => ws.close());
  // The pty is set up once it says R; a key typed before could be echoed.
  await eventually(() => received > 0, 20_000, 'the pty to be ready');
  if (Buffer.concat(chunks).toString() !== 'R') throw new Error(`unexpected first output: ${Buffer.concat(chunks).toString()}`);
  chunks.length = 0;
  sizes.length = 0;
  received = 0;
  return { ws, socket: (ws as unknown as { _socket: Socket })._socket, chunks, sizes, received: () => received };
}

/** A cursor move, as tmux sends one at a time while it draws for a client it has fallen behind for. */
const MOVE = '\x1b[41;77H';

/**
 * A pty program that prints a 64 KB burst (large enough to be held) once a key comes, then
 * `runs` runs of `perRun` cursor moves a millisecond apart, with `gapMs` of quiet after each
 * run; the burst and what the whole output should be. One node process writes both, started
 * before the key: a process started between them would put its start-up time (which a busy
 * machine stretches past a flood's end) between the burst and the trickle.
 */
function burstThenTrickle(name: string, runs: number, perRun: number, gapMs: number): { burst: Buffer; file: string; program: string; expected: Buffer } {
  const burst = content(64 * 1024);
  const file = join(root, name);
  writeFileSync(file, burst);
  const script = join(root, `${name}.cjs`);
  writeFileSync(
    script,
    [
      "const fs = require('node:fs');",
      'const pause = new Int32Array(new SharedArrayBuffer(4));',
      // The pty's descriptors may be non-blocking: a call that would block is tried again.
      'function retry(call) { for (;;) { try { return call(); } catch (e) { if (e.code !== "EAGAIN") throw e; Atomics.wait(pause, 0, 0, 1); } } }',
      'function write(data) { for (let at = 0; at < data.length; ) at += retry(() => fs.writeSync(1, data, at)); }',
      `const burst = fs.readFileSync(${JSON.stringify(file)});`,
      "write(Buffer.from('R'));",
      'retry(() => fs.readSync(0, Buffer.alloc(1)));',
      'write(burst);',
      `for (let r = 0; r < ${runs}; r++) {`,
      `  for (let i = 0; i < ${perRun}; i++) { write(Buffer.from(${JSON.stringify(MOVE)})); Atomics.wait(pause, 0, 0, 1); }`,
      `  Atomics.wait(pause, 0, 0, ${gapMs});`,
      '}',
      'Atomics.wait(pause, 0, 0, 3600 * 1000);',
      '',
    ].join('\n'),
  );
  const program = `stty -opost -echo -icanon min 1; exec '${process.execPath}' '${script}'`;
  return { burst, file, program, expected: Buffer.concat([burst, Buffer.from(MOVE.repeat(runs * perRun))]) };
}

/** How many of the first frames it took to carry `burstLength` bytes: the frames after them carried the trickle. */
function framesOfBurst(sizes: readonly number[], burstLength: number): number {
  let frames = 0;
  for (let at = 0; at < burstLength; frames++) at += sizes[frames] ?? burstLength;
  return frames;
}

describe('terminal output gathering', () => {
  it('delivers every byte once and in order, UTF-8 intact, while reads gather behind a stalled socket and flow control pauses and resumes', async () => {
    // Large enough that the kernel's socket buffers cannot hide a stalled client.
    const expected = content(16 * 1024 * 1024);
    const file = join(root, 'flood.txt');
    writeFileSync(file, expected);
    const { bridge, url } = await bridgeServer(file);
    const c = await client(url);
    const stats = () => {
      const s = bridge.stats()[0];
      if (!s) throw new Error('no terminal');
      return s;
    };

    // The client stops reading before the flood starts, like a phone on a dead link.
    c.socket.pause();
    c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new Uint8Array([0x67]) }));
    const paused = await eventually(() => (stats().paused ? stats() : null), 60_000, 'the bridge to pause the pty');
    expect(paused.pauses).toBeGreaterThanOrEqual(1);
    // What waits for the client, on the socket and gathered, is held near the high-water mark.
    expect(paused.peakBuffered).toBeGreaterThan(HIGH_WATER_BYTES);
    expect(paused.peakBuffered).toBeLessThan(HIGH_WATER_BYTES + MAX_READ_BYTES + 1024);
    expect(paused.bytesOut).toBeLessThan(expected.length);

    // Then it reads in fits and starts: at every further megabyte it stops until the bridge
    // has read on, so reads arrive while frames are in flight all through the file.
    let nextStall = c.received() + 1024 * 1024;
    c.ws.on('message', () => {
      if (c.received() < nextStall || c.received() >= expected.length) return;
      nextStall = c.received() + 1024 * 1024;
      const before = stats().bytesOut;
      c.socket.pause();
      const wake = setInterval(() => {
        if (stats().bytesOut > before || stats().paused) {
          clearInterval(wake);
          c.socket.resume();
        }
      }, 5);
    });
    c.socket.resume();
    await eventually(() => c.received() >= expected.length, 120_000, 'the whole file');

    const got = Buffer.concat(c.chunks);
    expect(got.length).toBe(expected.length);
    // Byte for byte: nothing lost, nothing twice, nothing out of order.
    expect(got.equals(expected)).toBe(true);
    // And as text: no multi-byte character was broken where frames meet.
    expect(new TextDecoder('utf-8', { fatal: true }).decode(got)).toBe(expected.toString('utf8'));
    // Reads did gather: a frame larger than any single read reached the client.
    expect(Math.max(...c.sizes)).toBeGreaterThan(MAX_READ_BYTES);
    const after = stats();
    // The pty's R, then the file.
    expect(after.bytesOut).toBe(1 + expected.length);
    expect(after.paused).toBe(false);
    expect(after.peakBuffered).toBeLessThan(HIGH_WATER_BYTES + MAX_READ_BYTES + 1024);
  }, 180_000);

  it('sends a lone read at once, without waiting for more output', async () => {
    const small = Buffer.from('ready €😀\r\n');
    const file = join(root, 'small.txt');
    writeFileSync(file, small);
    const { bridge, url } = await bridgeServer(file);
    const c = await client(url);
    c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new Uint8Array([0x67]) }));
    await eventually(() => c.received() >= small.length, 20_000, 'the output');
    expect(Buffer.concat(c.chunks).equals(small)).toBe(true);
    expect(bridge.stats()[0]?.pauses).toBe(0);
  }, 60_000);

  it('gathers a flood read by a client that keeps up into held bursts, every byte in order, then asks for a redraw of its client', async () => {
    const expected = content(8 * 1024 * 1024);
    const file = join(root, 'burst.txt');
    writeFileSync(file, expected);
    const { bridge, url, redrawn } = await bridgeServer(file);
    const c = await client(url);
    c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new Uint8Array([0x67]) }));
    await eventually(() => c.received() >= expected.length, 120_000, 'the whole file');
    expect(Buffer.concat(c.chunks).equals(expected)).toBe(true);
    const stats = bridge.stats()[0];
    // Reads of a flood follow each other closely: reading stopped to gather them.
    expect(stats?.holds).toBeGreaterThan(0);
    // The pty's R went in a frame of its own before the file.
    expect(stats?.frames).toBe(1 + c.sizes.length);
    expect(stats?.pauses).toBe(0);
    // Once the held flood has gone quiet, the client on the pty's own tty is to be redrawn
    // (under tmux, the screen it stopped drawing for a client that fell behind).
    await eventually(() => redrawn.length > 0, 20_000, 'a redraw after the flood');
    expect(redrawn[0]).toMatch(/^\/dev\/[A-Za-z0-9/]+$/);
    expect(bridge.stats()[0]?.redraws).toBe(redrawn.length);
  }, 180_000);

  it('gathers the trickle that follows a flood (tmux drawing a few bytes at a time for a client behind it) until the flood goes quiet', async () => {
    // A burst large enough to be held, then 300 writes of a cursor move, each a millisecond
    // after the last, as tmux sends them while it draws for a client it has fallen behind for.
    const writes = 300;
    const { burst, file, program, expected } = burstThenTrickle('trickle.txt', 1, writes, 0);
    const { bridge, url } = await bridgeServer(file, program);
    const c = await client(url);
    c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new Uint8Array([0x67]) }));
    await eventually(() => c.received() >= expected.length, 60_000, 'the burst and the trickle');
    expect(Buffer.concat(c.chunks).equals(expected)).toBe(true);
    const burstFrames = framesOfBurst(c.sizes, burst.length);
    const trickleFrames = c.sizes.length - burstFrames;
    // Sent as read, each write would leave alone: 300 frames. Held, several go in each.
    expect(trickleFrames).toBeLessThanOrEqual(writes / 3);
    expect(Math.max(...c.sizes.slice(burstFrames))).toBeGreaterThan(MOVE.length);
    expect(bridge.stats()[0]?.holds).toBeGreaterThan(1);
    // The burst alone could not have been held without a flood's size.
    expect(burst.length).toBeGreaterThan(BURST_BYTES);
  }, 60_000);

  it('keeps a flood going through quiet moments shorter than its end, so the trickle after each of them is gathered too', async () => {
    // The burst, then 10 runs of 30 cursor moves a millisecond apart, with 40 ms of quiet
    // between runs: longer than the quiet that asks tmux for a redraw, shorter than the one
    // that ends a flood, as tmux's own 100 ms timer leaves a client it had fallen behind for.
    const runs = 10;
    const perRun = 30;
    const { burst, file, program, expected } = burstThenTrickle('gaps.txt', runs, perRun, 40);
    const { bridge, url, redrawn } = await bridgeServer(file, program);
    const c = await client(url);
    c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new Uint8Array([0x67]) }));
    await eventually(() => c.received() >= expected.length, 60_000, 'the burst and the trickle');
    expect(Buffer.concat(c.chunks).equals(expected)).toBe(true);
    const burstFrames = framesOfBurst(c.sizes, burst.length);
    // Ended at the first quiet, the nine runs after it would go out a write a frame: 270.
    expect(c.sizes.length - burstFrames).toBeLessThanOrEqual((runs * perRun) / 3);
    // Each quiet still asks tmux to redraw: the screen as it stands shows between runs.
    expect(redrawn.length).toBeGreaterThan(1);
    expect(bridge.stats()[0]?.redraws).toBe(redrawn.length);
  }, 60_000);

  it('ends a flood when the person types: the echo is not held behind it', async () => {
    const burst = content(64 * 1024);
    const file = join(root, 'typed.txt');
    writeFileSync(file, burst);
    // A flood that would last ten minutes unless something ends it; cat echoes each key after it.
    const { bridge, url } = await bridgeServer(file, `stty raw -echo; printf R; head -c 1 >/dev/null; cat '${file}'; exec cat`, { floodQuietMs: 600_000 });
    const c = await client(url);
    c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new Uint8Array([0x67]) }));
    await eventually(() => c.received() >= burst.length, 60_000, 'the burst');
    const held = bridge.stats()[0]?.holds ?? 0;
    expect(held).toBeGreaterThan(0);
    const framesBefore = c.sizes.length;
    const keys = 'typed';
    for (const [i, key] of [...keys].entries()) {
      c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new Uint8Array(Buffer.from(key)) }));
      await eventually(() => c.received() >= burst.length + i + 1, 20_000, `the echo of key ${i + 1}`);
    }
    expect(Buffer.concat(c.chunks).subarray(burst.length).toString()).toBe(keys);
    // Each echo alone in its frame, and none held: the flood ended with the first key.
    expect(c.sizes.slice(framesBefore)).toEqual([...keys].map(() => 1));
    expect(bridge.stats()[0]?.holds).toBe(held);
  }, 60_000);

  it("takes what a redraw draws for the redraw's own: it asks for no other, however large", async () => {
    const burst = content(64 * 1024);
    const file = join(root, 'redrawn.txt');
    writeFileSync(file, burst);
    // A redraw that draws a screen of 8 KB on the client's tty (more than a burst), as tmux's
    // redraw of a large colourful screen does; the flood would last ten minutes.
    const screen = Buffer.from('#'.repeat(8 * 1024));
    // Written off the event loop: the pty's reader is this process, and a write that fills the
    // tty's buffer would block a synchronous writer (and with it the reader) for good.
    const { url, redrawn } = await bridgeServer(file, undefined, { floodQuietMs: 600_000, onRedraw: (tty) => void writeFile(tty, screen) });
    const c = await client(url);
    c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new Uint8Array([0x67]) }));
    await eventually(() => redrawn.length > 0 && c.received() >= burst.length + screen.length * redrawn.length, 60_000, 'the burst and a redraw of it');
    const asked = redrawn.length;
    // A redraw that asked for the next would ask again every REDRAW_QUIET_MS and a bit: over
    // twenty times in the next 300 ms. Pacing the test needs: what is checked is that nothing comes.
    await new Promise((r) => setTimeout(r, 300));
    expect(redrawn.length).toBe(asked);
    expect(c.received()).toBe(burst.length + screen.length * asked);
  }, 60_000);

  it('never holds a keystroke\'s echo that comes after a quiet moment: each leaves in a frame of its own', async () => {
    // cat echoes each key itself, one read each, with the terminal's own echo off.
    const { bridge, url, redrawn } = await bridgeServer('', 'stty raw -echo; printf R; exec cat');
    const c = await client(url);
    const keys = 'pocketmux echo';
    for (const [i, key] of [...keys].entries()) {
      c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new Uint8Array(Buffer.from(key)) }));
      await eventually(() => c.received() >= i + 1, 20_000, `the echo of key ${i + 1}`);
      // A person's next key comes long after the echo of the last. Pacing the test needs: the
      // quiet between keys is what it is about, and no signal stands for a gap in time.
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(Buffer.concat(c.chunks).toString()).toBe(keys);
    expect(c.sizes).toEqual([...keys].map(() => 1));
    expect(bridge.stats()[0]).toMatchObject({ holds: 0, frames: 1 + keys.length, redraws: 0 });
    // Nothing was held, so tmux is never asked to redraw between keys. The bridge runs in this
    // process: a timer due after the redraw timer any read could have armed fires after it.
    await new Promise((r) => setTimeout(r, REDRAW_QUIET_MS + 1));
    expect(redrawn).toEqual([]);
  }, 60_000);

  it('tells the typing clock of each frame a person typed (keys and the input bar), not of a resize', async () => {
    let keystrokes = 0;
    // Echo on: what is typed comes back, so the test sees when each frame was applied.
    const { url } = await bridgeServer('', "stty -opost -icanon min 1; printf R; exec cat", { typing: { keystroke: () => keystrokes++ } });
    const c = await client(url);
    c.ws.send(encodeFrame({ type: FrameType.Resize, cols: 120, rows: 40 }));
    c.ws.send(encodeFrame({ type: FrameType.Stdin, data: new TextEncoder().encode('k') }));
    // The key's two echoes (the tty's, then cat's) are awaited before the input bar's text is
    // sent: sent at once, the tty could echo 'w' before cat copied 'k'.
    await eventually(() => Buffer.concat(c.chunks).toString() === 'kk', 10_000, 'the key echoed twice');
    c.ws.send(encodeFrame({ type: FrameType.WebStdin, text: 'w' }));
    // Frames apply in order: once the input bar's text is echoed, the resize went before it.
    await eventually(() => Buffer.concat(c.chunks).toString().endsWith('ww'), 10_000, 'the input bar text echoed');
    // Each key twice: the tty's echo, then cat's copy.
    expect(Buffer.concat(c.chunks).toString()).toBe('kkww');
    expect(keystrokes).toBe(2);
  });
});
