/**
 * Input written straight into a real pty (node-pty), as the terminal bridge writes a
 * browser's keys: at once when the kernel takes it, held in order when it does not, never
 * after node-pty closed the descriptor.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterAll, describe, expect, it } from 'vitest';
import { PtyInput, ptyMaster } from '../../agent/terminal/pty-input.js';
import { eventually } from '../support/eventually.js';

const dir = mkdtempSync(join(tmpdir(), 'pm-pty-input-'));
const started: pty.IPty[] = [];
afterAll(() => {
  for (const p of started) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A shell in a raw, silent pty that prints `ready`, waits `delay` seconds, then copies its input to `out`. */
async function reader(out: string, delay: number): Promise<pty.IPty> {
  const p = pty.spawn('sh', ['-c', `stty raw -echo; echo ready; sleep ${delay}; exec cat > '${out}'`], { cols: 80, rows: 24, encoding: null });
  started.push(p);
  let seen = '';
  await new Promise<void>((resolve) => {
    p.onData((d) => {
      seen += Buffer.from(d as unknown as Buffer).toString('latin1');
      if (seen.includes('ready')) resolve();
    });
  });
  return p;
}

function input(p: pty.IPty, drained: () => void = () => undefined): { input: PtyInput; errors: Error[] } {
  const errors: Error[] = [];
  const master = ptyMaster(p);
  const result = new PtyInput(master, { onDrained: drained, onError: (e) => errors.push(e) });
  master.onClose(() => result.dispose());
  return { input: result, errors };
}

const size = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
};

describe('PtyInput on a real pty', () => {
  it('writes a key into the kernel at once, holding nothing', async () => {
    const out = join(dir, 'key.txt');
    const p = await reader(out, 0);
    const { input: keys, errors } = input(p);
    await eventually(() => size(out) === 0);
    keys.write(Buffer.from('hello'));
    expect(keys.pendingBytes).toBe(0);
    await eventually(() => readFileSync(out, 'latin1') === 'hello');
    expect(errors).toEqual([]);
  });

  it('holds what a pty nobody reads refuses, in order, and lets it go once the program reads', async () => {
    const out = join(dir, 'paste.txt');
    const p = await reader(out, 1);
    let drained = 0;
    const { input: paste, errors } = input(p, () => drained++);
    const text = randomBytes(1_500_000).toString('base64');
    let mostPending = 0;
    for (let at = 0; at < text.length; at += 32 * 1024) {
      paste.write(Buffer.from(text.slice(at, at + 32 * 1024), 'latin1'));
      mostPending = Math.max(mostPending, paste.pendingBytes);
    }
    // The kernel holds some tens of kilobytes for a pty; the rest waits here, in pieces as written.
    expect(mostPending).toBeGreaterThan(text.length - 256 * 1024);
    expect(paste.pendingWrites).toBeGreaterThan(Math.floor(mostPending / (32 * 1024)) - 1);
    await eventually(() => drained === 1, 20_000, 'the held input taken');
    expect(paste.pendingBytes).toBe(0);
    expect(paste.pendingWrites).toBe(0);
    await eventually(() => size(out) === text.length, 20_000, 'every byte copied');
    expect(readFileSync(out, 'latin1') === text).toBe(true);
    expect(errors).toEqual([]);
  });

  it('writes nothing once node-pty closed the pty, and says nothing', async () => {
    const p = pty.spawn('sh', ['-c', 'exit 0'], { cols: 80, rows: 24, encoding: null });
    started.push(p);
    const { input: late, errors } = input(p);
    const order: string[] = [];
    ptyMaster(p).onClose(() => order.push('close'));
    await new Promise<void>((resolve) => p.onExit(() => resolve()));
    order.push('exit');
    // node-pty closes its descriptor, and says so, before it reports the exit.
    expect(order).toEqual(['close', 'exit']);
    late.write(Buffer.from('after the end'));
    expect(late.pendingBytes).toBe(0);
    expect(errors).toEqual([]);
  });

  it('writes nothing into the descriptor once node-pty destroyed its stream, though the number is reused at once', async () => {
    const out = join(dir, 'reused.txt');
    const p = await reader(out, 60);
    const { input: keys, errors } = input(p);
    keys.write(Buffer.from('before'));
    expect(keys.pendingBytes).toBe(0);
    // What node-pty's exit timer does to a paused pty: the stream goes, its descriptor closed
    // there and then; node-pty's close event comes a loop phase later, and a key can come
    // in between (a WebSocket message in the poll phase) while another file takes the number.
    (p as unknown as { _socket: { destroy(): void } })._socket.destroy();
    const victim = join(dir, 'victim.txt');
    const fd = openSync(victim, 'w');
    try {
      expect(fd).toBe(ptyMaster(p).fd);
      // PtyInput writes at once (writeSync) or queues what waits, counted in pendingBytes, for
      // its retry timer: nothing is queued below, so nothing can reach the file later.
      keys.write(Buffer.from('after'));
      expect(readFileSync(victim, 'latin1')).toBe('');
      expect(keys.pendingBytes).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      closeSync(fd);
    }
  });

  it('reports a write error once, drops what waits and writes nothing more', () => {
    const file = join(dir, 'read-only.txt');
    writeFileSync(file, 'kept');
    const fd = openSync(file, 'r');
    try {
      const errors: Error[] = [];
      const broken = new PtyInput({ fd, isOpen: () => true }, { onDrained: () => undefined, onError: (e) => errors.push(e) });
      broken.write(Buffer.from('one'));
      broken.write(Buffer.from('two'));
      expect(errors).toHaveLength(1);
      expect((errors[0] as NodeJS.ErrnoException).code).toBe('EBADF');
      expect(broken.pendingBytes).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe('kept');
    } finally {
      closeSync(fd);
    }
  });
});
