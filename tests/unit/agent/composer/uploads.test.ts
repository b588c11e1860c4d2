import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { saveUpload, UploadAbortedError, UploadError, UploadTooLargeError } from '../../../../agent/composer/uploads.js';
import { Slots } from '../../../../agent/util/slots.js';

const dirs: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pm-uploads-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const at = new Date(2025, 5, 7, 8, 9, 10);
const body = (...chunks: Buffer[]) => Readable.from(chunks);

describe('saving an upload', () => {
  it('writes the body to .pocketmux/uploads/<stamp>-<name>, 0600 in a 0700 folder, kept out of git', async () => {
    const dir = temp();
    const data = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(300_000, 7)]);
    const saved = await saveUpload(body(data.subarray(0, 1000), data.subarray(1000)), { sessionDir: dir, name: 'shot.png', maxBytes: 1_000_000, now: at });
    expect(saved).toEqual({ path: join(dir, '.pocketmux/uploads/20250607-080910-shot.png'), relativePath: '.pocketmux/uploads/20250607-080910-shot.png', bytes: data.length });
    expect(readFileSync(saved.path).equals(data)).toBe(true);
    expect(statSync(saved.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, '.pocketmux')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '.pocketmux', 'uploads')).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, '.pocketmux', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('never overwrites: the same name again gets -2, then -3', async () => {
    const dir = temp();
    const names: string[] = [];
    for (const text of ['one', 'two', 'three']) {
      names.push((await saveUpload(body(Buffer.from(text)), { sessionDir: dir, name: 'a.txt', maxBytes: 100, now: at })).relativePath);
    }
    expect(names.map((n) => n.split('/').at(-1))).toEqual(['20250607-080910-a.txt', '20250607-080910-a-2.txt', '20250607-080910-a-3.txt']);
    expect(names.map((n) => readFileSync(join(dir, n), 'utf8'))).toEqual(['one', 'two', 'three']);
  });

  it('refuses a body past the limit and leaves nothing behind', async () => {
    const dir = temp();
    await expect(saveUpload(body(Buffer.alloc(60), Buffer.alloc(60)), { sessionDir: dir, name: 'big.bin', maxBytes: 100 })).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(readdirSync(join(dir, '.pocketmux', 'uploads'))).toEqual([]);
  });

  it('leaves nothing when the client goes away, or stalls', async () => {
    const dir = temp();
    const cut = new PassThrough();
    cut.on('error', () => undefined);
    const saving = saveUpload(cut, { sessionDir: dir, name: 'cut.bin', maxBytes: 1000 });
    cut.write(Buffer.alloc(10));
    setTimeout(() => cut.destroy(new Error('aborted')), 20);
    await expect(saving).rejects.toBeInstanceOf(UploadAbortedError);
    // Cut before the agent began to read it.
    const early = new PassThrough();
    early.on('error', () => undefined);
    early.destroy(new Error('aborted'));
    await expect(saveUpload(early, { sessionDir: dir, name: 'early.bin', maxBytes: 1000 })).rejects.toBeInstanceOf(UploadAbortedError);
    const stalled = new PassThrough();
    stalled.write(Buffer.alloc(10));
    await expect(saveUpload(stalled, { sessionDir: dir, name: 'slow.bin', maxBytes: 1000, idleMs: 50 })).rejects.toBeInstanceOf(UploadAbortedError);
    expect(readdirSync(join(dir, '.pocketmux', 'uploads'))).toEqual([]);
  });

  it('refuses a .pocketmux or uploads folder that is a symbolic link, writing nothing there', async () => {
    const elsewhere = temp();
    const dir = temp();
    symlinkSync(elsewhere, join(dir, '.pocketmux'));
    await expect(saveUpload(body(Buffer.from('x')), { sessionDir: dir, name: 'x', maxBytes: 10 })).rejects.toMatchObject({ status: 409, message: expect.stringContaining('symbolic link') });
    const other = temp();
    mkdirSync(join(other, '.pocketmux'));
    symlinkSync(elsewhere, join(other, '.pocketmux', 'uploads'));
    await expect(saveUpload(body(Buffer.from('x')), { sessionDir: other, name: 'x', maxBytes: 10 })).rejects.toBeInstanceOf(UploadError);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(lstatSync(join(dir, '.pocketmux')).isSymbolicLink()).toBe(true);
  });

  it('refuses a session directory that is gone', async () => {
    await expect(saveUpload(body(Buffer.from('x')), { sessionDir: join(temp(), 'gone'), name: 'x', maxBytes: 10 })).rejects.toMatchObject({ status: 409 });
  });
});

describe('upload slots', () => {
  it('gives at most max at once, and each release once', () => {
    const slots = new Slots(2);
    const a = slots.tryTake();
    const b = slots.tryTake();
    expect(a && b).toBeTruthy();
    expect(slots.tryTake()).toBeNull();
    a?.();
    a?.();
    expect(slots.inUse).toBe(1);
    expect(slots.tryTake()).not.toBeNull();
    expect(slots.tryTake()).toBeNull();
  });
});
